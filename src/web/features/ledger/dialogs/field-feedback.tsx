/**
 * A field's error message, tied to its control so screen readers read it with the field. Shown
 * only while there is a message, and always as a block: the combobox and the date-with-Today
 * group put other elements between the control and its message, which Bootstrap's sibling rule
 * would not see through.
 */
import { Form } from 'react-bootstrap';

export function FieldFeedback({ id, message }: { readonly id: string; readonly message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <Form.Control.Feedback id={id} type="invalid" className="d-block">
      {message}
    </Form.Control.Feedback>
  );
}

/** The props that mark a control invalid, visibly and for assistive technology. */
export function invalidProps(message: string | undefined, feedbackId: string) {
  const isInvalid = message !== undefined;
  return {
    isInvalid,
    'aria-invalid': isInvalid ? true : undefined,
    'aria-describedby': isInvalid ? feedbackId : undefined,
  } as const;
}
