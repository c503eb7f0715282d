import type { ReactNode } from 'react';
import { Form } from './bootstrap-form.js';

/** What a labelled control needs so that its error is marked and read out with it. */
export interface FieldControlProps {
  readonly isInvalid: boolean;
  readonly 'aria-invalid': true | undefined;
  readonly 'aria-describedby': string | undefined;
}

interface FormFieldProps {
  /** The control's id; the label points at it. */
  readonly id: string;
  readonly label: string;
  readonly error: string | undefined;
  readonly help?: string;
  readonly children: (control: FieldControlProps) => ReactNode;
}

/**
 * A label, its control, the control's error message and an optional hint, tied together by ids.
 * The message shows as a block: a combobox or a date with its Today button puts other elements
 * between the control and its message, which Bootstrap's sibling rule would not see through.
 */
export function FormField({ id, label, error, help, children }: FormFieldProps) {
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;
  const describedBy = [error ? errorId : null, help ? helpId : null].filter((part) => part !== null).join(' ');
  return (
    <Form.Group controlId={id} className="mb-3">
      <Form.Label>{label}</Form.Label>
      {children({
        isInvalid: error !== undefined,
        'aria-invalid': error !== undefined ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {error !== undefined && (
        <Form.Control.Feedback type="invalid" id={errorId} className="d-block">
          {error}
        </Form.Control.Feedback>
      )}
      {help && <Form.Text id={helpId}>{help}</Form.Text>}
    </Form.Group>
  );
}
