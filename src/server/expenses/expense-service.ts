/**
 * Expenses: the caller's list, and each write with the re-projection of that expense into the
 * caller's ledger in the same transaction (scheduleWrites). The ledger's service is handed the
 * schedules it is projected from (readLedgerSchedules): the ledger never imports this folder.
 */
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { InvalidInputError } from '../../domain/errors.js';
import { LedgerService, type OwnerLock, type TodayReader } from '../ledger/index.js';
import type { ScheduleRecord } from '../schedules/schedule-repository.js';
import { readLedgerSchedules } from '../schedules/ledger-schedules.js';
import { type ScheduleList, scheduleList, scheduleWrites } from '../schedules/schedule-writes.js';
import { type ExpenseFields, expenseRepository, type StoredExpense } from './expense-repository.js';

export function expenseService(database: OpenDatabase, now: () => Date, today: TodayReader) {
  return {
    /** The caller's expenses in the list's order. */
    list: (owner: Caller): Promise<ScheduleList<StoredExpense>> => scheduleList(database.db, expenseRepository(database.db), owner),
    ...scheduleWrites(new LedgerService(database, now, readLedgerSchedules, today), 'expense', expenseRepository, checkToAccount),
  };
}

/**
 * The account a recurring transfer pays into (decision 0043), checked under the owner's lock: left
 * out, what the expense had; another user's or a missing id is 404 like any account id of theirs;
 * the expense's own account is a 400 naming toAccountId.
 */
async function checkToAccount(locked: OwnerLock, fields: ExpenseFields, before: ScheduleRecord<'expenses'> | null): Promise<ExpenseFields> {
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
