/**
 * The ledger calls: each write is a single database transaction that applies the domain's ledger
 * rules (projection, extension, what a change to a row may do) and answers the ledger with all its
 * rows, in cents. Refusals are the domain's errors, which the one error handler turns into status
 * codes. Each write may name the version it expects (a client's If-Match, or null for none): it is
 * checked against the version read under the owner's lock, before anything else is decided.
 */
import { addDays, type IsoDate, maxDate } from '../../domain/calendar-date.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../domain/errors.js';
import { canEdit, isWithinLedger, type ScheduleRef, type TransactionDraft } from '../../domain/ledger.js';
import type { Cents } from '../../domain/money.js';
import { defaultTransferName } from '../../contract/transfers.js';
import { newId } from '../db/ids.js';
import { followsSchedule, type LedgerSchedules, projectSchedules, reprojectSchedule } from '../../domain/ledger-projection.js';
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
import type { LedgerDeposit, LedgerExpense } from '../../domain/ledger-projection.js';
import type { Database, OpenDatabase } from '../db/database.js';
import type { UndoKind } from '../undo/undo-store.js';
import type { LedgerWithRows } from './ledger-reads.js';
import type { LedgerFields, StoredLedger } from './ledger-record.js';
import {
  type AccountChoice,
  type LedgerPlacement,
  type LedgerStore,
  type OwnerLock,
  readLedger,
  withLedgerLock,
  withOwnerLock,
} from './ledger-store.js';
import type { StoredRow } from './transaction-rows.js';
import { type CardFollowing, type CardWrites, followCards } from './card-payment-writes.js';

const NO_TRANSACTION = 'No such transaction in your ledger.';
const NO_ACCOUNT_SCHEDULES: AccountSchedules = { deposits: [], expenses: [] };
const CHANGED_MEANWHILE = 'This transaction was changed at the same time by another request. Reload the ledger and try again.';

/** Deposits and expenses with the account each is projected into (decision 0042). */
export interface AccountSchedules {
  /** A null account: the owner had none yet, so neither a ledger. */
  readonly deposits: readonly (LedgerDeposit & { readonly accountId: string | null })[];
  readonly expenses: readonly (LedgerExpense & { readonly accountId: string | null; readonly toAccountId: string | null })[];
}

/** A recurring transfer's two accounts (decision 0043): the expense's own (debits) and the one it pays into (credits). */
interface TransferAccounts {
  readonly id: string;
  readonly from: string;
  readonly to: string;
}

/**
 * Every deposit and expense of the owner, each naming its account, in the order they were added,
 * read in the write's transaction (`db`). Passed in by whoever builds the service: the schedules'
 * own modules read them, and the ledger does not import them.
 */
export type ScheduleReader = (db: Database, owner: Caller) => Promise<AccountSchedules>;

/**
 * The owner's today, in their own time zone (decision 0047), read in the write's transaction (`db`).
 * Passed in by whoever builds the service, as the schedules are: the user's settings are not the ledger's.
 */
export type TodayReader = (db: Database, owner: Caller) => Promise<IsoDate>;

/**
 * The schedules one account's ledger is projected from, in the order they were added: its own, and
 * the recurring transfers paying into it, whose occurrences are credits there (decision 0043).
 */
function schedulesOf(schedules: AccountSchedules, accountId: string): LedgerSchedules {
  return {
    deposits: schedules.deposits.filter((deposit) => deposit.accountId === accountId),
    expenses: schedules.expenses.flatMap((expense) =>
      expense.accountId === accountId ? [expense] : expense.toAccountId === accountId ? [{ ...expense, credit: true }] : [],
    ),
  };
}

/** The recurring transfers with a side in this account (or in any, without one). */
function transfersOf(schedules: AccountSchedules, accountId?: string): TransferAccounts[] {
  const transfers: TransferAccounts[] = [];
  for (const { id, accountId: from, toAccountId: to } of schedules.expenses) {
    if (from !== null && to !== null && (accountId === undefined || from === accountId || to === accountId))
      transfers.push({ id, from, to });
  }
  return transfers;
}

/** The expense as a transfer, when it is one in these schedules. */
function transferIn(schedules: AccountSchedules, id: string): TransferAccounts | undefined {
  return transfersOf(schedules).find((transfer) => transfer.id === id);
}

/** A write that can be undone: its token (the Leftover-Undo header), or undefined when it changed nothing (decision 0040). */
export interface UndoableWrite {
  readonly undo: string | undefined;
}

/** What a write of a deposit or an expense hands the ledger: which schedule, whether it is gone, and its own change to undo. */
export interface ScheduleWrite {
  readonly schedule: ScheduleRef;
  readonly deleted: boolean;
  /** The account the schedule was in before the write (null: it added it) and after (null: it removed it). */
  readonly accounts: { readonly before: string | null; readonly after: string | null };
  /** The schedule's before and after, saved with the undo entry; undefined when the schedule did not change. */
  readonly change: object | undefined;
}

/**
 * How a write of one row answers (decision 0030): the whole ledger (SPEC.md's answer), or only what
 * it changed, which is worked out without reading every row (issue 27).
 */
export type RowWriteAnswer = 'ledger' | 'changes';

/**
 * What a write of one row read for its answer, in its transaction: every row for the whole ledger,
 * or the rows it changed or added placed in row order with the ledger's counts and balances.
 */
export type WrittenRows = { readonly rows: readonly StoredRow[] } | { readonly placement: LedgerPlacement };

/** A write of one row: the ledger after it, the version it started from, the ids it removed, and what it answers. */
export interface LedgerRowWrite extends UndoableWrite {
  readonly ledger: StoredLedger;
  /** The ledger's version before the write: what its changes apply to. */
  readonly basedOn: number;
  readonly removedIds: readonly string[];
  readonly written: WrittenRows;
}

/** The whole ledger, or the changed rows (as now stored, by id and date) placed in it. */
async function writtenRows(
  store: LedgerStore,
  answer: RowWriteAnswer,
  changed: readonly Pick<StoredRow, 'id' | 'date'>[],
): Promise<WrittenRows> {
  return answer === 'ledger' ? { rows: await store.rows() } : { placement: await store.place(changed) };
}

/**
 * What a row write answers in its ledger: its own changed rows and removed ids, with what the card
 * payments' re-projection then wrote there (decision 0045), as the whole ledger or the changed rows
 * placed in it (issue 27).
 */
async function rowWrites(
  store: LedgerStore,
  cards: CardWrites,
  answer: RowWriteAnswer,
  changed: readonly Pick<StoredRow, 'id' | 'date'>[],
  removed: readonly string[],
): Promise<{ readonly written: WrittenRows; readonly removedIds: readonly string[] }> {
  const followed = cards.get(store);
  const removedIds = [...removed, ...(followed?.removed ?? [])];
  const gone = new Set(removedIds);
  // By id, the re-projection's row (read as now stored) over the write's own: a row is placed once.
  const byId = new Map<string, Pick<StoredRow, 'id' | 'date'>>();
  for (const row of changed) if (!gone.has(row.id)) byId.set(row.id, row);
  for (const id of followed?.changed ?? []) {
    const row = gone.has(id) ? undefined : await store.row(id);
    if (row) byId.set(id, row);
  }
  return { written: await writtenRows(store, answer, [...byId.values()]), removedIds };
}

/** The cards a write of this account's ledger dates follows: itself when it is a card, and those it pays. */
function datesFollowing(store: LedgerStore, fromStart: boolean): CardFollowing {
  const own = store.account.id;
  return { cards: store.account.kind === 'CARD' ? [own] : [], payingFrom: [own], fromStart };
}

function rangeOf(ledger: StoredLedger): DateRange {
  return { from: ledger.startDate, to: ledger.endDate };
}

/** A transfer to write: From, To (accounts' ids), and the row both sides get; no name means "Transfer to <To>". */
export interface TransferDraft {
  readonly fromAccountId: string;
  readonly toAccountId: string;
  readonly date: IsoDate;
  readonly amount: Cents;
  readonly name: string | undefined;
}

/** The ledger a side of a transfer is written to, or a refusal naming `field` (the side's account). */
function transferLedger(store: LedgerStore, field: string): StoredLedger {
  if (!store.ledger) {
    const message = `${store.account.name} has no ledger yet: create one first.`;
    throw new InvalidInputError(message, { [field]: message });
  }
  return store.ledger;
}

/** A side of a transfer must lie within its account's ledger: a 400 naming the date and that ledger. */
function checkTransferDate(store: LedgerStore, ledger: StoredLedger, date: IsoDate): void {
  if (isWithinLedger(date, rangeOf(ledger))) return;
  throw new InvalidInputError(`The date is outside ${store.account.name}'s ledger.`, {
    date: `Date must be between ${ledger.startDate} and ${ledger.endDate}, the dates of ${store.account.name}'s ledger.`,
  });
}

export class LedgerService {
  constructor(
    private readonly database: OpenDatabase,
    /** The app's clock: the ledger's created_at and undo entries. */
    private readonly now: () => Date,
    /** What a ledger is projected from; generation numbers rows that tie on date, type and name in this order. */
    private readonly schedules: ScheduleReader,
    /** "Today" for re-projection and card payments: the owner's own (decisions 0015, 0047). */
    private readonly todayOf: TodayReader,
  ) {}

  /** The account's ledger, or undefined while it has none. */
  async retrieve(owner: Caller, account: AccountChoice): Promise<LedgerWithRows | undefined> {
    return readLedger(this.database, owner, account);
  }

  /** Replaces the account's ledger with every paycheck and bill of its schedules between the dates, all PENDING. */
  async create(owner: Caller, account: AccountChoice, fields: LedgerFields, expected: string | null = null): Promise<LedgerWithRows> {
    return withLedgerLock(this.database, owner, account, async (store) => {
      // With If-Match, there must be a ledger, at that version, to replace.
      store.checkExpectedVersion(expected);
      const all = await this.schedules(store.db, owner);
      const drafts = projectSchedules(schedulesOf(all, store.account.id), { from: fields.startDate, to: fields.endDate });
      await store.checkRowLimit('create', drafts.length, { held: 0 });
      // The rows go, so the transfers they were sides of leave ordinary rows in the other accounts (decision 0043).
      await store.unlinkOtherSides();
      const replaced = await store.replace(fields, drafts, this.now());
      // The recurring transfers' new sides here pair with their other sides' rows of the same occurrences.
      const paired = await this.pairTransfers(store.lock, transfersOf(all, store.account.id));
      // A card's payments, or the payments of the cards this account pays, now reach these dates (decision 0045).
      const cards = await followCards(store.lock, await this.today(store.lock), datesFollowing(store, true));
      if (!paired.has(store) && !cards.has(store)) return replaced;
      return { ledger: store.require(), rows: await store.rows(), written: replaced.written };
    });
  }

  /**
   * Appends every occurrence between the current end (exclusive) and the new one (inclusive),
   * exactly as creation would have generated them; no existing row changes.
   */
  async extend(
    owner: Caller,
    account: AccountChoice,
    endDate: IsoDate,
    expected: string | null = null,
  ): Promise<LedgerWithRows & UndoableWrite> {
    return withLedgerLock(this.database, owner, account, async (store) => {
      const current = store.require();
      store.checkExpectedVersion(expected);
      const refusal = checkExtension(current, endDate);
      if (refusal) throw refusalError(refusal);
      const added = { from: addDays(current.endDate, 1), to: endDate };
      const all = await this.schedules(store.db, owner);
      const drafts = projectSchedules(schedulesOf(all, store.account.id), added, await store.skipped());
      await store.checkRowLimit('extend', drafts.length);
      await store.insert(drafts);
      await store.setEnd(endDate);
      // Each recurring transfer's new sides here pair with its rows of the same occurrences in the other
      // account's ledger, when that ledger covers them; the other side is projected when that ledger
      // reaches those dates (its own creation or Extend), and pairs then.
      await this.pairTransfers(store.lock, transfersOf(all, store.account.id));
      await followCards(store.lock, await this.today(store.lock), datesFollowing(store, false));
      const ledger = await store.advanceVersion();
      return { ledger, rows: await store.rows(), written: drafts.length, undo: await store.recordUndo('extendLedger', this.now()) };
    });
  }

  async addTransaction(
    owner: Caller,
    account: AccountChoice,
    draft: TransactionDraft,
    expected: string | null = null,
    answer: RowWriteAnswer = 'ledger',
  ): Promise<LedgerRowWrite> {
    return withLedgerLock(this.database, owner, account, async (store) => {
      const ledger = store.require();
      store.checkExpectedVersion(expected);
      const outside = checkDateWithinLedger(draft.date, rangeOf(ledger));
      if (outside) throw refusalError(outside);
      await store.checkRowLimit('add', 1);
      const added = await store.insert([draft]);
      const cards = await followCards(store.lock, await this.today(store.lock));
      return {
        ledger: await store.advanceVersion(),
        basedOn: ledger.version,
        ...(await rowWrites(store, cards, answer, added, [])),
        undo: await store.recordUndo('addTransaction', this.now()),
      };
    });
  }

  /**
   * A transfer between two of the owner's accounts (decision 0043): a debit in From's ledger and a
   * credit in To's, with the same date, name and amount, each naming the other. One transaction
   * under the owner's lock; its undo takes both back. Answers From's ledger; `expected` is From's version.
   */
  async addTransfer(owner: Caller, draft: TransferDraft, expected: string | null = null): Promise<LedgerWithRows & UndoableWrite> {
    return withOwnerLock(this.database, owner, async (locked) => {
      const from = await locked.store({ id: draft.fromAccountId });
      const to = await locked.store({ id: draft.toAccountId });
      if (from === to) {
        throw new InvalidInputError('A transfer moves money between two accounts.', {
          toAccountId: 'To must be another account than From.',
        });
      }
      const fromLedger = transferLedger(from, 'fromAccountId');
      const toLedger = transferLedger(to, 'toAccountId');
      from.checkExpectedVersion(expected);
      checkTransferDate(from, fromLedger, draft.date);
      checkTransferDate(to, toLedger, draft.date);
      await from.checkRowLimit('add', 2);
      const row = { date: draft.date, name: draft.name ?? defaultTransferName(to.account.name), amount: draft.amount };
      const [fromId, toId] = [newId(), newId()];
      await from.insert([{ ...row, id: fromId, type: 'D', transfer: { id: toId, accountId: to.account.id } }]);
      await to.insert([{ ...row, id: toId, type: 'C', transfer: { id: fromId, accountId: from.account.id } }]);
      await followCards(locked, await this.today(locked));
      await to.advanceVersion();
      const ledger = await from.advanceVersion();
      return { ledger, rows: await from.rows(), undo: await from.recordUndo('addTransfer', this.now()) };
    });
  }

  /**
   * Applies an edit (date, name, amount) or a status move to one row, as the domain decides. The
   * request is the whole row as the client holds it, so a stale copy is refused, not applied. An
   * edited generated row stops following its schedule.
   */
  async updateTransaction(
    owner: Caller,
    account: AccountChoice,
    id: string,
    requested: RequestedRow,
    expected: string | null = null,
    answer: RowWriteAnswer = 'ledger',
  ): Promise<LedgerRowWrite> {
    return withLedgerLock(this.database, owner, account, async (store) => {
      const { ledger, row } = await lockedRow(store, id, expected);
      const decision = decideUpdate(row, requested, rangeOf(ledger));
      if (decision.kind === 'refused') throw refusalError(decision.refusal);
      // A transfer's date, name and amount are both sides'; each side's status is its own (decision 0043).
      const other = decision.kind === 'change' && decision.edits ? await store.otherSide(row) : undefined;
      if (other && decision.kind === 'change') {
        if (!canEdit(other.row.status)) {
          throw new ConflictError(
            `The other side of this transfer, in ${other.store.account.name}, is ${other.row.status}: a transfer's date, name and amount can change only while both sides are PENDING.`,
          );
        }
        checkTransferDate(other.store, other.store.require(), decision.changes.date);
        const { date, name, amount } = decision.changes;
        if (!(await other.store.update(other.row, { date, name, amount, status: other.row.status }, true))) {
          throw new ConflictError(CHANGED_MEANWHILE);
        }
        await other.store.advanceVersion();
      }
      if (decision.kind === 'change' && !(await store.update(row, decision.changes, decision.edits))) {
        throw new ConflictError(CHANGED_MEANWHILE);
      }
      const changed = decision.kind === 'change';
      const cards: CardWrites = changed ? await followCards(store.lock, await this.today(store.lock)) : new Map();
      return {
        // An update that changes nothing leaves the version alone: the ledger is as the caller holds it.
        ledger: changed ? await store.advanceVersion() : ledger,
        basedOn: ledger.version,
        ...(await rowWrites(store, cards, answer, decision.kind === 'change' ? [{ id: row.id, date: decision.changes.date }] : [], [])),
        // Nothing recorded when nothing changed: no undo for it.
        undo: await store.recordUndo('updateTransaction', this.now()),
      };
    });
  }

  /** Deleting a generated row skips its occurrence for good: no schedule change or extension brings it back. */
  async deleteTransaction(
    owner: Caller,
    account: AccountChoice,
    id: string,
    expected: string | null = null,
    answer: RowWriteAnswer = 'ledger',
  ): Promise<LedgerRowWrite> {
    return withLedgerLock(this.database, owner, account, async (store) => {
      const { ledger, row } = await lockedRow(store, id, expected);
      const refusal = checkDeletion(row);
      if (refusal) throw refusalError(refusal);
      // Deleting either side of a transfer deletes both (decision 0043), each under PRODUCT.md's rule.
      const other = await store.otherSide(row);
      if (other) {
        if (checkDeletion(other.row)) {
          throw new ConflictError(
            `The other side of this transfer, in ${other.store.account.name}, is ${other.row.status}: a transfer can be deleted only while both sides are PENDING.`,
          );
        }
        if (!(await other.store.delete(other.row))) throw new ConflictError(CHANGED_MEANWHILE);
        await other.store.advanceVersion();
      }
      if (!(await store.delete(row))) throw new ConflictError(CHANGED_MEANWHILE);
      const cards = await followCards(store.lock, await this.today(store.lock));
      return {
        ledger: await store.advanceVersion(),
        basedOn: ledger.version,
        ...(await rowWrites(store, cards, answer, [], [row.id])),
        undo: await store.recordUndo('deleteTransaction', this.now()),
      };
    });
  }

  /**
   * Runs a write of a deposit or an expense and brings the projection of that schedule up to date
   * in the same transaction: both commit, or neither. `write` answers which schedule it wrote,
   * whether it still exists, the account it was in before and after, and its change. The ledger of
   * each of those accounts follows: a schedule moved between accounts leaves the old one's future
   * rows and is projected into the new one's. Answers how many ledger rows it inserted, and the
   * token that undoes the schedule's write and the projections together (decision 0040).
   */
  async changeSchedule(
    owner: Caller,
    kind: UndoKind,
    write: (db: Database, locked: OwnerLock) => Promise<ScheduleWrite>,
  ): Promise<{ added: number } & UndoableWrite> {
    // The lock comes first, as in every ledger write, so two writes of one user never wait on each other in turn.
    return withOwnerLock(this.database, owner, async (locked) => {
      // What the schedule was decides whether a moved date still fills the same period (reprojectSchedule).
      const before = await this.schedules(locked.db, owner);
      const today = await this.today(locked);
      const { schedule, deleted, accounts, change } = await write(locked.db, locked);
      const after = deleted ? NO_ACCOUNT_SCHEDULES : await this.schedules(locked.db, owner);
      let added = 0;
      // A recurring transfer's ledgers are the expense's own account's and the one it pays into, before and after (decision 0043).
      const transfers = schedule.kind === 'expense' ? [transferIn(after, schedule.id), transferIn(before, schedule.id)] : [];
      // The old account first: the rows it gives up count no more against the limit when the new one takes its own.
      const touched = [accounts.before, accounts.after, ...transfers.map((transfer) => transfer?.to ?? null)].filter(
        (id, index, all): id is string => id !== null && all.indexOf(id) === index,
      );
      const stores: LedgerStore[] = [];
      for (const accountId of touched) stores.push(await locked.store({ id: accountId }));
      // A transfer's pair is kept whole: a side whose other side is paid, cleared or edited stays as it is too.
      const held = new Set<string>();
      for (const store of stores) for (const id of await this.heldRows(store, schedule, today)) held.add(id);
      for (const store of stores) {
        const accountId = store.account.id;
        added += await this.reproject(store, schedule, schedulesOf(before, accountId), schedulesOf(after, accountId), deleted, today, held);
      }
      // The pairs as the expense now is first: rows left from what it was pair only among themselves.
      await this.pairTransfers(
        locked,
        transfers.filter((transfer): transfer is TransferAccounts => transfer !== undefined),
      );
      // A bill charged to a card (or a transfer paying it) changes what its statements owe (decision 0045).
      await followCards(locked, await this.today(locked));
      // The schedule's rows as this write leaves them, links included: an undo must find exactly these.
      for (const store of stores)
        store.noteScheduleRows(schedule, store.ledger ? (await store.scheduleRows(schedule)).map((row) => [row.id, row.version]) : []);
      return { added, undo: await locked.recordUndo(kind, this.now(), change, stores[0]) };
    });
  }

  /**
   * Projects schedules that just moved into an account (its old account was deleted) into that
   * account's ledger, from today on, under the owner's lock the caller holds. Answers how many rows
   * it added. Not an undoable write: deleting an account is not.
   */
  async projectMoved(
    locked: OwnerLock,
    accountId: string,
    moved: readonly ScheduleRef[],
    before: AccountSchedules,
    after: AccountSchedules,
  ): Promise<number> {
    if (moved.length === 0) return 0;
    const store = await locked.store({ id: accountId });
    const today = await this.today(locked);
    let added = 0;
    for (const schedule of moved) {
      added += await this.reproject(store, schedule, schedulesOf(before, accountId), schedulesOf(after, accountId), false, today);
    }
    await this.pairTransfers(locked, transfersOf(after, accountId));
    return added;
  }

  /** The owner's schedules, each naming its account, as the write's transaction sees them. */
  readSchedules(locked: OwnerLock): Promise<AccountSchedules> {
    return this.schedules(locked.db, locked.owner);
  }

  /**
   * One ledger's projection of one schedule brought up to date: `before` and `after` are the
   * schedules of the ledger's account before and after the write (the schedule is in neither when
   * it is not this account's). Answers how many rows it inserted.
   */
  private async reproject(
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
    await store.checkRowLimit('schedule', added.length, { removed: removed.length });
    const removedIds = new Set(removed);
    await store.deleteRows(rows.filter((row) => removedIds.has(row.id)));
    const inserted = await store.insert(added);
    if (removed.length > 0 || added.length > 0) await store.advanceVersion();
    if (deleted) await store.forgetSkipped(schedule);
    return inserted.length;
  }

  /** The owner's own today (decisions 0015, 0047), read in the write's transaction. */
  private today(locked: Pick<OwnerLock, 'db' | 'owner'>): Promise<IsoDate> {
    return this.todayOf(locked.db, locked.owner);
  }

  /** Ids of the schedule's rows in this ledger that no longer follow it (paid, cleared, edited, or past). */
  private async heldRows(store: LedgerStore, schedule: ScheduleRef, today: IsoDate): Promise<string[]> {
    if (!store.ledger) return [];
    const from = reprojectionWindow(store.ledger, today).from;
    return (await store.scheduleRows(schedule)).filter((row) => !followsSchedule(row, schedule, from)).map((row) => row.id);
  }

  /**
   * Links each recurring transfer's debit in its account's ledger with its credit of the same
   * occurrence in the ledger it pays into (decision 0043), under the owner's lock. A row already
   * paired with a row that names it back stays so (a side kept from before the expense changed); a
   * row left without its other side (removed by re-projection, or never projected because that
   * ledger does not cover the date) answers no link. Only rows whose link changes are written, each
   * at a new version, and each ledger changed moves its version on. Answers the stores it changed.
   */
  private async pairTransfers(locked: OwnerLock, transfers: readonly TransferAccounts[]): Promise<Set<LedgerStore>> {
    const changed = new Set<LedgerStore>();
    for (const transfer of transfers) {
      const schedule: ScheduleRef = { kind: 'expense', id: transfer.id };
      const from = await locked.storeOf(transfer.from);
      const to = await locked.storeOf(transfer.to);
      if (!from || !to) continue;
      const debits = from.ledger ? await from.scheduleRows(schedule) : [];
      const credits = to.ledger ? await to.scheduleRows(schedule) : [];
      const byId = new Map([...debits, ...credits].map((row) => [row.id, row]));
      // Paired with a row that names it back: in the other ledger of this pair, or in a ledger the expense paid into before.
      const paired = async (store: LedgerStore, row: StoredRow): Promise<boolean> => {
        if (!row.transfer) return false;
        const other = byId.get(row.transfer.id) ?? (await store.otherSide(row))?.row;
        return other?.transfer?.id === row.id;
      };
      const freeCredits = new Map<string, StoredRow>();
      for (const row of credits) if (row.source && !(await paired(to, row))) freeCredits.set(row.source.occurrence, row);
      const link = async (store: LedgerStore, row: StoredRow, other: { id: string; accountId: string } | null) => {
        if (row.transfer?.id === other?.id && row.transfer?.accountId === other?.accountId) return;
        if (!(await store.setTransfer(row, other))) throw new ConflictError(CHANGED_MEANWHILE);
        changed.add(store);
      };
      for (const row of debits) {
        if (!row.source || (await paired(from, row))) continue;
        const credit = freeCredits.get(row.source.occurrence);
        freeCredits.delete(row.source.occurrence);
        await link(from, row, credit ? { id: credit.id, accountId: to.account.id } : null);
        if (credit) await link(to, credit, { id: row.id, accountId: from.account.id });
      }
      for (const credit of freeCredits.values()) await link(to, credit, null);
    }
    for (const store of changed) await store.advanceVersion();
    return changed;
  }
}

/** The dates a schedule's change may reach in a ledger: from the owner's today (or its start, if later) to its end. */
function reprojectionWindow(ledger: StoredLedger, today: IsoDate): DateRange {
  return { from: maxDate(today, ledger.startDate), to: ledger.endDate };
}

/**
 * The locked ledger and its row with this id; a missing ledger or row is the same not-found. The
 * expected version is checked first: a row missing from a ledger the caller no longer holds is
 * best told as "reload".
 */
async function lockedRow(store: LedgerStore, id: string, expected: string | null): Promise<{ ledger: StoredLedger; row: StoredRow }> {
  const ledger = store.require(NO_TRANSACTION);
  store.checkExpectedVersion(expected);
  const row = await store.row(id);
  if (!row) throw new NotFoundError(NO_TRANSACTION);
  return { ledger, row };
}
