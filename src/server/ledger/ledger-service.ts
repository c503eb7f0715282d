/**
 * The ledger calls: each write is one unit of work (ledger-write.ts) that applies the domain's ledger
 * rules (projection, extension, what a change to a row may do) and answers the ledger with all its
 * rows, in cents, or only what it changed. Refusals are the domain's errors, which the one error
 * handler turns into status codes. Each write may name the version it expects (a client's If-Match,
 * or null for none): it is checked against the version read under the owner's lock, before
 * anything else is decided.
 */
import { closedOnDelete } from '../../domain/bank-sync/bank-rows.js';
import { addDays, type IsoDate } from '../../domain/calendar-date.js';
import type { DateRange } from '../../domain/schedules.js';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import type { TransactionDraft } from '../../domain/ledger.js';
import { projectSchedules } from '../../domain/ledger-projection.js';
import {
  checkDateWithinLedger,
  checkDeletion,
  checkExtension,
  decideUpdate,
  type RequestedRow,
  refusalError,
} from '../../domain/transaction-rules.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { schedulesOf } from './account-schedules.js';
import type { CardFollowing, CardWrites } from './card-payment-writes.js';
import type { LedgerWithRows } from './ledger-reads.js';
import type { LedgerFields, StoredLedger } from './ledger-record.js';
import { type AccountChoice, type LedgerPlacement, type LedgerStore, readLedger } from './ledger-store.js';
import { type CreateElsewhere, isBigCreate, type LedgerText } from './big-create.js';
import type { LedgerWrites, UndoableWrite } from './ledger-write.js';
import type { StoredRow } from './transaction-rows.js';
import { CHANGED_MEANWHILE, type TransferDraft, writeTransfer } from './transfers.js';

const NO_TRANSACTION = 'No such transaction in your ledger.';

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

/** A row's change in the activity's words: a status move says which, an edit says edited. */
function rowVerb(before: string, after: string, edits: boolean): 'paid' | 'cleared' | 'edited' {
  if (!edits && after !== before && after === 'PAID') return 'paid';
  if (!edits && after !== before && after === 'CLEARED') return 'cleared';
  return 'edited';
}

function rangeOf(ledger: StoredLedger): DateRange {
  return { from: ledger.startDate, to: ledger.endDate };
}

export class LedgerService {
  constructor(
    private readonly database: OpenDatabase,
    /** Every write is one unit of work, run by these. */
    private readonly writes: LedgerWrites,
    /** Where a big create runs; without it every create runs here. */
    private readonly createElsewhere?: CreateElsewhere,
  ) {}

  /** The account's ledger, or undefined while it has none. */
  async retrieve(owner: Caller, account: AccountChoice): Promise<LedgerWithRows | undefined> {
    return readLedger(this.database, owner, account);
  }

  /**
   * Replaces the account's ledger with every paycheck and bill of its schedules between the dates,
   * all PENDING: here, or as its text from the big writes' thread when it may write thousands of rows.
   */
  async create(
    owner: Caller,
    account: AccountChoice,
    fields: LedgerFields,
    expected: string | null = null,
  ): Promise<LedgerWithRows | LedgerText> {
    if (this.createElsewhere && (await isBigCreate(this.database, this.writes, owner, account, fields))) {
      return this.createElsewhere(owner, account, fields, expected);
    }
    return this.createHere(owner, account, fields, expected);
  }

  /** A create in this thread: what the big writes' thread runs too. */
  createHere(owner: Caller, account: AccountChoice, fields: LedgerFields, expected: string | null = null): Promise<LedgerWithRows> {
    return this.writes.runOn(
      owner,
      account,
      { growth: 'create', undo: null },
      {
        apply: async (store, write) => {
          // With If-Match, there must be a ledger, at that version, to replace.
          store.checkExpectedVersion(expected);
          const drafts = projectSchedules(schedulesOf(await write.schedules(), store.account.id), {
            from: fields.startDate,
            to: fields.endDate,
          });
          // The rows go, so the transfers they were sides of leave ordinary rows in the other accounts (decision 0043).
          await store.unlinkOtherSides();
          const replaced = await store.replace(fields, drafts, this.writes.now());
          write.noteActivity({ kind: 'ledger', verb: 'made', account: store.account.name });
          // A card's payments, or the payments of the cards this account pays, now reach these dates (decision 0045).
          write.includeCards(datesFollowing(store, true));
          return replaced;
        },
        // The followers may have written here after the rows were replaced: transfer links, card payments.
        answer: async (store, replaced) =>
          store.unchanged ? replaced : { ledger: store.require(), rows: await store.rows(), written: replaced.written },
      },
    );
  }

  /**
   * Appends every occurrence between the current end (exclusive) and the new one (inclusive),
   * exactly as creation would have generated them; no existing row changes.
   */
  extend(owner: Caller, account: AccountChoice, endDate: IsoDate, expected: string | null = null): Promise<LedgerWithRows & UndoableWrite> {
    return this.writes.runOn(
      owner,
      account,
      { growth: 'extend', undo: 'extendLedger' },
      {
        apply: async (store, write) => {
          const current = store.require();
          store.checkExpectedVersion(expected);
          const refusal = checkExtension(current, endDate);
          if (refusal) throw refusalError(refusal);
          const added = { from: addDays(current.endDate, 1), to: endDate };
          const drafts = projectSchedules(schedulesOf(await write.schedules(), store.account.id), added, await store.skipped());
          await store.insert(drafts);
          await store.setEnd(endDate);
          write.noteActivity({ kind: 'ledger', verb: 'extended', account: store.account.name });
          // Each recurring transfer's new sides here pair (the transfer follower) with its rows of the same
          // occurrences in the other account's ledger, when that ledger covers them.
          write.includeCards(datesFollowing(store, false));
          return drafts.length;
        },
        answer: async (store, written, undo) => ({ ledger: store.require(), rows: await store.rows(), written, undo }),
      },
    );
  }

  addTransaction(
    owner: Caller,
    account: AccountChoice,
    draft: TransactionDraft,
    expected: string | null = null,
    answer: RowWriteAnswer = 'ledger',
  ): Promise<LedgerRowWrite> {
    return this.writes.runOn(
      owner,
      account,
      { growth: 'add', undo: 'addTransaction' },
      {
        apply: async (store, write) => {
          const ledger = store.require();
          store.checkExpectedVersion(expected);
          const outside = checkDateWithinLedger(draft.date, rangeOf(ledger));
          if (outside) throw refusalError(outside);
          write.noteActivity({ kind: 'row', verb: 'added', name: draft.name });
          return { basedOn: ledger.version, changed: await store.insert([draft]), removed: [] };
        },
        answer: (store, applied, undo, write) => rowWriteAnswer(store, write.cardWrites, answer, applied, undo),
      },
    );
  }

  /**
   * A transfer between two of the owner's accounts (decision 0043): a debit in From's ledger and a
   * credit in To's, with the same date, name and amount, each naming the other. One unit of work;
   * its undo takes both back. Answers From's ledger; `expected` is From's version.
   */
  addTransfer(owner: Caller, draft: TransferDraft, expected: string | null = null): Promise<LedgerWithRows & UndoableWrite> {
    return this.writes.run(
      owner,
      { growth: 'add', undo: 'addTransfer' },
      {
        apply: async (write) => {
          const from = await writeTransfer(write, draft, expected);
          const to = write.openedStores().find((store) => store !== from);
          write.noteActivity({
            kind: 'transfer',
            name: draft.name ?? 'a transfer',
            from: from.account.name,
            to: to?.account.name ?? 'another account',
          });
          return from;
        },
        answer: async (_write, from, undo) => ({ ledger: from.require(), rows: await from.rows(), undo }),
      },
    );
  }

  /**
   * Applies an edit (date, name, amount) or a status move to one row, as the domain decides. The
   * request is the whole row as the client holds it, so a stale copy is refused, not applied. An
   * edited generated row stops following its schedule; a transfer's other side follows the edit.
   */
  updateTransaction(
    owner: Caller,
    account: AccountChoice,
    id: string,
    requested: RequestedRow,
    expected: string | null = null,
    answer: RowWriteAnswer = 'ledger',
  ): Promise<LedgerRowWrite> {
    return this.writes.runOn(
      owner,
      account,
      { growth: 'add', undo: 'updateTransaction' },
      {
        apply: async (store, write) => {
          const { ledger, row } = await lockedRow(store, id, expected);
          const decision = decideUpdate(row, requested, rangeOf(ledger));
          if (decision.kind === 'refused') throw refusalError(decision.refusal);
          // An update that changes nothing leaves the version alone: the ledger is as the caller holds it.
          if (decision.kind !== 'change') return { basedOn: ledger.version, changed: [], removed: [] };
          if (!(await store.update(row, decision.changes, decision.edits))) throw new ConflictError(CHANGED_MEANWHILE);
          write.noteActivity({ kind: 'row', verb: rowVerb(row.status, decision.changes.status, decision.edits), name: row.name });
          return { basedOn: ledger.version, changed: [{ id: row.id, date: decision.changes.date }], removed: [] };
        },
        answer: (store, applied, undo, write) => rowWriteAnswer(store, write.cardWrites, answer, applied, undo),
      },
    );
  }

  /** Deleting a generated row skips its occurrence for good: no schedule change or extension brings it back. */
  deleteTransaction(
    owner: Caller,
    account: AccountChoice,
    id: string,
    expected: string | null = null,
    answer: RowWriteAnswer = 'ledger',
  ): Promise<LedgerRowWrite> {
    return this.writes.runOn(
      owner,
      account,
      { growth: 'add', undo: 'deleteTransaction' },
      {
        apply: async (store, write) => {
          const { ledger, row } = await lockedRow(store, id, expected);
          // A row the bank wrote or matched can go whatever its status (issue 37, decision 0084).
          const refusal = checkDeletion(row);
          if (refusal) throw refusalError(refusal);
          // Deleting either side of a transfer deletes both (the transfer follower), each under PRODUCT.md's rule.
          if (!(await store.delete(row))) throw new ConflictError(CHANGED_MEANWHILE);
          write.noteActivity({ kind: 'row', verb: 'deleted', name: row.name });
          // Its key closes in the same write, so the bank never brings it back (decision 0081).
          const closed = closedOnDelete(row);
          if (closed) await store.closeBankKey(closed);
          return { basedOn: ledger.version, changed: [], removed: [row.id] };
        },
        answer: (store, applied, undo, write) => rowWriteAnswer(store, write.cardWrites, answer, applied, undo),
      },
    );
  }
}

/** What a row write did in its own ledger: the version it started from, and the rows it changed or removed. */
interface RowWriteApplied {
  readonly basedOn: number;
  readonly changed: readonly Pick<StoredRow, 'id' | 'date'>[];
  readonly removed: readonly string[];
}

/** A row write's answer, read once the unit's followers ran and its version moved. */
async function rowWriteAnswer(
  store: LedgerStore,
  cards: CardWrites,
  answer: RowWriteAnswer,
  { basedOn, changed, removed }: RowWriteApplied,
  undo: string | undefined,
): Promise<LedgerRowWrite> {
  return { ledger: store.require(), basedOn, ...(await rowWrites(store, cards, answer, changed, removed)), undo };
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
