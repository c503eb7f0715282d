/**
 * A deposit's or an expense's change brought into the ledgers it reaches, in the same unit of work
 * as the change itself (ledger-write.ts): both commit, or neither. A schedule moved between
 * accounts leaves the old one's future rows and is projected into the new one's; a recurring
 * transfer's rows follow into the account it pays into (decision 0043), and the unit's transfer
 * follower pairs them.
 */
import { type IsoDate, maxDate } from '../../domain/calendar-date.js';
import type { ScheduleRef } from '../../domain/ledger.js';
import { followsSchedule, type LedgerSchedules, reprojectSchedule } from '../../domain/ledger-projection.js';
import type { DateRange } from '../../domain/schedules.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { type AccountSchedules, NO_ACCOUNT_SCHEDULES, schedulesOf, transferIn } from './account-schedules.js';
import type { StoredLedger } from './ledger-record.js';
import type { LedgerStore } from './ledger-store.js';
import type { LedgerWrite, LedgerWrites, UndoableWrite } from './ledger-write.js';
import type { UndoKind } from './undo-entries.js';

/** What a write of a deposit or an expense hands the ledger: which schedule, whether it is gone, and its own change to undo. */
export interface ScheduleWrite {
  readonly schedule: ScheduleRef;
  readonly deleted: boolean;
  /** The account the schedule was in before the write (null: it added it) and after (null: it removed it). */
  readonly accounts: { readonly before: string | null; readonly after: string | null };
  /** The schedule's before and after, saved with the undo entry; undefined when the schedule did not change. */
  readonly change: object | undefined;
}

/** The dates a schedule's change may reach in a ledger: from the owner's today (or its start, if later) to its end. */
function reprojectionWindow(ledger: StoredLedger, today: IsoDate): DateRange {
  return { from: maxDate(today, ledger.startDate), to: ledger.endDate };
}

/**
 * Runs a write of a deposit or an expense and brings the projection of that schedule up to date.
 * `write` answers which schedule it wrote, whether it still exists, the account it was in before and
 * after, and its change. Answers how many ledger rows it inserted, and the token that undoes the
 * schedule's write and the projections together (decision 0040).
 */
export function changeSchedule(
  writes: LedgerWrites,
  owner: Caller,
  kind: UndoKind,
  write: (db: Database, locked: LedgerWrite) => Promise<ScheduleWrite>,
): Promise<{ added: number } & UndoableWrite> {
  return writes.run(
    owner,
    { growth: 'schedule', undo: kind },
    {
      apply: async (unit) => {
        // What the schedule was decides whether a moved date still fills the same period (reprojectSchedule).
        const before = await unit.schedules();
        const today = await unit.today();
        const { schedule, deleted, accounts, change } = await write(unit.db, unit);
        unit.noteScheduleChange(change);
        const after = deleted ? NO_ACCOUNT_SCHEDULES : await unit.schedules();
        // A recurring transfer's ledgers are the expense's own account's and the one it pays into, before and after (decision 0043).
        const transfers = schedule.kind === 'expense' ? [transferIn(after, schedule.id), transferIn(before, schedule.id)] : [];
        // The old account first: the rows it gives up count no more against the limit when the new one takes its own.
        const touched = [accounts.before, accounts.after, ...transfers.map((transfer) => transfer?.to ?? null)].filter(
          (id, index, all): id is string => id !== null && all.indexOf(id) === index,
        );
        const stores: LedgerStore[] = [];
        for (const accountId of touched) stores.push(await unit.store({ id: accountId }));
        // A transfer's pair is kept whole: a side whose other side is paid, cleared or edited stays as it is too.
        const held = new Set<string>();
        for (const store of stores) for (const id of await heldRows(store, schedule, today)) held.add(id);
        let added = 0;
        for (const store of stores) {
          const accountId = store.account.id;
          added += await reproject(store, schedule, schedulesOf(before, accountId), schedulesOf(after, accountId), deleted, today, held);
        }
        return { added, schedule, stores };
      },
      // The schedule's rows as this write leaves them, links included: an undo must find exactly these.
      beforeUndo: async (_unit, { schedule, stores }) => {
        for (const store of stores)
          store.noteScheduleRows(schedule, store.ledger ? (await store.scheduleRows(schedule)).map((row) => [row.id, row.version]) : []);
      },
      answer: async (_unit, { added }, undo) => ({ added, undo }),
    },
  );
}

/**
 * Projects schedules that just moved into an account (its old account was deleted) into that
 * account's ledger, from today on, in the unit of work the caller runs. Answers how many rows it added.
 */
export async function projectMoved(
  unit: LedgerWrite,
  accountId: string,
  moved: readonly ScheduleRef[],
  before: AccountSchedules,
  after: AccountSchedules,
): Promise<number> {
  if (moved.length === 0) return 0;
  const store = await unit.store({ id: accountId });
  const today = await unit.today();
  let added = 0;
  for (const schedule of moved) {
    added += await reproject(store, schedule, schedulesOf(before, accountId), schedulesOf(after, accountId), false, today);
  }
  return added;
}

/**
 * One ledger's projection of one schedule brought up to date: `before` and `after` are the
 * schedules of the ledger's account before and after the write (the schedule is in neither when
 * it is not this account's). Answers how many rows it inserted.
 */
async function reproject(
  store: LedgerStore,
  schedule: ScheduleRef,
  before: LedgerSchedules,
  after: LedgerSchedules,
  deleted: boolean,
  today: IsoDate,
  held: ReadonlySet<string> = new Set(),
): Promise<number> {
  const { ledger } = store;
  if (!ledger) return 0;
  const window = reprojectionWindow(ledger, today);
  const rows = await store.scheduleRows(schedule);
  const skipped = await store.skipped(schedule);
  // A side of a recurring transfer whose other side is held reads as edited: it stays, and stands for its period.
  const asProjected = rows.map((row) =>
    row.source && row.transfer && held.has(row.transfer.id) ? { ...row, source: { ...row.source, edited: true } } : row,
  );
  const { removed, added } = reprojectSchedule(asProjected, schedule, before, after, window, skipped);
  const removedIds = new Set(removed);
  await store.deleteRows(rows.filter((row) => removedIds.has(row.id)));
  const inserted = await store.insert(added);
  if (deleted) await store.forgetSkipped(schedule);
  return inserted.length;
}

/** Ids of the schedule's rows in this ledger that no longer follow it (paid, cleared, edited, or past). */
async function heldRows(store: LedgerStore, schedule: ScheduleRef, today: IsoDate): Promise<string[]> {
  if (!store.ledger) return [];
  const from = reprojectionWindow(store.ledger, today).from;
  return (await store.scheduleRows(schedule)).filter((row) => !followsSchedule(row, schedule, from)).map((row) => row.id);
}
