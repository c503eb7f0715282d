import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Button, Form, Modal } from 'react-bootstrap';
import { type Expense, type ExpenseInput, expenseInputSchema } from '../../../contract/expenses.js';
import { checkForm, type FieldErrors } from '../../components/field-errors.js';
import { ExpenseFields } from './expense-fields.js';
import { EMPTY_EXPENSE_FORM, expenseCandidate, expenseFormValuesOf } from './expense-form-values.js';

interface ExpenseDialogProps {
  readonly show: boolean;
  /** The expense to change, or null to add one. */
  readonly expense: Expense | null;
  /** Sends a checked expense; answers the server's field messages when the call failed. */
  readonly onSave: (input: ExpenseInput) => Promise<FieldErrors>;
  readonly onClose: () => void;
}

/** "Add Expense" or "Edit Expense". The caller remounts it per opening, so it always opens fresh. */
export function ExpenseDialog({ show, expense, onSave, onClose }: ExpenseDialogProps) {
  const id = useId();
  const titleId = `${id}-title`;
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(() => (expense ? expenseFormValuesOf(expense) : EMPTY_EXPENSE_FORM));
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
    const checked = checkForm(expenseInputSchema, expenseCandidate(values));
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
        <Modal.Title id={titleId}>{expense ? 'Edit Expense' : 'Add Expense'}</Modal.Title>
      </Modal.Header>
      <Form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
        <Modal.Body>
          <ExpenseFields idPrefix={id} values={values} errors={errors} onChange={setValues} />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={saving}>
            {expense ? 'Save' : 'Add'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
