/**
 * "Edit Transaction": date, name and amount of an unpaid row, or deleting it. Nothing is sent
 * when nothing changed; the type is fixed once a row exists.
 */
import { useState } from 'react';
import { Alert, Button, Modal } from 'react-bootstrap';
import { type LedgerTransaction, transactionUpdateSchema } from '../../../../contract/ledger.js';
import { canEdit } from '../../../../domain/ledger.js';
import { useApiClient } from '../../../api/api-context.js';
import { numberFromInput } from '../../../components/field-errors.js';
import { ModalDialog } from '../../../components/modal-dialog.js';
import { ModalForm } from '../../../components/modal-form.js';
import { TYPE_LABELS } from '../ledger-format.js';
import { checkWithinLedger, type LedgerDates } from '../ledger-range.js';
import { AmountField, DateField, NameField } from './transaction-fields.js';
import { changesTransaction } from '../transaction-update.js';
import type { RunLedgerCall } from '../use-ledger-call.js';
import { useLedgerForm } from './use-ledger-form.js';

interface EditTransactionDialogProps {
  readonly show: boolean;
  /** Kept while the dialog fades out, so its content does not vanish mid-animation. */
  readonly transaction: LedgerTransaction | null;
  readonly ledger: LedgerDates;
  readonly runLedgerCall: RunLedgerCall;
  readonly onClose: () => void;
  readonly onExited: () => void;
}

export function EditTransactionDialog({ show, transaction, onClose, onExited, ...formProps }: EditTransactionDialogProps) {
  return (
    <ModalDialog show={show} title="Edit Transaction" onClose={onClose} onExited={onExited}>
      {transaction === null ? null : (
        <EditTransactionForm key={transaction.id} transaction={transaction} onClose={onClose} {...formProps} />
      )}
    </ModalDialog>
  );
}

interface EditTransactionFormProps {
  readonly transaction: LedgerTransaction;
  readonly ledger: LedgerDates;
  readonly runLedgerCall: RunLedgerCall;
  readonly onClose: () => void;
}

function EditTransactionForm({ transaction, ledger, runLedgerCall, onClose }: EditTransactionFormProps) {
  const api = useApiClient();
  const [date, setDate] = useState(transaction.date);
  const [name, setName] = useState(transaction.name);
  const [amount, setAmount] = useState(String(transaction.amount));
  const { errors, setErrors, isSending, send } = useLedgerForm(runLedgerCall, onClose);
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);

  async function handleSubmit() {
    const checked = checkWithinLedger(
      transactionUpdateSchema,
      { ...transaction, date, name, amount: numberFromInput(amount) },
      date,
      ledger,
    );
    if (!checked.ok) {
      setErrors(checked.fields);
      return;
    }
    setErrors({});
    if (!changesTransaction(transaction, checked.value)) {
      onClose();
      return;
    }
    await send(() => api.updateTransaction(checked.value));
  }

  if (!canEdit(transaction.status)) {
    return <Modal.Body>Only unpaid transactions can be edited.</Modal.Body>;
  }

  return (
    <ModalForm
      submitLabel="Save"
      submitting={isSending}
      onSubmit={handleSubmit}
      onCancel={onClose}
      footerStart={
        <Button
          variant="outline-danger"
          className="me-auto"
          disabled={isSending || isConfirmingDelete}
          onClick={() => setIsConfirmingDelete(true)}
        >
          Delete
        </Button>
      }
    >
      <DateField value={date} onValueChange={setDate} error={errors.date} min={ledger.startDate} max={ledger.endDate} />
      <NameField value={name} onValueChange={setName} error={errors.name} />
      <p className="mb-3">
        Type: {TYPE_LABELS[transaction.type]} <span className="text-body-secondary">(a row keeps its type)</span>
      </p>
      <AmountField value={amount} onValueChange={setAmount} error={errors.amount} />
      {isConfirmingDelete ? (
        <DeleteConfirmation
          transaction={transaction}
          isSending={isSending}
          onConfirm={() => void send(() => api.deleteTransaction(transaction.id))}
          onKeep={() => setIsConfirmingDelete(false)}
        />
      ) : null}
    </ModalForm>
  );
}

interface DeleteConfirmationProps {
  readonly transaction: LedgerTransaction;
  readonly isSending: boolean;
  readonly onConfirm: () => void;
  readonly onKeep: () => void;
}

/** Deleting cannot be undone, so it asks once more, naming the row as the server has it. */
function DeleteConfirmation({ transaction, isSending, onConfirm, onKeep }: DeleteConfirmationProps) {
  return (
    <Alert variant="danger" className="mb-0">
      <p>
        Delete {transaction.name} on {transaction.date}? This cannot be undone.
      </p>
      <div className="d-flex gap-2">
        <Button variant="danger" size="sm" disabled={isSending} onClick={onConfirm}>
          Yes, Delete
        </Button>
        <Button variant="outline-secondary" size="sm" onClick={onKeep}>
          Keep It
        </Button>
      </div>
    </Alert>
  );
}
