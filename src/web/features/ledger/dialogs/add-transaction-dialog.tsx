/** "Add Transaction": a new unpaid row in the ledger. The caller remounts it per opening, so it always opens empty. */
import { type NewTransaction, newTransactionSchema } from '../../../../contract/ledger-requests.js';
import type { SaveOutcome } from '../../../components/field-errors.js';
import { SchemaFormDialog } from '../../../components/schema-form-dialog.js';
import { type LedgerDates, ledgerDateErrors } from '../ledger-rules.js';
import { TransactionFields } from './transaction-fields.js';
import { EMPTY_TRANSACTION_FORM, transactionCandidate } from './transaction-form-values.js';

interface AddTransactionDialogProps {
  readonly show: boolean;
  readonly ledger: LedgerDates;
  readonly onSave: (transaction: NewTransaction) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

export function AddTransactionDialog({ show, ledger, onSave, onClose }: AddTransactionDialogProps) {
  return (
    <SchemaFormDialog
      show={show}
      title="Add Transaction"
      submitLabel="Add"
      schema={newTransactionSchema}
      initialValues={EMPTY_TRANSACTION_FORM}
      candidateOf={transactionCandidate}
      check={(values) => ledgerDateErrors(values.date, ledger)}
      renderFields={(fields) => <TransactionFields {...fields} ledger={ledger} />}
      onSave={onSave}
      onClose={onClose}
    />
  );
}
