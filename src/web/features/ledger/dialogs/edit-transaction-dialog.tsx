/**
 * "Edit Transaction": date, name and amount of an unpaid row, or deleting it; the type is fixed
 * once a row exists. The caller remounts it per opening.
 */
import { useState } from 'react';
import { Alert, Button, Modal } from 'react-bootstrap';
import type { LedgerTransaction } from '../../../../contract/ledger.js';
import { type TransactionUpdate, transactionUpdateSchema } from '../../../../contract/ledger-requests.js';
import { canEdit } from '../../../../domain/ledger.js';
import type { SaveOutcome } from '../../../components/field-errors.js';
import { ModalDialog } from '../../../components/modal-dialog.js';
import { SchemaFormDialog } from '../../../components/schema-form-dialog.js';
import { changesRow, type LedgerDates, ledgerDateErrors } from '../ledger-rules.js';
import { rowSourceLines, type ScheduleNames, transferLines } from '../row-source.js';
import { formatDateText } from './dialog-dates.js';
import { TransactionFields } from './transaction-fields.js';
import { transactionCandidate, transactionFormValuesOf } from './transaction-form-values.js';

interface EditTransactionDialogProps {
  readonly show: boolean;
  readonly transaction: LedgerTransaction;
  readonly ledger: LedgerDates;
  /** To say which deposit or expense a generated row comes from, and which account a transfer's other side is in. */
  readonly scheduleNames: ScheduleNames;
  /** Sends the whole row with the edited fields; not called when they change nothing. */
  readonly onSave: (update: TransactionUpdate) => Promise<SaveOutcome>;
  readonly onDelete: () => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

export function EditTransactionDialog({ show, transaction, ledger, scheduleNames, onSave, onDelete, onClose }: EditTransactionDialogProps) {
  const [isConfirmingDelete, setIsConfirmingDelete] = useState(false);
  const lines = [
    ...rowSourceLines(transaction.source, scheduleNames),
    ...transferLines(transaction.transfer, transaction.type, scheduleNames),
  ];
  const source = <RowSource lines={lines} />;

  /** Nothing changed (the domain's decideUpdate, in cents, as the server decides): nothing to send, the dialog just closes. */
  function save(update: TransactionUpdate): Promise<SaveOutcome> {
    if (changesRow(transaction, update, ledger)) return onSave(update);
    onClose();
    return Promise.resolve(undefined);
  }

  if (!canEdit(transaction.status)) {
    return (
      <ModalDialog show={show} title="Edit Transaction" onClose={onClose}>
        <Modal.Body>
          {source}
          Only unpaid transactions can be edited.
        </Modal.Body>
      </ModalDialog>
    );
  }

  return (
    <SchemaFormDialog
      show={show}
      title="Edit Transaction"
      submitLabel="Save"
      schema={transactionUpdateSchema}
      initialValues={transactionFormValuesOf(transaction)}
      candidateOf={(values) => ({ ...transaction, ...transactionCandidate(values) })}
      check={(values) => ledgerDateErrors(values.date, ledger)}
      notice={source}
      renderFields={(fields) => <TransactionFields {...fields} ledger={ledger} fixedType={transaction.type} />}
      renderBelowFields={({ sending, send }) =>
        isConfirmingDelete ? (
          <DeleteConfirmation
            transaction={transaction}
            sending={sending}
            onConfirm={() => void send(onDelete)}
            onKeep={() => setIsConfirmingDelete(false)}
          />
        ) : null
      }
      renderFooterStart={({ sending }) => (
        <Button
          variant="outline-danger"
          className="me-auto"
          disabled={sending || isConfirmingDelete}
          onClick={() => setIsConfirmingDelete(true)}
        >
          Delete
        </Button>
      )}
      onSave={save}
      onClose={onClose}
    />
  );
}

/** A generated row's schedule and occurrence, and a transfer's other side; nothing for an ordinary row added by hand. */
function RowSource({ lines }: { readonly lines: readonly string[] }) {
  if (lines.length === 0) return null;
  return (
    <div className="text-body-secondary mb-3">
      {lines.map((line) => (
        <p key={line} className="mb-0">
          {line}
        </p>
      ))}
    </div>
  );
}

interface DeleteConfirmationProps {
  readonly transaction: LedgerTransaction;
  readonly sending: boolean;
  readonly onConfirm: () => void;
  readonly onKeep: () => void;
}

/** Deleting cannot be undone, so it asks once more, naming the row as the server has it. */
function DeleteConfirmation({ transaction, sending, onConfirm, onKeep }: DeleteConfirmationProps) {
  return (
    <Alert variant="danger" className="mb-0">
      <p>
        Delete <bdi>{transaction.name}</bdi> on {formatDateText(transaction.date)}? This cannot be undone.
      </p>
      <div className="d-flex gap-2">
        <Button variant="danger" size="sm" disabled={sending} onClick={onConfirm}>
          Yes, Delete
        </Button>
        <Button variant="outline-secondary" size="sm" onClick={onKeep}>
          Keep It
        </Button>
      </div>
    </Alert>
  );
}
