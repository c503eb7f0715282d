/** The fields the Add Transaction and Edit Transaction dialogs share, each labelled for getByLabelText. */
import { useId } from 'react';
import { Button, Form, InputGroup } from 'react-bootstrap';
import { todayIn } from '../../../../domain/calendar-date.js';
import { FieldFeedback, invalidProps } from './field-feedback.js';
import { NameCombobox } from './name-combobox.js';

interface FieldProps {
  readonly value: string;
  readonly onValueChange: (value: string) => void;
  readonly error: string | undefined;
}

interface DateFieldProps extends FieldProps {
  /** The ledger's dates: a transaction must fall within them. */
  readonly min: string;
  readonly max: string;
}

export function DateField({ value, onValueChange, error, min, max }: DateFieldProps) {
  const id = useId();
  const feedbackId = `${id}-feedback`;
  return (
    <Form.Group className="mb-3">
      <Form.Label htmlFor={id}>Date</Form.Label>
      <InputGroup>
        <Form.Control
          id={id}
          type="date"
          min={min}
          max={max}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          {...invalidProps(error, feedbackId)}
        />
        <Button variant="outline-secondary" onClick={() => onValueChange(todayIn(new Date()))}>
          Today
        </Button>
      </InputGroup>
      <FieldFeedback id={feedbackId} message={error} />
    </Form.Group>
  );
}

export function NameField({ value, onValueChange, error }: FieldProps) {
  const id = useId();
  const feedbackId = `${id}-feedback`;
  return (
    <Form.Group className="mb-3">
      <Form.Label htmlFor={id}>Name</Form.Label>
      <NameCombobox
        id={id}
        value={value}
        onValueChange={onValueChange}
        isInvalid={error !== undefined}
        describedBy={error === undefined ? undefined : feedbackId}
      />
      <FieldFeedback id={feedbackId} message={error} />
    </Form.Group>
  );
}

export function AmountField({ value, onValueChange, error }: FieldProps) {
  const id = useId();
  const feedbackId = `${id}-feedback`;
  return (
    <Form.Group className="mb-3">
      <Form.Label htmlFor={id}>Amount</Form.Label>
      <Form.Control
        id={id}
        type="number"
        inputMode="decimal"
        min="0.01"
        step="0.01"
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        {...invalidProps(error, feedbackId)}
      />
      <FieldFeedback id={feedbackId} message={error} />
    </Form.Group>
  );
}
