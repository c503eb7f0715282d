/** "Add Transaction": a new unpaid row in the ledger. Its fields start empty every time it opens. */
import { useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import { type Ledger, newTransactionSchema } from '../../../../contract/ledger.js';
import { TRANSACTION_TYPES } from '../../../../domain/ledger.js';
import { useApiClient } from '../../../api/api-context.js';
import { numberFromInput } from '../../../components/field-errors.js';
import { ModalDialog } from '../../../components/modal-dialog.js';
import { ModalForm } from '../../../components/modal-form.js';
import { FieldFeedback, invalidProps } from './field-feedback.js';
import { TYPE_LABELS } from '../ledger-format.js';
import { checkWithinLedger } from '../ledger-range.js';
import { AmountField, DateField, NameField } from './transaction-fields.js';
import type { RunLedgerCall } from '../use-ledger-call.js';
import { useLedgerForm } from './use-ledger-form.js';

interface AddTransactionDialogProps {
  readonly show: boolean;
  readonly ledger: Ledger;
  readonly runLedgerCall: RunLedgerCall;
  readonly onClose: () => void;
}

export function AddTransactionDialog({ show, onClose, ...formProps }: AddTransactionDialogProps) {
  return (
    <ModalDialog show={show} title="Add Transaction" onClose={onClose}>
      {/* Inside the modal, so the fields reset when the dialog closes. */}
      <AddTransactionForm onClose={onClose} {...formProps} />
    </ModalDialog>
  );
}

function AddTransactionForm({ ledger, runLedgerCall, onClose }: Omit<AddTransactionDialogProps, 'show'>) {
  const api = useApiClient();
  const typeId = useId();
  const [date, setDate] = useState('');
  const [name, setName] = useState('');
  const [type, setType] = useState('');
  const [amount, setAmount] = useState('');
  const { errors, setErrors, isSending, send } = useLedgerForm(runLedgerCall, onClose);

  async function handleSubmit() {
    const checked = checkWithinLedger(newTransactionSchema, { date, name, type, amount: numberFromInput(amount) }, date, ledger);
    if (!checked.ok) {
      setErrors(checked.fields);
      return;
    }
    setErrors({});
    await send(() => api.addTransaction(checked.value));
  }

  const typeError = errors.type;
  return (
    <ModalForm submitLabel="Add" submitting={isSending} onSubmit={handleSubmit} onCancel={onClose}>
      <DateField value={date} onValueChange={setDate} error={errors.date} min={ledger.startDate} max={ledger.endDate} />
      <NameField value={name} onValueChange={setName} error={errors.name} />
      <Form.Group className="mb-3">
        <Form.Label htmlFor={typeId}>Type</Form.Label>
        <Form.Select
          id={typeId}
          value={type}
          onChange={(event) => setType(event.target.value)}
          {...invalidProps(typeError, `${typeId}-feedback`)}
        >
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
    </ModalForm>
  );
}
