/**
 * A ledger's store: every write of a ledger, whoever makes it, goes through the store the unit of
 * work (ledger-write.ts) opens for it under the owner's lock, to number, insert, change and delete
 * rows. The store tells the unit what it wrote (for the row limit, the transfer follower and the
 * version) and keeps a journal of it, which an undoable write saves and an undo puts back
 * (decision 0040). The tables' modules beside it hold the SQL; nothing outside this folder reaches
 * them but through here.
 */
import { placeInBlock, type RowPlace } from '../../domain/balances.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import { type Cents, cents } from '../../domain/money.js';
import { NotFoundError } from '../../domain/errors.js';
import type { Occurrence, ScheduleRef, SourceRef, TransactionDraft, TransactionStatus, TransferLink } from '../../domain/ledger.js';
import type { LedgerGrowth } from '../../domain/limits.js';
import type { RowChanges } from '../../domain/transaction-rules.js';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';
import { countAccounts, findAccount, findPrimaryAccount, type StoredAccount } from './account-record.js';
import { forgetImports, importKey, type ImportedRow, recordImports } from './imported-rows.js';
import { type BankMarkWrite, closeBankKey, listClosedBankKeys, writeBankMarks } from './closed-bank-key-rows.js';
import type { BankMark, ClosedBankKey } from '../../domain/bank-sync/bank-rows.js';
import { deleteLedgerData, writeLedgerData } from './ledger-data.js';
import { JournalRecorder, type LedgerJournal } from './ledger-journal.js';
import { checkExpectedVersion } from './ledger-version.js';
import { findAccountLedgerWithRows, findRow, type LedgerWithRows, listBlocksHolding, listRows, listScheduleRows } from './ledger-reads.js';
import { readLedgerTotals } from './month-totals.js';
import { readRowsBefore } from './row-blocks.js';
import type { RestorableLedger } from './ledger-staging.js';
import {
  advanceVersion,
  attachLedger,
  detachLedger,
  type LedgerFields,
  type LedgerScope,
  saveLedger,
  setLedgerEnd,
  type StoredLedger,
  takeSequences,
} from './ledger-record.js';
import { insertRows } from './row-insert.js';
import { type CheckedBeforeLock, undoLedgerJournal } from './ledger-undo.js';
import { forgetScheduleSkipped, forgetSkipped, skipOccurrence, skippedOccurrences } from './skipped-occurrences.js';
import {
  type ClearedMatch,
  clearMatchedRows,
  deleteAllRows,
  deleteRow,
  deleteRows,
  makeOrdinaryRows,
  setRowTransfer,
  type StoredRow,
  transferAccountsOf,
  unlinkTransfersTo,
  updateRow,
} from './transaction-rows.js';

export const NO_LEDGER = 'You have no ledger yet: create one first.';
export const NO_ACCOUNT = 'No such account.';

/** A row to add: numbered after the ledger's last one by the store. Generated rows name their occurrence. */
export interface RowToAdd extends TransactionDraft {
  readonly source?: Occurrence;
  /** Given for a side of a transfer, whose other side names it before it is stored. */
  readonly id?: string;
  /** The other side, for a side of a transfer (decision 0043). */
  readonly transfer?: TransferLink;
  /** The bank's mark on a row a bank sync brings in (decision 0081). */
  readonly bank?: BankMark;
}

/** A written row placed in the whole ledger: as stored, with its index in row order and its running balance. */
export interface PlacedRow extends RowPlace {
  readonly row: StoredRow;
}

/** What a changes answer says of the ledger after a write (decision 0030): its counts and balances, and the written rows placed. */
export interface LedgerPlacement {
  readonly count: number;
  readonly currentBalance: Cents;
  readonly pendingBalance: Cents;
  /** In row order. */
  readonly rows: readonly PlacedRow[];
}

/**
 * Which account's ledger a call acts on (decision 0042): the primary one (SPEC.md's /api/ledger
 * calls) or one named by its id (/api/accounts/{id}/ledger). Another user's id is a missing one.
 */
export type AccountChoice = 'primary' | { readonly id: string };

/** The owner's ledgers and rows as the queries see them, in this transaction (or outside any, with the app's database). */
export function ledgerScope(database: OpenDatabase, owner: Caller, db: Database = database.db): LedgerScope {
  return { db, owner, kind: database.kind };
}

/** The chosen account, read outside any lock: undefined for a missing primary, NotFoundError for a missing id. */
export async function readAccount(database: OpenDatabase, owner: Caller, account: AccountChoice): Promise<StoredAccount | undefined> {
  if (account === 'primary') return findPrimaryAccount(database.db, owner);
  const found = await findAccount(database.db, owner, account.id);
  if (!found) throw new NotFoundError(NO_ACCOUNT);
  return found;
}

/**
 * The chosen account's ledger with all its rows, or undefined while it has none (or, for the
 * primary one, while the owner has no account yet): one statement for the ledger, so one snapshot,
 * outside any lock. What a write then does is decided again under the lock. A missing account id
 * is a NotFoundError.
 */
export async function readLedger(
  database: OpenDatabase,
  owner: Caller,
  account: AccountChoice = 'primary',
): Promise<LedgerWithRows | undefined> {
  const found = await findAccountLedgerWithRows(ledgerScope(database, owner), account === 'primary' ? null : account.id);
  if (found === undefined && account !== 'primary') throw new NotFoundError(NO_ACCOUNT);
  return found?.ledger;
}

/**
 * The chosen account's ledger, as readLedger reads it, with the account and whether the owner has
 * others (the forecast names the account then, decision 0045); undefined while it has no ledger.
 */
export async function readAccountLedger(
  database: OpenDatabase,
  owner: Caller,
  account: AccountChoice,
): Promise<{ readonly account: StoredAccount; readonly found: LedgerWithRows; readonly several: boolean } | undefined> {
  const chosen = await readAccount(database, owner, account);
  const found = chosen && (await findAccountLedgerWithRows(ledgerScope(database, owner), chosen.id))?.ledger;
  if (!chosen || !found) return undefined;
  return { account: chosen, found, several: (await countAccounts(database.db, owner)) > 1 };
}

/**
 * What a ledger store asks of the unit of work it was opened in (ledger-write.ts): the owner's other
 * ledgers, and the unit's bookkeeping of what its writes did. Declared here, so the store needs no
 * import of the unit.
 */
export interface StoreHost {
  /** The store of another of the owner's accounts, locked with this one; undefined when that account is gone. */
  storeOf(accountId: string | undefined): Promise<LedgerStore | undefined>;
  /** Refuses, before they are written, `added` rows that would take the owner past MAX_LEDGER_ROWS on the write's net growth. */
  reserveRows(added: number, growth?: LedgerGrowth): Promise<void>;
  /** Rows the write took away: they make room for rows it adds later. */
  releaseRows(removed: number): void;
  /** Rows the write changed in place (a status, a date, a link): with those added and removed, what it is charged for. */
  rowsChanged(count: number): void;
  /** A side of a transfer the write edited (date, name, amount) or deleted: its other side follows. */
  sideWritten(store: LedgerStore, row: StoredRow, changes: RowChanges | null): void;
  /** A row of a schedule the write added or removed: a recurring transfer's pairs are looked at again. */
  scheduleRowWritten(row: Pick<StoredRow, 'source' | 'transfer'>): void;
  /**
   * A ledger the write took out of its account (decision 0072): on SQLite its rows go after the
   * write commits, in chunks; undefined on PostgreSQL, where they go in the write's transaction.
   */
  readonly detached: ((ledgerId: string) => void) | undefined;
}

/** The stores a follower opens and walks, and the owner they are locked for: what the unit of work shows them. */
export interface LockedStores {
  readonly db: Database;
  readonly owner: Caller;
  store(account: AccountChoice): Promise<LedgerStore>;
  storeOf(accountId: string | undefined): Promise<LedgerStore | undefined>;
  openedStores(): LedgerStore[];
}

export class LedgerStore {
  /** The ledger as it stands in this transaction: as locked, then as this store's writes left it. */
  private current: StoredLedger | undefined;
  /** What this store's row writes changed, for an undo of them. */
  private readonly recorder = new JournalRecorder();
  /** Whether a write changed the ledger or its rows: the unit of work then moves its version on, once. */
  private changedLedger = false;
  /** Whether a write gave the ledger a version of its own (a New Ledger, a restore): nothing more to move. */
  private versionGiven = false;

  constructor(
    private readonly scope: LedgerScope,
    /** The account whose ledger this is. */
    readonly account: StoredAccount,
    locked: StoredLedger | undefined,
    /** The unit of work this store was opened in: a write of this ledger may open the owner's others through it. */
    private readonly host: StoreHost,
  ) {
    this.current = locked;
  }

  /** The account's ledger, or undefined while it has none. */
  get ledger(): StoredLedger | undefined {
    return this.current;
  }

  /** The transaction the lock is held in: a schedule's or the account's write commits or rolls back with the ledger's. */
  get db(): Database {
    return this.scope.db;
  }

  /** The ledger, or a not-found refusal with `message`. */
  require(message = NO_LEDGER): StoredLedger {
    if (!this.current) throw new NotFoundError(message);
    return this.current;
  }

  /** Refuses (412) a write whose If-Match names another version than the locked ledger's; null asks for nothing. */
  checkExpectedVersion(expected: string | null): void {
    checkExpectedVersion(this.current, expected);
  }

  /** Every row, in creation order. */
  rows(): Promise<StoredRow[]> {
    return listRows(this.scope, this.id());
  }

  /**
   * The ledger's counts and balances and where these rows (as now stored, named by id) stand in it,
   * without reading every row (issues 27 and 34): the month totals, the rows of the blocks that hold
   * them (at most 256 a block, whatever the ledger's shape) and what the blocks before those sum to.
   */
  async place(rows: readonly Pick<StoredRow, 'id'>[]): Promise<LedgerPlacement> {
    const ledger = this.require();
    const totals = await readLedgerTotals(this.scope, ledger.id);
    const ids = new Set(rows.map((row) => row.id));
    const placed: PlacedRow[] = [];
    if (ids.size > 0) {
      const holding = await listBlocksHolding(this.scope, ledger.id, [...ids]);
      const before = await readRowsBefore(this.scope, ledger.id, [...holding.keys()]);
      for (const [block, blockRows] of holding) {
        const rowsBefore = before.get(block);
        if (rowsBefore === undefined) throw new Error(`ledger row block ${block} is not stored`);
        const places = placeInBlock(ledger.openingBalance, blockRows, ids, rowsBefore);
        for (const row of blockRows) {
          const place = places.get(row.id);
          if (place !== undefined) placed.push({ row, ...place });
        }
      }
      // The rows were written in this transaction: not finding one is a fault, not a refusal.
      if (placed.length !== ids.size) throw new Error('a written ledger row is not in its block');
    }
    return {
      count: totals.rows,
      currentBalance: cents(ledger.openingBalance + totals.cleared),
      pendingBalance: cents(ledger.openingBalance + totals.settled),
      rows: placed.sort((a, b) => a.position - b.position),
    };
  }

  /** The row with this id, or undefined: another user's id finds nothing, like a missing one. */
  row(id: string): Promise<StoredRow | undefined> {
    return findRow(this.scope, this.id(), id);
  }

  /** The rows generated from one schedule (or a card's statements), in creation order. */
  scheduleRows(schedule: SourceRef): Promise<StoredRow[]> {
    return listScheduleRows(this.scope, this.id(), schedule);
  }

  /** The skipped occurrences (of one schedule, when named), as occurrence keys. */
  skipped(schedule?: SourceRef): Promise<Set<string>> {
    return skippedOccurrences(this.scope, this.id(), schedule);
  }

  /**
   * Adds rows numbered after the ledger's last one, in the order given (row order, for projected
   * rows), and answers them as stored, in that order. PENDING unless `status` says otherwise: only
   * rows a bank statement brings in start CLEARED.
   */
  async insert(rows: readonly RowToAdd[], status?: TransactionStatus, growth?: LedgerGrowth): Promise<StoredRow[]> {
    if (rows.length === 0) return [];
    const ledgerId = this.id();
    await this.host.reserveRows(rows.length, growth);
    const first = await takeSequences(this.scope, ledgerId, rows.length);
    this.recorder.tookSequences(first, rows.length);
    const inserted = await insertRows(
      this.scope,
      ledgerId,
      rows.map((row, index) => ({ ...row, sequence: first + index, status })),
    );
    this.recorder.inserted(inserted);
    this.changedLedger = true;
    for (const row of inserted) this.host.scheduleRowWritten(row);
    return inserted;
  }

  /**
   * False when the row changed since it was read; `edits`: a generated row stops following its
   * schedule, and a side of a transfer has its other side follow (the transfer follower).
   * `asOtherSide`: this is that other side following, which nothing follows in turn.
   */
  async update(row: StoredRow, changes: RowChanges, edits: boolean, asOtherSide = false): Promise<boolean> {
    if (!(await updateRow(this.scope, this.id(), row, changes, edits))) return false;
    this.recorder.changed(row, row.version + 1);
    this.changedLedger = true;
    this.host.rowsChanged(1);
    if (edits && row.transfer && !asOtherSide) this.host.sideWritten(this, row, changes);
    return true;
  }

  /**
   * False when the row changed since it was read. A generated row's occurrence is skipped for good,
   * and a side of a transfer takes its other side with it (the transfer follower), unless it is that other side.
   */
  async delete(row: StoredRow, asOtherSide = false): Promise<boolean> {
    const ledgerId = this.id();
    if (!(await deleteRow(this.scope, ledgerId, row))) return false;
    this.recorder.changed(row, null);
    this.changedLedger = true;
    this.host.releaseRows(1);
    if (row.source && (await skipOccurrence(this.scope, ledgerId, row.source))) this.recorder.skipped(row.source);
    if (row.transfer && !asOtherSide) this.host.sideWritten(this, row, null);
    return true;
  }

  /**
   * Sets bank marks on rows of this ledger (decision 0081). A mark that changes is a change of the
   * ledger like any other, so its version moves (decision 0084): a pending the bank dropped shows
   * on every device and moves every balance it was in.
   */
  async setBankMarks(marks: readonly BankMarkWrite[]): Promise<void> {
    const changed = await writeBankMarks(this.scope, this.id(), marks);
    if (changed === 0) return;
    this.changedLedger = true;
    this.host.rowsChanged(changed);
  }

  /** The bank keys that never come back into this ledger (decision 0081). */
  closedBankKeys(): Promise<ClosedBankKey[]> {
    return listClosedBankKeys(this.scope, this.id());
  }

  /** Stores a bank key that never comes back into this ledger (a bank row deleted, a pending replaced). */
  async closeBankKey(closed: ClosedBankKey): Promise<void> {
    await closeBankKey(this.scope, this.id(), closed);
    if (closed.reason === 'deleted') this.recorder.closedBankKey(closed.key);
  }

  /**
   * The other side of a transfer's row (decision 0043), in its account's ledger, locked with this
   * one; undefined for a row that is no side of a transfer.
   */
  async otherSide(row: StoredRow): Promise<{ readonly store: LedgerStore; readonly row: StoredRow } | undefined> {
    if (!row.transfer) return undefined;
    const store = await this.host.storeOf(row.transfer.accountId);
    const other = store?.current && (await store.row(row.transfer.id));
    return store && other ? { store, row: other } : undefined;
  }

  /**
   * Links a row to the other side of its transfer, or clears its link (a recurring transfer's sides,
   * paired after a projection; decision 0043). False when the row changed since it was read.
   */
  async setTransfer(row: StoredRow, transfer: TransferLink | null): Promise<boolean> {
    if (!(await setRowTransfer(this.scope, this.id(), row, transfer))) return false;
    this.recorder.changed(row, row.version + 1);
    this.changedLedger = true;
    this.host.rowsChanged(1);
    return true;
  }

  /**
   * Before every row of this ledger goes (its account is deleted, or a New Ledger replaces them):
   * the rows of other accounts that are the other sides of its transfers become ordinary rows
   * there, and those ledgers' versions move on (decision 0043).
   */
  async unlinkOtherSides(): Promise<void> {
    if (!this.current) return;
    for (const accountId of await transferAccountsOf(this.scope, this.current.id)) {
      const store = await this.host.storeOf(accountId);
      const unlinked = store?.current ? await unlinkTransfersTo(this.scope, store.current.id, this.account.id) : 0;
      if (store && unlinked > 0) store.changedLedger = true;
      this.host.rowsChanged(unlinked);
    }
  }

  /** Rows read under this lock that become ordinary rows: no source, no link (a deleted card's payments, decision 0045). */
  async makeOrdinary(rows: readonly StoredRow[]): Promise<void> {
    if (rows.length === 0) return;
    this.changedLedger = true;
    this.host.rowsChanged(rows.length);
    await makeOrdinaryRows(
      this.scope,
      this.id(),
      rows.map((row) => row.id),
    );
    for (const row of rows) this.recorder.changed(row, row.version + 1);
  }

  /** Rows read under this lock that a schedule change replaces. */
  async deleteRows(rows: readonly StoredRow[]): Promise<void> {
    if (rows.length === 0) return;
    await deleteRows(this.scope, this.id(), rows);
    this.changedLedger = true;
    this.host.releaseRows(rows.length);
    for (const row of rows) {
      this.recorder.changed(row, null);
      this.host.scheduleRowWritten(row);
    }
  }

  /** CLEARED on the bank's date: rows read under this lock that statement rows matched, answered as now stored. */
  async clear(matches: readonly ClearedMatch[]): Promise<StoredRow[]> {
    if (matches.length === 0) return [];
    const cleared = await clearMatchedRows(this.scope, this.id(), matches);
    for (const { row } of matches) this.recorder.changed(row, row.version + 1);
    this.changedLedger = true;
    this.host.rowsChanged(matches.length);
    return cleared;
  }

  /** Remembers the statement rows an import took in, so the same file finds them "already imported". */
  async recordImports(rows: readonly ImportedRow[], now: Date, keyOf: (importId: string) => string = importKey): Promise<void> {
    await recordImports(this.scope, this.id(), rows, now, keyOf);
    this.recorder.recorded(rows.map((row) => keyOf(row.importId)));
  }

  /** Forgets a deleted schedule's (or card's) skipped occurrences. */
  async forgetSkipped(schedule: SourceRef): Promise<void> {
    this.recorder.forgot(await forgetScheduleSkipped(this.scope, this.id(), schedule));
  }

  /** The ledger's new last day, after an extension. */
  async setEnd(endDate: IsoDate): Promise<void> {
    const ledger = this.require();
    await setLedgerEnd(this.scope, ledger.id, endDate);
    this.recorder.ended(ledger.endDate, endDate);
    this.changedLedger = true;
    this.current = { ...ledger, endDate };
  }

  /**
   * After a schedule's write: the rows of that schedule as the write left them, each at its version.
   * An undo of the write refuses unless it finds exactly these (decision 0040).
   */
  noteScheduleRows(schedule: ScheduleRef, rows: readonly (readonly [string, number])[]): void {
    this.recorder.scheduleRows(schedule, rows);
  }

  /** True while this store's writes changed nothing in the ledger. */
  get unchanged(): boolean {
    return this.recorder.isEmpty;
  }

  /** What this store's writes changed, for an undo entry. */
  journal(): LedgerJournal {
    return this.recorder.journal(this.account.id, this.current);
  }

  /**
   * Puts back what a write recorded in `journal` (decision 0040), or refuses with a ConflictError
   * when anything it touched changed since; moves the version on when the ledger changed.
   */
  /** `checked`: the journal as checked before the lock (checkBeforeLock), or undefined to check it all here. */
  async undo(journal: LedgerJournal, checked?: CheckedBeforeLock): Promise<boolean> {
    const changed = await undoLedgerJournal(this.scope, this.current, journal, checked, async (added, removed) => {
      this.host.releaseRows(removed);
      await this.host.reserveRows(added, 'undo');
    });
    if (!changed) return false;
    const ledger = this.require();
    this.current = journal.end ? { ...ledger, endDate: journal.end.before } : ledger;
    this.changedLedger = true;
    return true;
  }

  /**
   * Gives the ledger a new version (decision 0030) when this write changed it and did not give it a
   * version of its own. Called by the unit of work alone, once, after its followers ran.
   */
  async settleVersion(): Promise<void> {
    if (!this.changedLedger || this.versionGiven || !this.current) return;
    this.current = await advanceVersion(this.scope, this.current);
    this.versionGiven = true;
  }

  /** Makes the owner's ledger these fields and exactly these rows (projected, in row order), in place of any it had. */
  async replace(fields: LedgerFields, drafts: readonly RowToAdd[], now: Date): Promise<LedgerWithRows> {
    // Numbering the drafts in row order makes it their creation order.
    const rows = drafts.map((draft, index) => ({ ...draft, sequence: index + 1 }));
    const ledger = await saveLedger(this.scope, this.account.id, { ...fields, nextSequence: rows.length + 1 }, now);
    this.current = ledger;
    // Saving gave the ledger its new version: the unit of work moves it no further.
    this.versionGiven = true;
    this.host.releaseRows(await deleteAllRows(this.scope, ledger.id));
    await this.host.reserveRows(rows.length, 'create');
    // The ledger row survives a replacement (an upsert): what the old ledger skipped goes with it.
    await forgetSkipped(this.scope, ledger.id);
    // So do the statements it took in: their rows are gone, and a new ledger may take them in again.
    await forgetImports(this.scope, ledger.id);
    // The ledger is locked and now holds exactly these rows: answer them without reading them back.
    const inserted = await insertRows(this.scope, ledger.id, rows);
    for (const row of inserted) this.host.scheduleRowWritten(row);
    return { ledger, rows: inserted, written: rows.length };
  }

  /**
   * Removes the ledger and everything in it (an account delete or restore); answers how many rows
   * went. Where the unit of work drops detached ledgers afterwards (SQLite, decision 0072), the
   * ledger only leaves its account here, whatever its size: the write stays short.
   */
  async deleteAll(): Promise<number> {
    if (!this.current) return 0;
    const { id } = this.current;
    let rows: number;
    if (this.host.detached) {
      rows = (await readLedgerTotals(this.scope, id)).rows;
      await detachLedger(this.scope, id);
      this.host.detached(id);
    } else {
      rows = await deleteLedgerData(this.scope, id);
    }
    this.host.releaseRows(rows);
    this.current = undefined;
    return rows;
  }

  /** Stores a restored ledger in place of none (deleteAll ran first): its data, or the ledger staged for it (decision 0072). */
  async restore(data: RestorableLedger, now: Date): Promise<void> {
    if ('stagedId' in data) {
      await this.host.reserveRows(data.rows, 'restore');
      const attached = await attachLedger(this.scope, data.stagedId, this.account.id, now);
      if (!attached) throw new Error('a staged ledger was gone before its restore attached it');
      this.current = attached;
    } else {
      await this.host.reserveRows(data.rows.length, 'restore');
      this.current = await writeLedgerData(this.scope, this.account.id, data, now);
    }
    this.versionGiven = true;
  }

  /** The ledger's id, for writes that only make sense once the caller has found a ledger. */
  private id(): string {
    if (!this.current) throw new Error('a ledger write ran without a ledger under the lock');
    return this.current.id;
  }
}
