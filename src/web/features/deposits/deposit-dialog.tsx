import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Button, Form, Modal } from 'react-bootstrap';
import { type Deposit, type DepositInput, depositInputSchema } from '../../../contract/deposits.js';
import { checkForm, type FieldErrors } from '../../components/field-errors.js';
import { DepositFields } from './deposit-fields.js';
import { depositCandidate, depositFormValuesOf, EMPTY_DEPOSIT_FORM } from './deposit-form-values.js';

interface DepositDialogProps {
  readonly show: boolean;
  /** The deposit to change, or null to add one. */
  readonly deposit: Deposit | null;
  /** Sends a checked deposit; answers the server's field messages when the call failed. */
  readonly onSave: (input: DepositInput) => Promise<FieldErrors>;
  readonly onClose: () => void;
}

/** "Add Deposit" or "Edit Deposit". The caller remounts it per opening, so it always opens fresh. */
export function DepositDialog({ show, deposit, onSave, onClose }: DepositDialogProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(() => (deposit ? depositFormValuesOf(deposit) : EMPTY_DEPOSIT_FORM));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  // Only a failed check of the form moves focus; after a failed call "Whoops!" takes it.
  const focusFirstError = useRef(false);

  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkForm(depositInputSchema, depositCandidate(values));
    if (!checked.ok) {
      focusFirstError.current = true;
      setErrors(checked.fields);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      setErrors(await onSave(checked.value));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal show={show} onHide={onClose} aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId}>{deposit ? 'Edit Deposit' : 'Add Deposit'}</Modal.Title>
      </Modal.Header>
      <Form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
        <Modal.Body>
          <DepositFields idPrefix={id} values={values} errors={errors} onChange={setValues} />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={saving}>
            {deposit ? 'Save' : 'Add'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
