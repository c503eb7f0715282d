/**
 * "New Ledger": the dates and opening balance of a fresh ledger. Creating replaces the user's one
 * ledger, so the dialog says so whenever there may be one to lose.
 */
import { type FormEvent, useId, useState } from 'react';
import { Alert, Button, Form, Modal } from 'react-bootstrap';
import { createLedgerRequestSchema, type Ledger } from '../../../contract/ledger.js';
import { useApiClient } from '../../api/api-context.js';
import { checkForm, type FieldErrors, numberFromInput } from '../../components/field-errors.js';
import { FieldFeedback, invalidProps } from './field-feedback.js';
import type { RunLedgerCall } from './use-ledger-call.js';

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
  const titleId = useId();
  return (
    <Modal show={show} onHide={onClose} aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId}>New Ledger</Modal.Title>
      </Modal.Header>
      {/* Inside the modal, so its values start empty each time the dialog opens. */}
      <NewLedgerForm onClose={onClose} {...formProps} />
    </Modal>
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
  const [errors, setErrors] = useState<FieldErrors>({});
  const [isSending, setIsSending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkForm(createLedgerRequestSchema, {
      ledger: { startDate, endDate, currentBalance: numberFromInput(currentBalance) },
    });
    if (!checked.ok) {
      setErrors(checked.fields);
      return;
    }
    setErrors({});
    setIsSending(true);
    const outcome = await runLedgerCall(() => api.createLedger(checked.value));
    if (outcome.ok) {
      onClose();
      return;
    }
    setErrors(outcome.fields);
    setIsSending(false);
  }

  const startError = errors['ledger.startDate'];
  const endError = errors['ledger.endDate'];
  const balanceError = errors['ledger.currentBalance'];

  return (
    <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
      <Modal.Body>
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
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={isSending}>
          Create
        </Button>
      </Modal.Footer>
    </Form>
  );
}

function ReplaceWarning({ currentLedger, isLedgerKnown }: Pick<NewLedgerFormProps, 'currentLedger' | 'isLedgerKnown'>) {
  if (currentLedger !== null) {
    const count = currentLedger.transactions.length;
    return (
      <Alert variant="warning">
        Creating a new ledger replaces your current ledger ({currentLedger.startDate} to {currentLedger.endDate}) and its {count.toLocaleString('en-US')}{' '}
        {count === 1 ? 'transaction' : 'transactions'}.
      </Alert>
    );
  }
  if (!isLedgerKnown) {
    return <Alert variant="warning">Your ledger has not loaded. If you already have one, creating a new ledger replaces it.</Alert>;
  }
  return null;
}
