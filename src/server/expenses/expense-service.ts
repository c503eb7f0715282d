/**
 * Expenses: the caller's list, and each write with the re-projection of that expense into the
 * caller's ledger in the same transaction (scheduleWrites). The ledger's service is handed the
 * schedules it is projected from (readLedgerSchedules): the ledger never imports this folder.
 */
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { LedgerService } from '../ledger/index.js';
import { readLedgerSchedules } from '../schedules/ledger-schedules.js';
import { type ScheduleList, scheduleList, scheduleWrites } from '../schedules/schedule-writes.js';
import { expenseRepository, type StoredExpense } from './expense-repository.js';

export function expenseService(database: OpenDatabase, now: () => Date) {
  return {
    /** The caller's expenses in the list's order. */
    list: (owner: Caller): Promise<ScheduleList<StoredExpense>> => scheduleList(database.db, expenseRepository(database.db), owner),
    ...scheduleWrites(new LedgerService(database, now, readLedgerSchedules), 'expense', expenseRepository),
  };
}
