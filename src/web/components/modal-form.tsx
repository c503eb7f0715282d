import type { FormEvent, ReactNode, Ref } from 'react';
import { Button, Form, Modal } from 'react-bootstrap';

interface ModalFormProps {
  /** The word on the submit button: "Add", "Save", "Create". */
  readonly submitLabel: string;
  /** True while the submitted values are on their way, so a second click cannot send them twice. */
  readonly submitting?: boolean;
  readonly onSubmit: () => void | Promise<void>;
  readonly onCancel: () => void;
  /** Buttons at the footer's start, before Cancel. */
  readonly footerStart?: ReactNode;
  /** Lets the caller look inside the form, to focus the first field marked invalid. */
  readonly ref?: Ref<HTMLFormElement>;
  readonly children: ReactNode;
}

/**
 * A dialog's form: the fields in the body, Cancel and the submit button in the footer. The
 * contract schema checks the values, so the browser's own validation is off.
 */
export function ModalForm({ submitLabel, submitting = false, onSubmit, onCancel, footerStart, ref, children }: ModalFormProps) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void onSubmit();
  }

  return (
    <Form ref={ref} noValidate onSubmit={submit}>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        {footerStart}
        <Button variant="outline-secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={submitting}>
          {submitLabel}
        </Button>
      </Modal.Footer>
    </Form>
  );
}
