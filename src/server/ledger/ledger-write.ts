/**
 * A ledger write is one unit of work (issue 33, decision 0064; Actual Budget's
 * batchUpdateTransactions with its transfer hooks and withUndo). Whoever writes a ledger (its own
 * calls, a schedule's change, a statement import, a restore, an undo, an account's change, and
 * later the bank sync) says what changes, inside `LedgerWrites.run`; the unit does the rest, in one
 * database transaction under the owner's lock:
 *
 * 1. the row limit, on the write's net growth across all the owner's ledgers, before any row is
 *    written (the stores ask it as they insert);
 * 2. the change itself (the caller's `apply`);
 * 3. the followers: transfer sides kept paired (transfers.ts), then card payments re-projected
 *    (card-payment-writes.ts);
 * 4. each changed ledger's version moved on exactly once;
 * 5. one undo entry for the whole change, where that kind of write is undoable, naming who made it;
 * 6. one activity entry saying who did what (decision 0094), when the write changed anything;
 * 7. the caller's answer, read in the transaction with the versions as they end.
 *
 * A refusal anywhere rolls all of it back: every ledger, version, undo and activity entry stays as it was.
 */
import type { IsoDate } from '../../domain/calendar-date.js';
import { NotFoundError } from '../../domain/errors.js';
import { checkLedgerRows, type LedgerGrowth } from '../../domain/limits.js';
import { FIRST_ACCOUNT_NAME } from '../../domain/accounts.js';
import type { RowChanges } from '../../domain/transaction-rules.js';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';
import { withLedgerTables } from '../db/ledger-tables.js';
import { withOwnerLock } from '../db/owner-lock.js';
import { findAccount, findPrimaryAccount, insertAccount, type StoredAccount } from './account-record.js';
import { type CardFollowing, type CardWrites, followCards } from './card-payment-writes.js';
import type { LedgerScope } from './ledger-record.js';
import { lockedLedger } from './ledger-record.js';
import type { AccountSchedules } from './account-schedules.js';
import {
  type AccountChoice,
  type LedgerStore as Store,
  LedgerStore,
  NO_ACCOUNT,
  type LockedStores,
  type StoreHost,
} from './ledger-store.js';
import type { LedgerData } from './ledger-data.js';
import type { LedgerJournal } from './ledger-journal.js';
import { type CheckedBeforeLock, checkBeforeLock } from './ledger-undo.js';
import { dropDetachedLedger, dropDetachedLedgers, type RestorableLedger, type StagedLedger, stageLedger } from './ledger-staging.js';
import { countOwnerRowsFromTotals } from './month-totals.js';
import type { StoredRow } from './transaction-rows.js';
import { followTransfers, type WrittenSide } from './transfers.js';
import { saveUndoEntry, type UndoJournal, type UndoKind } from './undo-entries.js';
import { type ActivityChange, describeChange } from '../../domain/activity.js';
import { type Actor, recordActivity } from '../activity/activity-store.js';

/** The words of a write that changed a ledger but did not say what it was: every change shows, even one not yet described. */
const UNDESCRIBED_CHANGE = 'changed the budget';

/**
 * Every deposit and expense of the owner, each naming its account, in the order they were added,
 * read in the write's transaction (`db`). Passed in by whoever builds the unit: the schedules' own
 * modules read them, and the ledger does not import them.
 */
export type ScheduleReader = (db: Database, owner: Caller) => Promise<AccountSchedules>;

/**
 * The owner's today, in their own time zone (decision 0047), read in the write's transaction (`db`).
 * Passed in by whoever builds the unit, as the schedules are: the user's settings are not the ledger's.
 */
export type TodayReader = (db: Database, owner: Caller) => Promise<IsoDate>;

/** What kind of write this is: what the limit's refusal advises, and what its undo entry is named. */
export interface WritePlan {
  /** Why the ledgers would grow, for the row limit's advice. */
  readonly growth: LedgerGrowth;
  /** The undo entry it records; null for a write that is not undoable (a New Ledger, a restore, an undo). */
  readonly undo: UndoKind | null;
  /**
   * False for a write that puts back exactly what was stored (a restore, an undo): followers would
   * only re-derive what it already holds, as of another day.
   */
  readonly follow?: boolean;
}

/** A write that can be undone: its token (the Leftover-Undo header), or undefined when it changed nothing (decision 0040). */
export interface UndoableWrite {
  readonly undo: string | undefined;
}

/**
 * The unit of work a caller writes through: the owner's accounts and their ledgers' stores, locked
 * for this transaction, and what the caller asks the followers to look at besides what it wrote.
 */
export class LedgerWrite implements LockedStores, StoreHost {
  private readonly stores = new Map<string, Store>();
  /** The owner's row count as last counted (undefined until a write first grows), kept up to date by the stores' writes. */
  private rowCount: number | undefined;
  /** Rows added less rows taken away, so far: a write that does not grow on the whole is never refused. */
  private netGrowth = 0;
  /** Rows added, taken away and changed in place, in every ledger: what the write is charged for (issue 34). */
  rowsTouched = 0;
  private readonly sides: WrittenSide[] = [];
  private readonly expensesWritten = new Map<string, boolean>();
  private readonly following: { cards: Set<string>; payingFrom: Set<string>; formerPayFrom: Map<string, string>; fromStart: boolean } = {
    cards: new Set(),
    payingFrom: new Set(),
    formerPayFrom: new Map(),
    fromStart: false,
  };
  private scheduleChange: object | undefined;
  /** What the caller said the write did; null when it must leave no entry (deleting the budget's data, activity included). */
  private activity: ActivityChange | null | undefined;
  private todayRead: IsoDate | undefined;
  /** What the card payments' re-projection wrote per ledger, for a changes answer (decision 0045). */
  cardWrites: CardWrites = new Map();
  /** Ledgers the write took out of their accounts, whose rows go once it commits (SQLite, decision 0072). */
  readonly detachedLedgers: string[] = [];
  readonly detached: ((ledgerId: string) => void) | undefined;

  constructor(
    private readonly scope: LedgerScope,
    private readonly plan: WritePlan,
    private readonly readers: { readonly schedules: ScheduleReader; readonly todayOf: TodayReader },
    /** Who the write is made by (decision 0094): the signed-in member, or undefined for no person (a scheduled sync). */
    readonly actor: Actor = undefined,
  ) {
    // SQLite's one connection would be held while every row of a whole ledger is deleted: they go after the commit instead.
    this.detached =
      scope.kind === 'sqlite'
        ? (ledgerId) => {
            this.detachedLedgers.push(ledgerId);
          }
        : undefined;
  }

  /** The transaction the lock is held in: a schedule's or an account's own write commits or rolls back with the ledgers'. */
  get db(): Database {
    return this.scope.db;
  }

  get owner(): Caller {
    return this.scope.owner;
  }

  /** The owner's own today (decisions 0015, 0047), read once in the write's transaction. */
  async today(): Promise<IsoDate> {
    this.todayRead ??= await this.readers.todayOf(this.db, this.owner);
    return this.todayRead;
  }

  /** The owner's schedules, each naming its account, as the write's transaction sees them. */
  schedules(): Promise<AccountSchedules> {
    return this.readers.schedules(this.db, this.owner);
  }

  /**
   * The chosen account. The primary one is made ("Checking", CHECKING) when the owner has no
   * account yet: a refusal later in the same transaction takes it back with everything else.
   */
  async account(account: AccountChoice): Promise<StoredAccount> {
    if (account !== 'primary') {
      const found = await findAccount(this.db, this.owner, account.id);
      if (!found) throw new NotFoundError(NO_ACCOUNT);
      return found;
    }
    return (
      (await findPrimaryAccount(this.db, this.owner)) ??
      insertAccount(this.db, this.owner, {
        name: FIRST_ACCOUNT_NAME,
        kind: 'CHECKING',
        card: null,
        primary: true,
        createdAt: new Date().toISOString(),
      })
    );
  }

  /** Whether the owner has an account with this id. */
  async hasAccount(id: string): Promise<boolean> {
    return (await findAccount(this.db, this.owner, id)) !== undefined;
  }

  /** The stores opened so far, in the order they were opened: the first is the write's own ledger. */
  openedStores(): Store[] {
    return [...this.stores.values()];
  }

  /** The store of the chosen account's ledger, locked; one per account for the whole unit. */
  async store(account: AccountChoice): Promise<Store> {
    const found = await this.account(account);
    const known = this.stores.get(found.id);
    if (known) return known;
    const store = new LedgerStore(this.scope, found, await lockedLedger(this.scope, found.id), this);
    this.stores.set(found.id, store);
    return store;
  }

  /**
   * The store of the account a link or an undo journal names (the primary one for entries recorded
   * before accounts), or undefined when that account is gone since.
   */
  async storeOf(accountId: string | undefined): Promise<Store | undefined> {
    const found =
      accountId === undefined ? await findPrimaryAccount(this.db, this.owner) : await findAccount(this.db, this.owner, accountId);
    return found && this.store({ id: found.id });
  }

  /** Asks the card follower to look at these cards too, beside those whose ledgers the write changed (decision 0045). */
  includeCards(following: CardFollowing): void {
    for (const id of following.cards ?? []) this.following.cards.add(id);
    for (const id of following.payingFrom ?? []) this.following.payingFrom.add(id);
    for (const [card, former] of following.formerPayFrom ?? []) this.following.formerPayFrom.set(card, former);
    if (following.fromStart) this.following.fromStart = true;
  }

  /** The schedule's own change (a deposit's or an expense's row before and after), saved with the undo entry. */
  noteScheduleChange(change: object | undefined): void {
    this.scheduleChange = change;
  }

  /** What the write did, in the words of the activity (decision 0094), or null for no entry; the last said wins. */
  noteActivity(change: ActivityChange | null): void {
    this.activity = change;
  }

  async reserveRows(added: number, growth: LedgerGrowth = this.plan.growth): Promise<void> {
    if (added <= 0) return;
    this.rowsTouched += added;
    this.netGrowth += added;
    if (this.netGrowth <= 0) {
      if (this.rowCount !== undefined) this.rowCount += added;
      return;
    }
    // Counted once, from the month totals, which every write so far kept up to date in this transaction.
    const before = this.rowCount ?? (await countOwnerRowsFromTotals(this.scope));
    const refusal = checkLedgerRows(growth, before + added);
    if (refusal) throw refusal;
    this.rowCount = before + added;
  }

  releaseRows(removed: number): void {
    this.rowsTouched += removed;
    this.netGrowth -= removed;
    if (this.rowCount !== undefined) this.rowCount -= removed;
  }

  rowsChanged(count: number): void {
    this.rowsTouched += count;
  }

  sideWritten(store: Store, row: StoredRow, changes: RowChanges | null): void {
    this.sides.push({ store, row, changes });
  }

  scheduleRowWritten(row: Pick<StoredRow, 'source' | 'transfer'>): void {
    if (row.source?.kind !== 'expense') return;
    // Whether a row of it carried a link: a bill that was a transfer must lose its links.
    this.expensesWritten.set(row.source.id, (this.expensesWritten.get(row.source.id) ?? false) || Boolean(row.transfer));
  }

  /** Steps 3 to 6: the followers, each changed ledger's version, the undo entry and the activity's entry. */
  async finish(now: Date, beforeUndo?: () => Promise<void>): Promise<string | undefined> {
    const undo = await this.finishLedgers(now, beforeUndo);
    const what = this.activityWhat();
    if (what !== undefined) await recordActivity(this.db, this.owner, this.actor, what, now);
    return undo;
  }

  /** Whether any ledger or schedule changed: what an undo entry, or an undescribed activity entry, needs. */
  private changedAnything(): boolean {
    return this.scheduleChange !== undefined || [...this.stores.values()].some((store) => !store.unchanged);
  }

  /** The activity's words for this write: what its caller said, else a plain one when it changed anything. */
  private activityWhat(): string | undefined {
    if (this.activity === null) return undefined;
    if (this.activity) return describeChange(this.activity);
    return this.changedAnything() ? UNDESCRIBED_CHANGE : undefined;
  }

  private async finishLedgers(now: Date, beforeUndo?: () => Promise<void>): Promise<string | undefined> {
    if (this.plan.follow !== false) {
      await followTransfers(this, this.sides, this.expensesWritten);
      this.cardWrites = await followCards(this, () => this.today(), {
        cards: [...this.following.cards],
        payingFrom: [...this.following.payingFrom],
        formerPayFrom: this.following.formerPayFrom,
        fromStart: this.following.fromStart,
      });
    }
    await beforeUndo?.();
    for (const store of this.stores.values()) await store.settleVersion();
    if (this.plan.undo === null) return undefined;
    const stores = [...this.stores.values()];
    if (!this.changedAnything()) return undefined;
    const [main, ...more] = stores.map((store) => store.journal());
    const journal: UndoJournal = { ledger: main ?? null, ...(more.length > 0 && { more }), schedule: this.scheduleChange ?? null };
    return saveUndoEntry(this.db, this.owner, this.plan.undo, journal, now, { actor: this.actor, what: this.activityWhat() ?? null });
  }
}

/** What a caller hands the unit: the change, and the answer it reads once the unit is done. */
export interface WriteSteps<Applied, Answer> {
  readonly apply: (write: LedgerWrite) => Promise<Applied>;
  /** Runs after the followers, before the versions move: what the undo entry must find as the write left it. */
  readonly beforeUndo?: (write: LedgerWrite, applied: Applied) => Promise<void>;
  readonly answer: (write: LedgerWrite, applied: Applied, undo: string | undefined) => Promise<Answer>;
}

/** Runs units of work for the app: the one way any ledger is written. */
export class LedgerWrites {
  /** Ledgers this process is staging for a restore: not garbage, though in no account yet (decision 0072). */
  private readonly staging = new Set<string>();

  constructor(
    private readonly database: OpenDatabase,
    /** The app's clock: undo entries and created_at. */
    readonly now: () => Date,
    private readonly readers: { readonly schedules: ScheduleReader; readonly todayOf: TodayReader },
    /**
     * Told, once a write committed, how many rows it added, took away and changed in place in all
     * the owner's ledgers: app.ts charges them to the budget of the request the owner came with
     * (issue 34). A write's own few rows cost nothing more; thousands cost what reading them does.
     */
    private readonly rowsWritten: (owner: Caller, rows: number) => void = () => undefined,
    /**
     * Who a write in this owner's name is made by (decision 0094): app.ts finds the signed-in member
     * of the request the owner came with, as it charges rows; a background job's write has none.
     */
    private readonly actorOf: (owner: Caller) => Actor = () => undefined,
  ) {}

  /** The app's database outside any write: for what a write reads before its lock, which never changes once written (an undo entry). */
  get reader(): Database {
    return this.database.db;
  }

  /** The owner's schedules read outside any write: what judging a write's size before its lock reads (a big create, decision 0123). */
  schedulesOutsideLock(owner: Caller): Promise<AccountSchedules> {
    return this.readers.schedules(this.database.db, owner);
  }

  async run<Applied, Answer>(owner: Caller, plan: WritePlan, steps: WriteSteps<Applied, Answer>): Promise<Answer> {
    let write: LedgerWrite | undefined;
    const answer = await withOwnerLock(this.database, owner, async (trx) => {
      const unit = new LedgerWrite({ db: trx, owner, kind: this.database.kind }, plan, this.readers, this.actorOf(owner));
      write = unit;
      const applied = await steps.apply(unit);
      const undo = await unit.finish(this.now(), steps.beforeUndo && (() => steps.beforeUndo?.(unit, applied) ?? Promise.resolve()));
      return steps.answer(unit, applied, undo);
    });
    if (write) {
      this.rowsWritten(owner, write.rowsTouched);
      for (const ledgerId of write.detachedLedgers) {
        // The write is committed: a drop cut short leaves garbage in no account, dropped at the next start or restore.
        await dropDetachedLedger(this.database, owner, ledgerId).catch(() => undefined);
      }
    }
    return answer;
  }

  /**
   * A write that stores whole ledgers (a restore), each handed to `apply` in the order given. On
   * SQLite they are staged first, outside the unit's transaction (ledger-staging.ts), so the unit
   * only attaches them; what a refused or failed write staged is dropped. On PostgreSQL the unit
   * stores them itself, yielding between its inserts, while other users' queries go on in their
   * own connections.
   */
  async runRestoring<Applied, Answer>(
    owner: Caller,
    plan: WritePlan,
    ledgers: readonly LedgerData[],
    steps: {
      readonly apply: (write: LedgerWrite, restorable: readonly RestorableLedger[]) => Promise<Applied>;
      readonly answer: (write: LedgerWrite, applied: Applied) => Promise<Answer>;
    },
  ): Promise<Answer> {
    // What an earlier restore of the owner's left behind when it stopped midway.
    await dropDetachedLedgers(this.database, owner, this.staging);
    if (this.database.kind !== 'sqlite') {
      return this.run(owner, plan, {
        apply: (write) => steps.apply(write, ledgers),
        answer: (write, applied) => steps.answer(write, applied),
      });
    }
    const started: string[] = [];
    const begun = (ledgerId: string) => {
      started.push(ledgerId);
      this.staging.add(ledgerId);
    };
    try {
      const staged: StagedLedger[] = [];
      for (const ledger of ledgers) staged.push(await stageLedger(this.database, owner, ledger, this.now(), begun));
      return await this.run(owner, plan, {
        apply: (write) => steps.apply(write, staged),
        answer: (write, applied) => steps.answer(write, applied),
      });
    } catch (error) {
      // Still in no account: the write that would have attached them did not commit.
      for (const ledgerId of started) await dropDetachedLedger(this.database, owner, ledgerId).catch(() => undefined);
      throw error;
    } finally {
      for (const ledgerId of started) this.staging.delete(ledgerId);
    }
  }

  /** An undo's journal checked before the undo takes its lock, outside any transaction (ledger-undo.ts, decision 0072). */
  checkUndoBeforeLock(owner: Caller, journal: LedgerJournal): Promise<CheckedBeforeLock | undefined> {
    return checkBeforeLock({ db: withLedgerTables(this.database.db), owner, kind: this.database.kind }, journal);
  }

  /** Drops every ledger in no account: garbage of writes cut short before this process started (decision 0072). */
  dropGarbage(): Promise<void> {
    return dropDetachedLedgers(this.database, undefined, this.staging);
  }

  /** A write of one account's ledger: `apply` gets its store, opened first, so its journal leads the undo entry. */
  runOn<Applied, Answer>(
    owner: Caller,
    account: AccountChoice,
    plan: WritePlan,
    steps: {
      readonly apply: (store: Store, write: LedgerWrite) => Promise<Applied>;
      readonly answer: (store: Store, applied: Applied, undo: string | undefined, write: LedgerWrite) => Promise<Answer>;
    },
  ): Promise<Answer> {
    let store: Store | undefined;
    const opened = async (write: LedgerWrite) => (store ??= await write.store(account));
    return this.run(owner, plan, {
      apply: async (write) => steps.apply(await opened(write), write),
      answer: async (write, applied, undo) => steps.answer(await opened(write), applied, undo, write),
    });
  }
}
