import type { Expense } from '../../../contract/expenses.js';
import { type ExpenseInput, expenseInputSchema } from '../../../contract/expense-input.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { accountChoices, type ScheduleAccount, scheduleAccountId } from '../../components/schedule-account.js';
import { SchemaFormDialog } from '../../components/schema-form-dialog.js';
import { ExpenseFields } from './expense-fields.js';
import { EMPTY_EXPENSE_FORM, expenseCandidate, expenseErrors, expenseFormValuesOf } from './expense-form-values.js';

interface ExpenseDialogProps {
  readonly show: boolean;
  /** The expense to change, or null to add one. */
  readonly expense: Expense | null;
  /**
   * The user's accounts: with more than one, the dialog asks which account it is paid from (new
   * ones default to the primary) and which, if any, it pays into (a recurring transfer).
   */
  readonly accounts?: readonly ScheduleAccount[] | null | undefined;
  /** Sends a checked expense; answers the server's field messages when the call failed. */
  readonly onSave: (input: ExpenseInput) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

/** "Add Expense" or "Edit Expense". The caller remounts it per opening, so it always opens fresh. */
export function ExpenseDialog({ show, expense, accounts, onSave, onClose }: ExpenseDialogProps) {
  const choices = accountChoices(accounts);
  const opened = expense ? expenseFormValuesOf(expense) : EMPTY_EXPENSE_FORM;
  return (
    <SchemaFormDialog
      show={show}
      title={expense ? 'Edit Expense' : 'Add Expense'}
      submitLabel={expense ? 'Save' : 'Add'}
      schema={expenseInputSchema}
      initialValues={choices ? { ...opened, accountId: scheduleAccountId(choices, expense?.accountId) } : opened}
      candidateOf={expenseCandidate}
      check={expenseErrors}
      renderFields={(fields) => <ExpenseFields {...fields} accounts={choices} />}
      onSave={onSave}
      onClose={onClose}
    />
  );
}
