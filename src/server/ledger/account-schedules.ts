/**
 * The deposits and expenses a ledger is projected from, each naming its account (decision 0042),
 * and the recurring transfers among them (decision 0043): plain data the schedules' own modules
 * read and hand the ledger, which never imports them.
 */
import type { LedgerDeposit, LedgerExpense, LedgerSchedules } from '../../domain/ledger-projection.js';

/** Deposits and expenses with the account each is projected into (decision 0042). */
export interface AccountSchedules {
  /** A null account: the owner had none yet, so neither a ledger. */
  readonly deposits: readonly (LedgerDeposit & { readonly accountId: string | null })[];
  readonly expenses: readonly (LedgerExpense & { readonly accountId: string | null; readonly toAccountId: string | null })[];
}

export const NO_ACCOUNT_SCHEDULES: AccountSchedules = { deposits: [], expenses: [] };

/** A recurring transfer's two accounts (decision 0043): the expense's own (debits) and the one it pays into (credits). */
export interface TransferAccounts {
  readonly id: string;
  readonly from: string;
  readonly to: string;
}

/**
 * The schedules one account's ledger is projected from, in the order they were added: its own, and
 * the recurring transfers paying into it, whose occurrences are credits there (decision 0043).
 */
export function schedulesOf(schedules: AccountSchedules, accountId: string): LedgerSchedules {
  return {
    deposits: schedules.deposits.filter((deposit) => deposit.accountId === accountId),
    expenses: schedules.expenses.flatMap((expense) =>
      expense.accountId === accountId ? [expense] : expense.toAccountId === accountId ? [{ ...expense, credit: true }] : [],
    ),
  };
}

/** The expense as a recurring transfer, when it is one in these schedules. */
export function transferIn(schedules: AccountSchedules, id: string): TransferAccounts | undefined {
  const expense = schedules.expenses.find((candidate) => candidate.id === id);
  if (!expense || expense.accountId === null || expense.toAccountId === null) return undefined;
  return { id, from: expense.accountId, to: expense.toAccountId };
}
