import { useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import { EXPENSE_SORTS, type ExpenseSort } from '../../../contract/expenses.js';
import { ModalDialog } from '../../components/modal-dialog.js';
import { ModalForm } from '../../components/modal-form.js';
import { EXPENSE_SORT_LABELS } from './expense-sort.js';
import { isExpenseSort } from './expense-sort-preference.js';

interface SortExpensesDialogProps {
  readonly show: boolean;
  /** The order in use; null is the default (day, then name). */
  readonly sort: ExpenseSort | null;
  readonly onSave: (sort: ExpenseSort | null) => void;
  readonly onClose: () => void;
}

/** "Sort Expenses". The caller remounts it per opening, so it opens at the order in use. */
export function SortExpensesDialog({ show, sort, onSave, onClose }: SortExpensesDialogProps) {
  const id = useId();
  const [choice, setChoice] = useState<string>(sort ?? '');

  return (
    <ModalDialog show={show} title="Sort Expenses" onClose={onClose}>
      <ModalForm submitLabel="Save" onSubmit={() => onSave(isExpenseSort(choice) ? choice : null)} onCancel={onClose}>
        <Form.Group controlId={`${id}-sort-by`}>
          <Form.Label>Sort By</Form.Label>
          <Form.Select value={choice} onChange={(event) => setChoice(event.target.value)} aria-describedby={`${id}-sort-help`}>
            <option value="">-- Please Select --</option>
            {EXPENSE_SORTS.map((option) => (
              <option key={option} value={option}>
                {EXPENSE_SORT_LABELS[option]}
              </option>
            ))}
          </Form.Select>
          <Form.Text id={`${id}-sort-help`}>Without a choice, expenses are listed by day, then name.</Form.Text>
        </Form.Group>
      </ModalForm>
    </ModalDialog>
  );
}
