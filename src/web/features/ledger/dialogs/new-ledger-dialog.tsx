/**
 * "New Ledger": the dates and opening balance of a fresh ledger. Creating replaces the user's one
 * ledger, so the dialog says so whenever there may be one to lose, counts the history that would
 * go, and offers to extend instead. The caller remounts it per opening, so it always opens empty.
 */
import { Alert, Button } from 'react-bootstrap';
import type { LedgerView } from '../../../../contract/codecs.js';
import { type CreateLedgerRequest, createLedgerRequestSchema } from '../../../../contract/ledger-requests.js';
import { formatDate } from '../../../../domain/calendar-date.js';
import { numberFromInput, type SaveOutcome } from '../../../components/field-errors.js';
import { DollarsInput, TextInput } from '../../../components/form-controls.js';
import { FormField } from '../../../components/form-field.js';
import { type FormFieldsProps, SchemaFormDialog } from '../../../components/schema-form-dialog.js';

interface NewLedgerDialogProps {
  readonly show: boolean;
  /** The ledger that creating would replace: null when there is none. */
  readonly currentLedger: LedgerView | null;
  /** False while the ledger could not be loaded: there may be one to replace. */
  readonly isLedgerKnown: boolean;
  readonly onSave: (request: CreateLedgerRequest) => Promise<SaveOutcome>;
  /** Closes this dialog and opens Extend Ledger: what keeps the history. */
  readonly onExtendInstead: () => void;
  readonly onClose: () => void;
}

interface NewLedgerFormValues {
  readonly startDate: string;
  readonly endDate: string;
  readonly currentBalance: string;
}

const EMPTY_NEW_LEDGER_FORM: NewLedgerFormValues = { startDate: '', endDate: '', currentBalance: '' };

export function NewLedgerDialog({ show, currentLedger, isLedgerKnown, onSave, onExtendInstead, onClose }: NewLedgerDialogProps) {
  return (
    <SchemaFormDialog
      show={show}
      title="New Ledger"
      submitLabel="Create"
      schema={createLedgerRequestSchema}
      // The contract wraps the new ledger in a `ledger` key, so its messages come as 'ledger.endDate'.
      errorPrefix="ledger."
      initialValues={EMPTY_NEW_LEDGER_FORM}
      candidateOf={(values) => ({ ledger: { ...values, currentBalance: numberFromInput(values.currentBalance) } })}
      notice={<ReplaceWarning currentLedger={currentLedger} isLedgerKnown={isLedgerKnown} onExtendInstead={onExtendInstead} />}
      renderFields={(fields) => <NewLedgerFields {...fields} />}
      onSave={onSave}
      onClose={onClose}
    />
  );
}

function NewLedgerFields({ idPrefix, values, errors, onChange }: FormFieldsProps<NewLedgerFormValues>) {
  const set = (field: keyof NewLedgerFormValues) => (value: string) => onChange({ ...values, [field]: value });

  return (
    <>
      <FormField id={`${idPrefix}-start-date`} label="Start Date" error={errors.startDate}>
        {(control) => <TextInput {...control} type="date" value={values.startDate} onValueChange={set('startDate')} />}
      </FormField>
      <FormField id={`${idPrefix}-end-date`} label="End Date" error={errors.endDate}>
        {(control) => (
          <TextInput {...control} type="date" min={values.startDate || undefined} value={values.endDate} onValueChange={set('endDate')} />
        )}
      </FormField>
      <FormField
        id={`${idPrefix}-current-balance`}
        label="Current Balance"
        error={errors.currentBalance}
        help="What your bank shows today; it may be zero or negative."
      >
        {(control) => <DollarsInput {...control} signed value={values.currentBalance} onValueChange={set('currentBalance')} />}
      </FormField>
    </>
  );
}

/** "1 transaction", "1,234 transactions". */
function countOf(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

function ReplaceWarning({
  currentLedger,
  isLedgerKnown,
  onExtendInstead,
}: Pick<NewLedgerDialogProps, 'currentLedger' | 'isLedgerKnown' | 'onExtendInstead'>) {
  if (currentLedger !== null) {
    // Paid and cleared rows are the account's history: what a replacement loses for good.
    const history = currentLedger.transactions.filter((transaction) => transaction.status !== 'PENDING').length;
    return (
      <Alert variant="warning">
        <p>
          Creating a new ledger replaces your current ledger ({formatDate(currentLedger.startDate)} to {formatDate(currentLedger.endDate)})
          and its {countOf(currentLedger.transactions.length, 'transaction')}.
        </p>
        <p>Replacing your ledger deletes its {countOf(history, 'paid or cleared transaction')}.</p>
        <Button variant="outline-dark" size="sm" onClick={onExtendInstead}>
          Extend Instead
        </Button>
      </Alert>
    );
  }
  if (!isLedgerKnown) {
    return <Alert variant="warning">Your ledger has not loaded. If you already have one, creating a new ledger replaces it.</Alert>;
  }
  return null;
}
