/**
 * The controls the dialogs' fields are made of. Each goes inside a FormField, which labels it and
 * marks its error (the control props), and answers the text the user typed or picked.
 */
import { Button, Form, InputGroup } from 'react-bootstrap';
import { todayIn } from '../../domain/calendar-date.js';
import type { FieldControlProps } from './form-field.js';

interface TextControlProps extends FieldControlProps {
  readonly value: string;
  readonly onValueChange: (value: string) => void;
}

interface TextInputProps extends TextControlProps {
  readonly type?: 'text' | 'date';
  readonly min?: string;
}

/** One line of text (browsers suggest nothing: names here are the user's own), or a date. */
export function TextInput({ type = 'text', onValueChange, ...control }: TextInputProps) {
  return (
    <Form.Control
      {...control}
      type={type}
      autoComplete={type === 'text' ? 'off' : undefined}
      onChange={(event) => onValueChange(event.target.value)}
    />
  );
}

interface ChoiceSelectProps<Choice extends string> extends TextControlProps {
  readonly choices: readonly Choice[];
  /** What an option says; its value stays the code. */
  readonly labelOf?: (choice: Choice) => string;
  readonly disabled?: boolean;
  /** False for a select that opens at a default choice: there is then nothing left unchosen. */
  readonly withPlaceholder?: boolean;
}

/** A select that starts at "-- Please Select --", an empty value: nothing is chosen until the user chooses. */
export function ChoiceSelect<Choice extends string>({
  choices,
  labelOf = String,
  withPlaceholder = true,
  onValueChange,
  ...control
}: ChoiceSelectProps<Choice>) {
  return (
    <Form.Select {...control} onChange={(event) => onValueChange(event.target.value)}>
      {withPlaceholder && <option value="">-- Please Select --</option>}
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {labelOf(choice)}
        </option>
      ))}
    </Form.Select>
  );
}

interface DollarsInputProps extends TextControlProps {
  /** A balance may be zero or negative; an amount is more than zero. */
  readonly signed?: boolean;
}

/** Dollars to the cent. */
export function DollarsInput({ signed = false, onValueChange, ...control }: DollarsInputProps) {
  return (
    <Form.Control
      {...control}
      type="number"
      inputMode="decimal"
      step="0.01"
      min={signed ? undefined : '0.01'}
      onChange={(event) => onValueChange(event.target.value)}
    />
  );
}

interface DateWithTodayProps extends TextControlProps {
  readonly min?: string;
  readonly max?: string;
}

/** A date input with a "Today" button beside it. */
export function DateWithToday({ onValueChange, ...control }: DateWithTodayProps) {
  return (
    <InputGroup>
      <Form.Control {...control} type="date" onChange={(event) => onValueChange(event.target.value)} />
      <Button variant="outline-secondary" onClick={() => onValueChange(todayIn(new Date()))}>
        Today
      </Button>
    </InputGroup>
  );
}
