/**
 * Expenses: the caller's list, and each write with the re-projection of that expense into the
 * caller's ledger in the same unit of work (scheduleWrites).
 */
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { InvalidInputError } from '../../domain/errors.js';
import type { LedgerWrite, LedgerWrites } from '../ledger/index.js';
import type { ScheduleRecord } from '../schedules/schedule-repository.js';
import { type ScheduleList, scheduleList, scheduleWrites } from '../schedules/schedule-writes.js';
import { type ExpenseFields, expenseRepository, type StoredExpense } from './expense-repository.js';

export function expenseService(database: OpenDatabase, writes: LedgerWrites) {
  return {
    /** The caller's expenses in the list's order. */
    list: (owner: Caller): Promise<ScheduleList<StoredExpense>> => scheduleList(database.db, expenseRepository(database.db), owner),
    ...scheduleWrites(writes, 'expense', expenseRepository, checkToAccount),
  };
}

/**
 * The account a recurring transfer pays into (decision 0043), checked under the owner's lock: left
 * out, what the expense had; another user's or a missing id is 404 like any account id of theirs;
 * the expense's own account is a 400 naming toAccountId.
 */
async function checkToAccount(
  locked: LedgerWrite,
  fields: ExpenseFields,
  before: ScheduleRecord<'expenses'> | null,
): Promise<ExpenseFields> {
  const requested = fields.toAccountId === undefined ? (before?.to_account_id ?? null) : fields.toAccountId;
  if (requested === null) return { ...fields, toAccountId: null };
  const to = await locked.account({ id: requested });
  if (to.id === fields.accountId) {
    throw new InvalidInputError('A transfer moves money between two accounts.', {
      toAccountId: 'To must be another account than the one the expense is paid from.',
    });
  }
  return { ...fields, toAccountId: to.id };
}
