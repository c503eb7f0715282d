/**
 * The ledger calls: each write is a single database transaction that applies the domain's ledger
 * rules (projection, extension, what a change to a row may do) and answers the ledger with all its
 * rows, in cents. Refusals are the domain's errors, which the one error handler turns into status
 * codes. Each write may name the version it expects (a client's If-Match, or null for none): it is
 * checked against the version read under the owner's lock, before anything else is decided.
 */
import { addDays, type IsoDate, maxDate, todayIn } from '../../domain/calendar-date.js';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import type { ScheduleRef, TransactionDraft } from '../../domain/ledger.js';
import { checkLedgerRows, type LedgerGrowth } from '../../domain/limits.js';
import { type LedgerSchedules, projectSchedules, reprojectSchedule } from '../../domain/ledger-projection.js';
import type { DateRange } from '../../domain/schedules.js';
import {
  checkDateWithinLedger,
  checkDeletion,
  checkExtension,
  decideUpdate,
  type RequestedRow,
  refusalError,
} from '../../domain/transaction-rules.js';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';
import {
  advanceVersion,
  type LedgerFields,
  type LedgerScope,
  lockLedger,
  saveLedger,
  setLedgerEnd,
  type StoredLedger,
  takeSequences,
} from './ledger-record.js';
import { checkExpectedVersion } from './ledger-payloads.js';
import { countRows, findLedgerWithRows, findRow, listRows, listScheduleRows } from './ledger-reads.js';
import { forgetImports } from './imported-rows.js';
import { ledgerSchedules } from './ledger-schedules.js';
import { insertRows, type NewRow } from './row-insert.js';
import { forgetSkipped, skipOccurrence, skippedOccurrences } from './skipped-occurrences.js';
import { deleteAllRows, deleteRow, deleteRows, type StoredRow, updateRow } from './transaction-rows.js';

export const NO_LEDGER = 'You have no ledger yet: create one first.';
const NO_TRANSACTION = 'No such transaction in your ledger.';
const NO_SCHEDULES: LedgerSchedules = { deposits: [], expenses: [] };
const CHANGED_MEANWHILE = 'This transaction was changed at the same time by another request. Reload the ledger and try again.';

/** A ledger with every one of its rows, as stored; balances are derived from it for each answer. */
export interface LedgerWithRows {
  readonly ledger: StoredLedger;
  readonly rows: readonly StoredRow[];
  /** How many rows the write inserted: what the request budget charges for (decision 0007). */
  readonly written?: number;
}

/** A write of one row, and which rows it changed or added and which it removed: a changes answer's rows. */
export interface LedgerRowWrite extends LedgerWithRows {
  /** The ledger's version before the write: what its changes apply to. */
  readonly basedOn: number;
  readonly changedIds: readonly string[];
  readonly removedIds: readonly string[];
}

/** Refuses, before anything is inserted, a ledger that would hold more than MAX_LEDGER_ROWS rows. */
function checkRows(growth: LedgerGrowth, total: number): void {
  const refusal = checkLedgerRows(growth, total);
  if (refusal) throw refusal;
}

function rangeOf(ledger: StoredLedger): DateRange {
  return { from: ledger.startDate, to: ledger.endDate };
}

/** Numbers new rows after the ledger's last one, in the order given (row order, for projected rows). */
async function numbered<Row extends TransactionDraft>(
  scope: LedgerScope,
  ledgerId: string,
  rows: readonly Row[],
): Promise<(Row & NewRow)[]> {
  if (rows.length === 0) return [];
  const first = await takeSequences(scope, ledgerId, rows.length);
  return rows.map((row, index) => ({ ...row, sequence: first + index }));
}

export class LedgerService {
  constructor(
    private readonly database: OpenDatabase,
    /** The app's clock: the ledger's created_at, and "today" for re-projection (decision 0015). */
    private readonly now: () => Date,
  ) {}

  /** The caller's ledger, or undefined while they have none. */
  async retrieve(owner: Caller): Promise<LedgerWithRows | undefined> {
    return findLedgerWithRows(this.scope(this.database.db, owner));
  }

  /** Replaces the owner's ledger with every paycheck and bill between the dates, all PENDING. */
  async create(owner: Caller, fields: LedgerFields, expected: string | null = null): Promise<LedgerWithRows> {
    return this.write(owner, async (scope) => {
      // With If-Match, there must be a ledger, at that version, to replace.
      checkExpectedVersion(await lockLedger(scope), expected);
      const drafts = projectSchedules(await ledgerSchedules(scope), { from: fields.startDate, to: fields.endDate });
      checkRows('create', drafts.length);
      // The drafts come in row order; numbering them in that order makes it their creation order.
      const rows = drafts.map((draft, index) => ({ ...draft, sequence: index + 1 }));
      const ledger = await saveLedger(scope, { ...fields, nextSequence: rows.length + 1 }, this.now());
      await deleteAllRows(scope, ledger.id);
      // The ledger row survives a replacement (an upsert): what the old ledger skipped goes with it.
      await forgetSkipped(scope, ledger.id);
      // So do the statements it took in: their rows are gone, and a new ledger may take them in again.
      await forgetImports(scope, ledger.id);
      // The ledger is locked and now holds exactly these rows: answer them without reading them back.
      return { ledger, rows: await insertRows(scope, ledger.id, rows), written: rows.length };
    });
  }

  /**
   * Appends every occurrence between the current end (exclusive) and the new one (inclusive),
   * exactly as creation would have generated them; no existing row changes.
   */
  async extend(owner: Caller, endDate: IsoDate, expected: string | null = null): Promise<LedgerWithRows> {
    return this.write(owner, async (scope) => {
      const current = await lockLedger(scope);
      if (!current) throw new NotFoundError(NO_LEDGER);
      checkExpectedVersion(current, expected);
      const refusal = checkExtension(current, endDate);
      if (refusal) throw refusalError(refusal);
      const added = { from: addDays(current.endDate, 1), to: endDate };
      const drafts = projectSchedules(await ledgerSchedules(scope), added, await skippedOccurrences(scope, current.id));
      if (drafts.length > 0) checkRows('extend', (await countRows(scope, current.id)) + drafts.length);
      await insertRows(scope, current.id, await numbered(scope, current.id, drafts));
      await setLedgerEnd(scope, current.id, endDate);
      const ledger = await advanceVersion(scope, { ...current, endDate });
      return { ledger, rows: await listRows(scope, current.id), written: drafts.length };
    });
  }

  async addTransaction(owner: Caller, draft: TransactionDraft, expected: string | null = null): Promise<LedgerRowWrite> {
    return this.write(owner, async (scope) => {
      const ledger = await lockLedger(scope);
      if (!ledger) throw new NotFoundError(NO_LEDGER);
      checkExpectedVersion(ledger, expected);
      const outside = checkDateWithinLedger(draft.date, rangeOf(ledger));
      if (outside) throw refusalError(outside);
      checkRows('add', (await countRows(scope, ledger.id)) + 1);
      const added = await insertRows(scope, ledger.id, await numbered(scope, ledger.id, [draft]));
      return {
        ledger: await advanceVersion(scope, ledger),
        basedOn: ledger.version,
        rows: await listRows(scope, ledger.id),
        changedIds: added.map((row) => row.id),
        removedIds: [],
      };
    });
  }

  /**
   * Applies an edit (date, name, amount) or a status move to one row, as the domain decides. The
   * request is the whole row as the client holds it, so a stale copy is refused, not applied. An
   * edited generated row stops following its schedule.
   */
  async updateTransaction(owner: Caller, id: string, requested: RequestedRow, expected: string | null = null): Promise<LedgerRowWrite> {
    return this.write(owner, async (scope) => {
      const { ledger, row } = await this.lockRow(scope, id, expected);
      const decision = decideUpdate(row, requested, rangeOf(ledger));
      if (decision.kind === 'refused') throw refusalError(decision.refusal);
      if (decision.kind === 'change' && !(await updateRow(scope, ledger.id, row, decision.changes, decision.edits))) {
        throw new ConflictError(CHANGED_MEANWHILE);
      }
      const changed = decision.kind === 'change';
      return {
        // An update that changes nothing leaves the version alone: the ledger is as the caller holds it.
        ledger: changed ? await advanceVersion(scope, ledger) : ledger,
        basedOn: ledger.version,
        rows: await listRows(scope, ledger.id),
        changedIds: changed ? [row.id] : [],
        removedIds: [],
      };
    });
  }

  /** Deleting a generated row skips its occurrence for good: no schedule change or extension brings it back. */
  async deleteTransaction(owner: Caller, id: string, expected: string | null = null): Promise<LedgerRowWrite> {
    return this.write(owner, async (scope) => {
      const { ledger, row } = await this.lockRow(scope, id, expected);
      const refusal = checkDeletion(row);
      if (refusal) throw refusalError(refusal);
      if (!(await deleteRow(scope, ledger.id, row))) throw new ConflictError(CHANGED_MEANWHILE);
      if (row.source) await skipOccurrence(scope, ledger.id, row.source);
      return {
        ledger: await advanceVersion(scope, ledger),
        basedOn: ledger.version,
        rows: await listRows(scope, ledger.id),
        changedIds: [],
        removedIds: [row.id],
      };
    });
  }

  /**
   * Runs a write of a deposit or an expense and brings the ledger's projection of that schedule up
   * to date in the same transaction: both commit, or neither. `write` answers which schedule it
   * wrote and whether it still exists. Answers how many ledger rows it inserted.
   */
  async changeSchedule(owner: Caller, write: (db: Database) => Promise<{ schedule: ScheduleRef; deleted: boolean }>): Promise<number> {
    return this.write(owner, async (scope) => {
      // The lock comes first, as in every ledger write, so two writes of one user never wait on each other in turn.
      const ledger = await lockLedger(scope);
      // What the schedule was decides whether a moved date still fills the same period (reprojectSchedule).
      const before = ledger ? await ledgerSchedules(scope) : NO_SCHEDULES;
      const { schedule, deleted } = await write(scope.db);
      if (!ledger) return 0;
      const window = { from: maxDate(todayIn(this.now()), ledger.startDate), to: ledger.endDate };
      const rows = await listScheduleRows(scope, ledger.id, schedule);
      const skipped = await skippedOccurrences(scope, ledger.id, schedule);
      const after = deleted ? NO_SCHEDULES : await ledgerSchedules(scope);
      const { removed, added } = reprojectSchedule(rows, schedule, before, after, window, skipped);
      if (added.length > removed.length) checkRows('schedule', (await countRows(scope, ledger.id)) - removed.length + added.length);
      await deleteRows(scope, ledger.id, removed);
      await insertRows(scope, ledger.id, await numbered(scope, ledger.id, added));
      if (removed.length > 0 || added.length > 0) await advanceVersion(scope, ledger);
      if (deleted) await forgetSkipped(scope, ledger.id, schedule);
      return added.length;
    });
  }

  /**
   * The locked ledger and its row with this id; a missing ledger or row is the same not-found. The
   * expected version is checked first: a row missing from a ledger the caller no longer holds is
   * best told as "reload".
   */
  private async lockRow(scope: LedgerScope, id: string, expected: string | null): Promise<{ ledger: StoredLedger; row: StoredRow }> {
    const ledger = await lockLedger(scope);
    if (!ledger) throw new NotFoundError(NO_TRANSACTION);
    checkExpectedVersion(ledger, expected);
    const row = await findRow(scope, ledger.id, id);
    if (!row) throw new NotFoundError(NO_TRANSACTION);
    return { ledger, row };
  }

  /** One database transaction per write: a refusal thrown inside rolls everything back. */
  private write<T>(owner: Caller, work: (scope: LedgerScope) => Promise<T>): Promise<T> {
    return this.database.db.transaction().execute((trx) => work(this.scope(trx, owner)));
  }

  private scope(db: Database, owner: Caller): LedgerScope {
    return { db, owner, kind: this.database.kind };
  }
}
