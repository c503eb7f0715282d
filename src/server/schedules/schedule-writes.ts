/**
 * Adding, changing and removing a deposit or an expense, each with the re-projection of that
 * schedule into the caller's ledger in the same transaction (the ledger's changeSchedule, one unit of work): the
 * ledger never shows a schedule as it was before a change that succeeded. Each write keeps the
 * schedule's row as it was before and after, so an undo puts back both it and the rows it
 * projected or removed (decision 0040).
 */
import { ConflictError, InvalidInputError } from '../../domain/errors.js';
import { SCHEDULE_KINDS, type ScheduleKind, type ScheduleRef } from '../../domain/ledger.js';
import { checkScheduleCount } from '../../domain/limits.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import {
  changeSchedule,
  countAccounts,
  type LedgerWrite,
  type LedgerWrites,
  NO_ACCOUNT,
  type ScheduleWrite,
  UNDO_CONFLICT,
  type UndoableWrite,
  type UndoKind,
} from '../ledger/index.js';
import { NotFoundError } from '../../domain/errors.js';
import type { ScheduleRecord, ScheduleRepository } from './schedule-repository.js';

type ScheduleTableName = 'deposits' | 'expenses';

/** A schedule as a request gives it: its account may be left out (decision 0042). */
export type ScheduleRequest<Fields extends { readonly accountId: string }> = Omit<Fields, 'accountId'> & {
  readonly accountId: string | undefined;
};

/** A list of schedules, and whether their owner has more than one account (then each answer names its account). */
export interface ScheduleList<Stored> {
  readonly schedules: readonly Stored[];
  readonly manyAccounts: boolean;
}

/** The caller's schedules in the list's order, and whether to name their accounts. */
export async function scheduleList<Name extends ScheduleTableName, Stored>(
  db: Database,
  repository: ScheduleRepository<Name, Stored, never>,
  owner: Caller,
): Promise<ScheduleList<Stored>> {
  return { schedules: await repository.list(owner), manyAccounts: (await countAccounts(db, owner)) > 1 };
}

const NOT_YOUR_ACCOUNT = 'Account must be the id of one of your accounts.';

/**
 * The account a write puts the schedule in: the one the request names (one of the caller's, else
 * 400 naming accountId), or when it names none `otherwise` (the primary account for an add, the
 * schedule's own for a change).
 */
async function accountOfRequest(locked: LedgerWrite, requested: string | undefined, otherwise: () => Promise<string>): Promise<string> {
  if (requested === undefined) return otherwise();
  try {
    return (await locked.account({ id: requested })).id;
  } catch (error) {
    if (error instanceof NotFoundError && error.message === NO_ACCOUNT) {
      throw new InvalidInputError(NOT_YOUR_ACCOUNT, { accountId: NOT_YOUR_ACCOUNT });
    }
    throw error;
  }
}

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
  locked: LedgerWrite,
  repository: ScheduleRepository<Name, Stored, Fields>,
  owner: Caller,
  schedule: ScheduleRef,
  before: ScheduleRecord<Name> | null,
  deleted: boolean,
): Promise<ScheduleWrite> {
  const after = deleted ? null : ((await repository.record(owner, schedule.id)) ?? null);
  const unchanged = before !== null && after !== null && repository.sameRecord(before, after);
  const change: ScheduleChange<ScheduleRecord<Name>> = { kind: schedule.kind, id: schedule.id, before, after };
  const named = after ?? before;
  if (!unchanged && named !== null) {
    const verb = before === null ? 'added' : deleted ? 'deleted' : 'changed';
    locked.noteActivity({ kind: 'schedule', verb, schedule: schedule.kind, name: named.name });
  }
  return {
    schedule,
    deleted,
    accounts: { before: before?.account_id ?? null, after: after?.account_id ?? null },
    change: unchanged ? undefined : change,
  };
}

/** Each write answers how many ledger rows it added (what the request budget charges for, decision 0007) and its undo token. */
export function scheduleWrites<Name extends ScheduleTableName, Stored, Fields extends { readonly accountId: string }>(
  writes: LedgerWrites,
  kind: ScheduleKind,
  store: (db: Database) => ScheduleRepository<Name, Stored, Fields>,
  /** The resource's own checks under the lock, once the account is known (an expense's To account); `before` is null on an add. */
  prepare: (locked: LedgerWrite, fields: Fields, before: ScheduleRecord<Name> | null) => Promise<Fields> = async (_locked, fields) =>
    fields,
) {
  const operations = OPERATIONS[kind];
  /** The request's fields with the account it names, checked under the lock. */
  const withAccount = (locked: LedgerWrite, request: ScheduleRequest<Fields>, accountId: string, before: ScheduleRecord<Name> | null) =>
    prepare(locked, { ...request, accountId } as unknown as Fields, before);
  return {
    add: (owner: Caller, request: ScheduleRequest<Fields>): Promise<{ added: number } & UndoableWrite> =>
      changeSchedule(writes, owner, operations.add, async (db, locked) => {
        const repository = store(db);
        // Counted under the owner's lock (changeSchedule takes it first): two adds at once cannot both pass.
        const refusal = checkScheduleCount(kind, (await repository.count(owner)) + 1);
        if (refusal) throw refusal;
        const accountId = await accountOfRequest(locked, request.accountId, async () => (await locked.account('primary')).id);
        const fields = await withAccount(locked, request, accountId, null);
        return written(locked, repository, owner, { kind, id: await repository.add(owner, fields) }, null, false);
      }),
    update: (owner: Caller, id: string, request: ScheduleRequest<Fields>): Promise<{ added: number } & UndoableWrite> =>
      changeSchedule(writes, owner, operations.update, async (db, locked) => {
        const repository = store(db);
        const before = (await repository.record(owner, id)) ?? null;
        if (before === null) throw new NotFoundError(repository.notFound);
        const accountId = await accountOfRequest(
          locked,
          request.accountId,
          async () => before.account_id ?? (await locked.account('primary')).id,
        );
        await repository.update(owner, id, await withAccount(locked, request, accountId, before));
        return written(locked, repository, owner, { kind, id }, before, false);
      }),
    remove: (owner: Caller, id: string): Promise<{ added: number } & UndoableWrite> =>
      changeSchedule(writes, owner, operations.remove, async (db, locked) => {
        const repository = store(db);
        const before = (await repository.record(owner, id)) ?? null;
        await repository.remove(owner, id);
        return written(locked, repository, owner, { kind, id }, before, true);
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
  locked: LedgerWrite,
  kind: ScheduleKind,
  value: unknown,
): Promise<void> {
  const { owner } = locked;
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
  // The account it was in may be gone since (deleting an account moves its schedules, or took them when they were deleted before).
  if (before.account_id !== null && !(await locked.hasAccount(before.account_id))) throw new ConflictError(UNDO_CONFLICT);
  if (after === null) {
    // Putting a removed schedule back counts as adding one.
    const refusal = checkScheduleCount(kind, (await repository.count(owner)) + 1);
    if (refusal) throw refusal;
  }
  await repository.putBack(owner, before);
}
