/**
 * Adding, changing and removing a deposit or an expense, each with the re-projection of that
 * schedule into the caller's ledger in the same transaction (LedgerService.changeSchedule): the
 * ledger never shows a schedule as it was before a change that succeeded. Each write keeps the
 * schedule's row as it was before and after, so an undo puts back both it and the rows it
 * projected or removed (decision 0040).
 */
import { ConflictError } from '../../domain/errors.js';
import { SCHEDULE_KINDS, type ScheduleKind, type ScheduleRef } from '../../domain/ledger.js';
import { checkScheduleCount } from '../../domain/limits.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { type LedgerService, type ScheduleWrite, UNDO_CONFLICT, type UndoableWrite } from '../ledger/index.js';
import type { UndoKind } from '../undo/undo-store.js';
import type { ScheduleRecord, ScheduleRepository } from './schedule-repository.js';

type ScheduleTableName = 'deposits' | 'expenses';

/** What a write of a schedule changed: its stored row before (null: it added it) and after (null: it removed it). */
export interface ScheduleChange<Record> {
  readonly kind: ScheduleKind;
  readonly id: string;
  readonly before: Record | null;
  readonly after: Record | null;
}

const OPERATIONS: { readonly [Kind in ScheduleKind]: { readonly add: UndoKind; readonly update: UndoKind; readonly remove: UndoKind } } = {
  deposit: { add: 'addDeposit', update: 'updateDeposit', remove: 'deleteDeposit' },
  expense: { add: 'addExpense', update: 'updateExpense', remove: 'deleteExpense' },
};

/** The write as the ledger takes it: no change to undo when the row is exactly as it was. */
async function written<Name extends ScheduleTableName, Stored, Fields>(
  repository: ScheduleRepository<Name, Stored, Fields>,
  owner: Caller,
  schedule: ScheduleRef,
  before: ScheduleRecord<Name> | null,
  deleted: boolean,
): Promise<ScheduleWrite> {
  const after = deleted ? null : ((await repository.record(owner, schedule.id)) ?? null);
  const unchanged = before !== null && after !== null && repository.sameRecord(before, after);
  const change: ScheduleChange<ScheduleRecord<Name>> = { kind: schedule.kind, id: schedule.id, before, after };
  return { schedule, deleted, change: unchanged ? undefined : change };
}

/** Each write answers how many ledger rows it added (what the request budget charges for, decision 0007) and its undo token. */
export function scheduleWrites<Name extends ScheduleTableName, Stored, Fields>(
  ledgers: LedgerService,
  kind: ScheduleKind,
  store: (db: Database) => ScheduleRepository<Name, Stored, Fields>,
) {
  const operations = OPERATIONS[kind];
  return {
    add: (owner: Caller, fields: Fields): Promise<{ added: number } & UndoableWrite> =>
      ledgers.changeSchedule(owner, operations.add, async (db) => {
        const repository = store(db);
        // Counted under the owner's lock (changeSchedule takes it first): two adds at once cannot both pass.
        const refusal = checkScheduleCount(kind, (await repository.count(owner)) + 1);
        if (refusal) throw refusal;
        return written(repository, owner, { kind, id: await repository.add(owner, fields) }, null, false);
      }),
    update: (owner: Caller, id: string, fields: Fields): Promise<{ added: number } & UndoableWrite> =>
      ledgers.changeSchedule(owner, operations.update, async (db) => {
        const repository = store(db);
        const before = (await repository.record(owner, id)) ?? null;
        await repository.update(owner, id, fields);
        return written(repository, owner, { kind, id }, before, false);
      }),
    remove: (owner: Caller, id: string): Promise<{ added: number } & UndoableWrite> =>
      ledgers.changeSchedule(owner, operations.remove, async (db) => {
        const repository = store(db);
        const before = (await repository.record(owner, id)) ?? null;
        await repository.remove(owner, id);
        return written(repository, owner, { kind, id }, before, true);
      }),
  };
}

/** Which schedule an undo entry's change is of; its records are read by that schedule's repository (undoScheduleChange). */
export function scheduleOfChange(value: unknown): ScheduleRef {
  const kind: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, 'kind') : undefined;
  const id: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, 'id') : undefined;
  const known = SCHEDULE_KINDS.find((candidate) => candidate === kind);
  if (known === undefined || typeof id !== 'string') throw new Error('unexpected schedule change in an undo entry');
  return { kind: known, id };
}

/**
 * Puts a deposit or an expense back as it was before a write (decision 0040): the very row, id and
 * creation time included, so the list's order is as it was; or none, when the write added it.
 * Refuses (ConflictError) unless the row is still exactly as the write left it. Runs in the undo's
 * transaction, under the owner's lock.
 */
export async function undoScheduleChange<Name extends ScheduleTableName, Stored, Fields>(
  repository: ScheduleRepository<Name, Stored, Fields>,
  owner: Caller,
  kind: ScheduleKind,
  value: unknown,
): Promise<void> {
  const { id } = scheduleOfChange(value);
  const stored = (field: 'before' | 'after') => {
    const record: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, field) : null;
    return record === null ? null : repository.decodeRecord(record);
  };
  const before = stored('before');
  const after = stored('after');
  const now = (await repository.record(owner, id)) ?? null;
  const asLeft = now === null || after === null ? now === after : repository.sameRecord(now, after);
  if (!asLeft) throw new ConflictError(UNDO_CONFLICT);
  if (now !== null) await repository.remove(owner, id);
  if (before === null) return;
  if (after === null) {
    // Putting a removed schedule back counts as adding one.
    const refusal = checkScheduleCount(kind, (await repository.count(owner)) + 1);
    if (refusal) throw refusal;
  }
  await repository.putBack(owner, before);
}
