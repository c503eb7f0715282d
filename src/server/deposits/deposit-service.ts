/**
 * Deposits: the caller's list, and each write with the re-projection of that deposit into the
 * caller's ledger in the same transaction (scheduleWrites). The ledger's service is handed the
 * schedules it is projected from (readLedgerSchedules): the ledger never imports this folder.
 */
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { LedgerService, type TodayReader } from '../ledger/index.js';
import { readLedgerSchedules } from '../schedules/ledger-schedules.js';
import { type ScheduleList, scheduleList, scheduleWrites } from '../schedules/schedule-writes.js';
import { depositRepository, type StoredDeposit } from './deposit-repository.js';

export function depositService(database: OpenDatabase, now: () => Date, today: TodayReader) {
  return {
    /** The caller's deposits in the list's order. */
    list: (owner: Caller): Promise<ScheduleList<StoredDeposit>> => scheduleList(database.db, depositRepository(database.db), owner),
    ...scheduleWrites(new LedgerService(database, now, readLedgerSchedules, today), 'deposit', depositRepository),
  };
}
