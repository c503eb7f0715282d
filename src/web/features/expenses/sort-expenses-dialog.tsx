import { type FormEvent, useId, useState } from 'react';
import { Button, Form, Modal } from 'react-bootstrap';
import { EXPENSE_SORTS, type ExpenseSort } from '../../../contract/expenses.js';
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
  const titleId = `${id}-title`;
  const [choice, setChoice] = useState<string>(sort ?? '');

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSave(isExpenseSort(choice) ? choice : null);
  }

  return (
    <Modal show={show} onHide={onClose} aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId}>Sort Expenses</Modal.Title>
      </Modal.Header>
      <Form noValidate onSubmit={submit}>
        <Modal.Body>
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
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary">
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
