/**
 * Adding, changing and removing a deposit or an expense, each with the re-projection of that
 * schedule into the caller's ledger in the same transaction (LedgerService.changeSchedule): the
 * ledger never shows a schedule as it was before a change that succeeded.
 */
import type { ScheduleKind } from '../../domain/ledger.js';
import { checkScheduleCount } from '../../domain/limits.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import type { LedgerService } from '../ledger/index.js';

/** The writes of a schedule repository (ScheduleRepository of deposits or of expenses). */
interface ScheduleStore<Fields> {
  count(owner: Caller): Promise<number>;
  add(owner: Caller, fields: Fields): Promise<string>;
  update(owner: Caller, id: string, fields: Fields): Promise<void>;
  remove(owner: Caller, id: string): Promise<void>;
}

/** Each write answers how many ledger rows it added (what the request budget charges for, decision 0007). */
export function scheduleWrites<Fields>(ledgers: LedgerService, kind: ScheduleKind, store: (db: Database) => ScheduleStore<Fields>) {
  return {
    add: (owner: Caller, fields: Fields) =>
      ledgers.changeSchedule(owner, async (db) => {
        // Counted under the owner's lock (changeSchedule takes it first): two adds at once cannot both pass.
        const refusal = checkScheduleCount(kind, (await store(db).count(owner)) + 1);
        if (refusal) throw refusal;
        return { schedule: { kind, id: await store(db).add(owner, fields) }, deleted: false };
      }),
    update: (owner: Caller, id: string, fields: Fields) =>
      ledgers.changeSchedule(owner, async (db) => {
        await store(db).update(owner, id, fields);
        return { schedule: { kind, id }, deleted: false };
      }),
    remove: (owner: Caller, id: string) =>
      ledgers.changeSchedule(owner, async (db) => {
        await store(db).remove(owner, id);
        return { schedule: { kind, id }, deleted: true };
      }),
  };
}
