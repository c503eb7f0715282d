import { Button, Form, InputGroup } from 'react-bootstrap';
import { todayIn } from '../../domain/calendar-date.js';
import type { FieldControlProps } from './form-field.js';

interface DateWithTodayProps extends FieldControlProps {
  readonly value: string;
  readonly onValueChange: (value: string) => void;
  readonly min?: string;
  readonly max?: string;
}

/** A date input with a "Today" button beside it, labelled and marked by the FormField around it. */
export function DateWithToday({ value, onValueChange, min, max, ...control }: DateWithTodayProps) {
  return (
    <InputGroup>
      <Form.Control {...control} type="date" min={min} max={max} value={value} onChange={(event) => onValueChange(event.target.value)} />
      <Button variant="outline-secondary" onClick={() => onValueChange(todayIn(new Date()))}>
        Today
      </Button>
    </InputGroup>
  );
}
