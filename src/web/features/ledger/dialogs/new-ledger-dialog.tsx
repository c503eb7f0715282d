/**
 * "New Ledger": the dates and opening balance of a fresh ledger. Creating replaces the user's one
 * ledger, so the dialog says so whenever there may be one to lose.
 */
import { useId, useState } from 'react';
import { Alert, Form } from 'react-bootstrap';
import { createLedgerRequestSchema, type Ledger } from '../../../../contract/ledger.js';
import { useApiClient } from '../../../api/api-context.js';
import { checkForm, numberFromInput } from '../../../components/field-errors.js';
import { ModalDialog } from '../../../components/modal-dialog.js';
import { ModalForm } from '../../../components/modal-form.js';
import { FieldFeedback, invalidProps } from './field-feedback.js';
import type { RunLedgerCall } from '../use-ledger-call.js';
import { useLedgerForm } from './use-ledger-form.js';

interface NewLedgerDialogProps {
  readonly show: boolean;
  /** The ledger that creating would replace: null when there is none. */
  readonly currentLedger: Ledger | null;
  /** False while the ledger could not be loaded: there may be one to replace. */
  readonly isLedgerKnown: boolean;
  readonly runLedgerCall: RunLedgerCall;
  readonly onClose: () => void;
}

export function NewLedgerDialog({ show, onClose, ...formProps }: NewLedgerDialogProps) {
  return (
    <ModalDialog show={show} title="New Ledger" onClose={onClose}>
      {/* Inside the modal, so its values start empty each time the dialog opens. */}
      <NewLedgerForm onClose={onClose} {...formProps} />
    </ModalDialog>
  );
}

type NewLedgerFormProps = Omit<NewLedgerDialogProps, 'show'>;

function NewLedgerForm({ currentLedger, isLedgerKnown, runLedgerCall, onClose }: NewLedgerFormProps) {
  const api = useApiClient();
  const id = useId();
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [currentBalance, setCurrentBalance] = useState('');
  // Keyed like the contract's paths ('ledger.endDate'), on the page and from the server alike.
  const { errors, setErrors, isSending, send } = useLedgerForm(runLedgerCall, onClose);

  async function handleSubmit() {
    const checked = checkForm(createLedgerRequestSchema, {
      ledger: { startDate, endDate, currentBalance: numberFromInput(currentBalance) },
    });
    if (!checked.ok) {
      setErrors(checked.fields);
      return;
    }
    setErrors({});
    await send(() => api.createLedger(checked.value));
  }

  const startError = errors['ledger.startDate'];
  const endError = errors['ledger.endDate'];
  const balanceError = errors['ledger.currentBalance'];

  return (
    <ModalForm submitLabel="Create" submitting={isSending} onSubmit={handleSubmit} onCancel={onClose}>
      <ReplaceWarning currentLedger={currentLedger} isLedgerKnown={isLedgerKnown} />
      <Form.Group className="mb-3">
        <Form.Label htmlFor={`${id}-start`}>Start Date</Form.Label>
        <Form.Control
          id={`${id}-start`}
          type="date"
          value={startDate}
          onChange={(event) => setStartDate(event.target.value)}
          {...invalidProps(startError, `${id}-start-feedback`)}
        />
        <FieldFeedback id={`${id}-start-feedback`} message={startError} />
      </Form.Group>
      <Form.Group className="mb-3">
        <Form.Label htmlFor={`${id}-end`}>End Date</Form.Label>
        <Form.Control
          id={`${id}-end`}
          type="date"
          min={startDate || undefined}
          value={endDate}
          onChange={(event) => setEndDate(event.target.value)}
          {...invalidProps(endError, `${id}-end-feedback`)}
        />
        <FieldFeedback id={`${id}-end-feedback`} message={endError} />
      </Form.Group>
      <Form.Group>
        <Form.Label htmlFor={`${id}-balance`}>Current Balance</Form.Label>
        <Form.Control
          id={`${id}-balance`}
          type="number"
          inputMode="decimal"
          step="0.01"
          value={currentBalance}
          onChange={(event) => setCurrentBalance(event.target.value)}
          {...invalidProps(balanceError, `${id}-balance-feedback`)}
        />
        <FieldFeedback id={`${id}-balance-feedback`} message={balanceError} />
        <Form.Text>What your bank shows today; it may be zero or negative.</Form.Text>
      </Form.Group>
    </ModalForm>
  );
}

function ReplaceWarning({ currentLedger, isLedgerKnown }: Pick<NewLedgerFormProps, 'currentLedger' | 'isLedgerKnown'>) {
  if (currentLedger !== null) {
    const count = currentLedger.transactions.length;
    return (
      <Alert variant="warning">
        Creating a new ledger replaces your current ledger ({currentLedger.startDate} to {currentLedger.endDate}) and its{' '}
        {count.toLocaleString('en-US')} {count === 1 ? 'transaction' : 'transactions'}.
      </Alert>
    );
  }
  if (!isLedgerKnown) {
    return <Alert variant="warning">Your ledger has not loaded. If you already have one, creating a new ledger replaces it.</Alert>;
  }
  return null;
}
