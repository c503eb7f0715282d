import type { Deposit } from '../../../contract/deposits.js';
import { type DepositInput, depositInputSchema } from '../../../contract/deposit-input.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { accountChoices, type ScheduleAccount, scheduleAccountId } from '../../components/schedule-account.js';
import { SchemaFormDialog } from '../../components/schema-form-dialog.js';
import { DepositFields } from './deposit-fields.js';
import { depositCandidate, depositFormValuesOf, EMPTY_DEPOSIT_FORM } from './deposit-form-values.js';

interface DepositDialogProps {
  readonly show: boolean;
  /** The deposit to change, or null to add one. */
  readonly deposit: Deposit | null;
  /** The user's accounts: with more than one, the dialog asks which account it is (new ones default to the primary). */
  readonly accounts?: readonly ScheduleAccount[] | null | undefined;
  /** Sends a checked deposit; answers the server's field messages when the call failed. */
  readonly onSave: (input: DepositInput) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

/** "Add Deposit" or "Edit Deposit". The caller remounts it per opening, so it always opens fresh. */
export function DepositDialog({ show, deposit, accounts, onSave, onClose }: DepositDialogProps) {
  const choices = accountChoices(accounts);
  const opened = deposit ? depositFormValuesOf(deposit) : EMPTY_DEPOSIT_FORM;
  return (
    <SchemaFormDialog
      show={show}
      title={deposit ? 'Edit Deposit' : 'Add Deposit'}
      submitLabel={deposit ? 'Save' : 'Add'}
      schema={depositInputSchema}
      initialValues={choices ? { ...opened, accountId: scheduleAccountId(choices, deposit?.accountId) } : opened}
      candidateOf={depositCandidate}
      renderFields={(fields) => <DepositFields {...fields} accounts={choices} />}
      onSave={onSave}
      onClose={onClose}
    />
  );
}
