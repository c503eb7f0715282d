/** "Add Transaction": a new unpaid row in the ledger. Its fields start empty every time it opens. */
import { type FormEvent, useId, useState } from 'react';
import { Button, Form, Modal } from 'react-bootstrap';
import { type Ledger, newTransactionSchema } from '../../../contract/ledger.js';
import { TRANSACTION_TYPES } from '../../../domain/ledger.js';
import { useApiClient } from '../../api/api-context.js';
import { checkForm, type FieldErrors, numberFromInput } from '../../components/field-errors.js';
import { FieldFeedback, invalidProps } from './field-feedback.js';
import { TYPE_LABELS } from './ledger-format.js';
import { withDateRangeError } from './ledger-range.js';
import { AmountField, DateField, NameField } from './transaction-fields.js';
import type { RunLedgerCall } from './use-ledger-call.js';

interface AddTransactionDialogProps {
  readonly show: boolean;
  readonly ledger: Ledger;
  readonly runLedgerCall: RunLedgerCall;
  readonly onClose: () => void;
}

export function AddTransactionDialog({ show, onClose, ...formProps }: AddTransactionDialogProps) {
  const titleId = useId();
  return (
    <Modal show={show} onHide={onClose} aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId}>Add Transaction</Modal.Title>
      </Modal.Header>
      {/* Inside the modal, so the fields reset when the dialog closes. */}
      <AddTransactionForm onClose={onClose} {...formProps} />
    </Modal>
  );
}

function AddTransactionForm({ ledger, runLedgerCall, onClose }: Omit<AddTransactionDialogProps, 'show'>) {
  const api = useApiClient();
  const typeId = useId();
  const [date, setDate] = useState('');
  const [name, setName] = useState('');
  const [type, setType] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [isSending, setIsSending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkForm(newTransactionSchema, { date, name, type, amount: numberFromInput(amount) });
    const fields = withDateRangeError(checked.ok ? {} : checked.fields, date, ledger);
    if (!checked.ok || Object.keys(fields).length > 0) {
      setErrors(fields);
      return;
    }
    setErrors({});
    setIsSending(true);
    const outcome = await runLedgerCall(() => api.addTransaction(checked.value));
    if (outcome.ok) {
      onClose();
      return;
    }
    setErrors(outcome.fields);
    setIsSending(false);
  }

  const typeError = errors.type;
  return (
    <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
      <Modal.Body>
        <DateField value={date} onValueChange={setDate} error={errors.date} min={ledger.startDate} max={ledger.endDate} />
        <NameField value={name} onValueChange={setName} error={errors.name} />
        <Form.Group className="mb-3">
          <Form.Label htmlFor={typeId}>Type</Form.Label>
          <Form.Select id={typeId} value={type} onChange={(event) => setType(event.target.value)} {...invalidProps(typeError, `${typeId}-feedback`)}>
            <option value="">-- Please Select --</option>
            {TRANSACTION_TYPES.map((code) => (
              <option key={code} value={code}>
                {TYPE_LABELS[code]}
              </option>
            ))}
          </Form.Select>
          <FieldFeedback id={`${typeId}-feedback`} message={typeError} />
        </Form.Group>
        <AmountField value={amount} onValueChange={setAmount} error={errors.amount} />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={isSending}>
          Add
        </Button>
      </Modal.Footer>
    </Form>
  );
}
