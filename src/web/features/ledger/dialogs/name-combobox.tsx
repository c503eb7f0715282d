/**
 * The Name field with its suggestions, as an ARIA combobox: the list follows the typed prefix,
 * arrows move through it, Enter picks, Escape closes only the list (not the dialog around it).
 */
import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import { Form } from 'react-bootstrap';
import type { FieldControlProps } from '../../../components/form-field.js';
import { matchingSuggestions } from './name-suggestions.js';

/** Labelled and marked by the FormField around it, which also gives the input its id. */
interface NameComboboxProps extends FieldControlProps {
  readonly value: string;
  readonly onValueChange: (value: string) => void;
}

const NO_ACTIVE_OPTION = -1;

export function NameCombobox({ value, onValueChange, ...control }: NameComboboxProps) {
  const listboxId = useId();
  const matches = useMemo(() => matchingSuggestions(value), [value]);
  // Closed by Escape, a pick or leaving the field, and at first (an edited row's name may match
  // some suggestions; the list should not cover the dialog before the user types). Typing opens it.
  const [dismissed, setDismissed] = useState(true);
  const [activeIndex, setActiveIndex] = useState(NO_ACTIVE_OPTION);
  const isOpen = !dismissed && matches.length > 0;
  const activeName = isOpen ? matches[activeIndex] : undefined;
  const optionId = (index: number) => `${listboxId}-${index}`;

  function close() {
    setDismissed(true);
    setActiveIndex(NO_ACTIVE_OPTION);
  }

  function pick(name: string) {
    onValueChange(name);
    close();
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (matches.length === 0) return;
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        const from = isOpen ? activeIndex : NO_ACTIVE_OPTION;
        const first = step === 1 ? 0 : matches.length - 1;
        setDismissed(false);
        setActiveIndex(from === NO_ACTIVE_OPTION ? first : (from + step + matches.length) % matches.length);
        return;
      }
      case 'Enter':
        // Without a highlighted suggestion, Enter submits the form as usual.
        if (activeName === undefined) return;
        event.preventDefault();
        pick(activeName);
        return;
      case 'Escape':
        if (!isOpen) return;
        // The dialog closes on Escape too; the first Escape belongs to the list.
        event.preventDefault();
        event.stopPropagation();
        close();
        return;
    }
  }

  return (
    <div className="name-combobox">
      <Form.Control
        {...control}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={isOpen}
        aria-controls={listboxId}
        aria-activedescendant={activeName === undefined ? undefined : optionId(activeIndex)}
        value={value}
        onChange={(event) => {
          onValueChange(event.target.value);
          setDismissed(false);
          setActiveIndex(NO_ACTIVE_OPTION);
        }}
        onKeyDown={handleKeyDown}
        onBlur={close}
      />
      <ul id={listboxId} role="listbox" aria-label="Suggestions" className="name-combobox__list list-group" hidden={!isOpen}>
        {isOpen
          ? matches.map((name, index) => (
              <li
                key={name}
                id={optionId(index)}
                role="option"
                aria-selected={index === activeIndex}
                className={`list-group-item list-group-item-action${index === activeIndex ? ' active' : ''}`}
                // Keep focus in the field so its blur does not close the list before the click lands.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(name)}
              >
                <bdi>{name}</bdi>
              </li>
            ))
          : null}
      </ul>
    </div>
  );
}
