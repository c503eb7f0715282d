/**
 * Deposits: the caller's list, and each write with the re-projection of that deposit into the
 * caller's ledger in the same unit of work (scheduleWrites).
 */
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import type { LedgerWrites } from '../ledger/index.js';
import { type ScheduleList, scheduleList, scheduleWrites } from '../schedules/schedule-writes.js';
import { depositRepository, type StoredDeposit } from './deposit-repository.js';

export function depositService(database: OpenDatabase, writes: LedgerWrites) {
  return {
    /** The caller's deposits in the list's order. */
    list: (owner: Caller): Promise<ScheduleList<StoredDeposit>> => scheduleList(database.db, depositRepository(database.db), owner),
    ...scheduleWrites(writes, 'deposit', depositRepository),
  };
}
