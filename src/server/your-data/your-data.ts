/**
 * Everything one user owns, in server units (cents, calendar dates), as read for an export and as
 * written by a restore: the same shape both ways, so a restore stores what was read, under new ids.
 */
import type { AccountKind, CardSettings } from '../../domain/accounts.js';
import type { StoredDeposit } from '../deposits/deposit-repository.js';
import type { StoredExpense } from '../expenses/expense-repository.js';
import { compareRows } from '../../domain/balances.js';
import type { LedgerData } from '../ledger/index.js';
import type { WithCreatedAt } from '../schedules/schedule-repository.js';
import { newId } from '../db/ids.js';
import type { Cents } from '../../domain/money.js';
import type { BankLink } from '../bank/bank-connection-store.js';

/** One account and its ledger (decision 0042). */
export interface AccountLedgerData {
  readonly id: string;
  readonly name: string;
  readonly kind: AccountKind;
  readonly primary: boolean;
  readonly card: CardSettings | null;
  readonly createdAt: string;
  readonly ledger: LedgerData | null;
  /** The bridge accounts linked to it (decision 0086); left out or empty when none is. */
  readonly bankLinks?: readonly BankLink[];
}

/** A schedule of the data: always in one of its accounts. */
type InAccount<T> = WithCreatedAt<Omit<T, 'accountId'> & { readonly accountId: string }>;

/** "Keep at least" and everyday spending (issue 36): in the data only when either is set. */
export interface SpendingSettings {
  readonly buffer: Cents;
  readonly everyday: { readonly weekly: Cents; readonly accountId: string } | null;
}

export interface YourData {
  /** Oldest first; exactly one primary. */
  readonly accounts: readonly AccountLedgerData[];
  readonly deposits: readonly InAccount<StoredDeposit>[];
  readonly expenses: readonly InAccount<StoredExpense>[];
  /** Left out: $0.00 kept and everyday spending off. */
  readonly settings?: SpendingSettings;
  /**
   * Read from a version 1 document: its one account stands for the caller's primary account, whose
   * name, kind and creation time a restore keeps (it has none of its own to give).
   */
  readonly version1?: boolean;
}

/**
 * New ids for old ones, in the same code-unit order: lists sort by creation time and then by id,
 * so ties keep their order under new ids, and nothing but the ids differs from the original.
 */
function orderPreservingIds(oldIds: Iterable<string>): Map<string, string> {
  // sort() with no comparator is code-unit order (byCodeUnits), without a call per comparison.
  const sortedOld = [...new Set(oldIds)].sort();
  const fresh = sortedOld.map(() => newId()).sort();
  return new Map(sortedOld.map((id, index) => [id, fresh[index] as string]));
}

/** The id an old id maps to; every id the data holds is in the map by construction. */
function mapped(ids: ReadonlyMap<string, string>, id: string): string {
  const found = ids.get(id);
  if (found === undefined) throw new Error('an id of the restored data was left out of its id map');
  return found;
}

/**
 * The same data under new ids for every account, schedule and row, with every reference (a
 * schedule's account, a card's Pay From, a row's source, a transfer's other side, a skipped occurrence, an imported
 * statement row's ledger row) following its target. Every restore stores its rows this way: ids
 * are primary keys across all users, so keeping a file's ids when free would make the answer (or
 * its timing) tell whether another user holds them.
 */
function withNewIds(data: YourData): YourData {
  const ledgers = data.accounts.flatMap((account) => (account.ledger ? [account.ledger] : []));
  const accounts = orderPreservingIds(data.accounts.map((account) => account.id));
  const schedules = orderPreservingIds([
    ...data.deposits.map((deposit) => deposit.id),
    ...data.expenses.map((expense) => expense.id),
    // Sources of deleted schedules get new ids too: they must not point at the original owner's ids.
    ...ledgers.flatMap((ledger) => ledger.rows.flatMap((row) => (row.source && row.source.kind !== 'card' ? [row.source.id] : []))),
  ]);
  // A card payment's source is its card (decision 0045): it follows the card's new id.
  const sourceIds = (kind: string) => (kind === 'card' ? accounts : schedules);
  const rows = orderPreservingIds(
    ledgers.flatMap((ledger) => [
      ...ledger.rows.map((row) => row.id),
      // A statement row's ledger row may be gone (decision 0021 keeps the record); it gets an id of its own.
      ...ledger.imported.map((row) => row.transactionId),
    ]),
  );
  const ledgerWithNewIds = (ledger: LedgerData): LedgerData => ({
    ...ledger,
    rows: ledger.rows.map((row) => ({
      ...row,
      id: mapped(rows, row.id),
      source: row.source && { ...row.source, id: mapped(sourceIds(row.source.kind), row.source.id) },
      transfer: row.transfer && { id: mapped(rows, row.transfer.id), accountId: mapped(accounts, row.transfer.accountId) },
    })),
    skipped: ledger.skipped.map((occurrence) => ({ ...occurrence, id: mapped(sourceIds(occurrence.kind), occurrence.id) })),
    imported: ledger.imported.map((row) => ({ ...row, transactionId: mapped(rows, row.transactionId) })),
  });
  return {
    ...data,
    accounts: data.accounts.map((account) => ({
      ...account,
      id: mapped(accounts, account.id),
      card: account.card && { ...account.card, payFromAccountId: mapped(accounts, account.card.payFromAccountId) },
      ledger: account.ledger && ledgerWithNewIds(account.ledger),
    })),
    deposits: data.deposits.map((deposit) => ({
      ...deposit,
      id: mapped(schedules, deposit.id),
      accountId: mapped(accounts, deposit.accountId),
    })),
    expenses: data.expenses.map((expense) => ({
      ...expense,
      id: mapped(schedules, expense.id),
      accountId: mapped(accounts, expense.accountId),
      toAccountId: expense.toAccountId === null ? null : mapped(accounts, expense.toAccountId),
    })),
    ...(data.settings && {
      settings: {
        ...data.settings,
        everyday: data.settings.everyday && { ...data.settings.everyday, accountId: mapped(accounts, data.settings.everyday.accountId) },
      },
    }),
  };
}

/**
 * The largest next creation-order number a restored ledger keeps as its file says: every add takes
 * the next one, and from here more than a billion fit before PostgreSQL's integer column
 * (2,147,483,647) runs out. What this server writes stays far below it, so its own files keep their
 * numbers and a round trip answers byte for byte as before, ids aside.
 */
export const MAX_KEPT_NEXT_SEQUENCE = 1_000_000_000;

/**
 * A ledger with creation-order numbers the database can go on counting from. Past
 * MAX_KEPT_NEXT_SEQUENCE the rows are numbered 1 to N in the order of their file numbers, and the
 * next is N + 1: sequence only breaks ties of row order, so the order and every balance stay as
 * they were. The schema has made the file's numbers whole, distinct and below its next one.
 */
function countableLedger(ledger: LedgerData): LedgerData {
  if (ledger.nextSequence <= MAX_KEPT_NEXT_SEQUENCE) return ledger;
  const rows = [...ledger.rows]
    .sort((a, b) => a.sequence - b.sequence)
    .map((row, index) => ({ ...row, sequence: index + 1 }))
    .sort(compareRows);
  return { ...ledger, nextSequence: rows.length + 1, rows };
}

/** Every ledger of the data with creation-order numbers the database can go on counting from. */
function withCountableSequences(data: YourData): YourData {
  return { ...data, accounts: data.accounts.map((account) => ({ ...account, ledger: account.ledger && countableLedger(account.ledger) })) };
}

/** Data ready to store: every id new, every ledger's numbers countable (what a restore stores). */
export type StorableData = YourData & { readonly storable: true };

/**
 * The data as a restore stores it. Run in the file worker that checked the document, so the main
 * thread never spends the time on 20,000 rows (issue 34); the mark survives the copy between threads.
 */
export function storableData(data: YourData): StorableData {
  return { ...withNewIds(withCountableSequences(data)), storable: true };
}

/** How many ledger rows the data holds, every account's together. */
export function rowCount(data: YourData): number {
  return data.accounts.reduce((total, account) => total + (account.ledger?.rows.length ?? 0), 0);
}

/** A ledger's lists, as JSON text of at most PACKED_ITEMS items each. */
interface PackedLedger {
  readonly rows: readonly string[];
  readonly skipped: readonly string[];
  readonly imported: readonly string[];
  readonly closedBankKeys: readonly string[];
}

/**
 * Storable data as it crosses from the file worker to the server's thread: JSON text, not objects.
 * A thread's answer is copied as one structured clone, and 20,000 rows of one held the receiving
 * thread for 100-500 ms (issue 34); text is copied at once, then read a few hundred rows per turn of
 * the event loop (unpackStorableData). `shell` is the data with every ledger's lists empty; `ledgers`
 * holds them, one per account with a ledger, in order.
 */
export interface PackedStorableData {
  readonly shell: string;
  readonly ledgers: readonly PackedLedger[];
}

/** Items per piece of text: a piece is read in well under a millisecond or two. */
const PACKED_ITEMS = 500;

function packList(items: readonly unknown[]): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < items.length; start += PACKED_ITEMS) pieces.push(JSON.stringify(items.slice(start, start + PACKED_ITEMS)));
  return pieces;
}

/** The data as text, in the thread that made it (see PackedStorableData). Every value of it is JSON's own: strings, numbers, booleans, null. */
export function packStorableData(data: StorableData): PackedStorableData {
  const ledgers: PackedLedger[] = [];
  const shell: StorableData = {
    ...data,
    accounts: data.accounts.map((account) => {
      if (!account.ledger) return account;
      const { rows, skipped, imported, closedBankKeys } = account.ledger;
      ledgers.push({
        rows: packList(rows),
        skipped: packList(skipped),
        imported: packList(imported),
        closedBankKeys: packList(closedBankKeys),
      });
      return { ...account, ledger: { ...account.ledger, rows: [], skipped: [], imported: [], closedBankKeys: [] } };
    }),
  };
  return { shell: JSON.stringify(shell), ledgers };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function unpackList<T>(pieces: readonly string[]): Promise<T[]> {
  const items: T[] = [];
  for (const piece of pieces) {
    for (const item of JSON.parse(piece) as T[]) items.push(item);
    await nextTurn();
  }
  return items;
}

/** The data packStorableData packed, read back a piece per turn of the event loop. */
export async function unpackStorableData(packed: PackedStorableData): Promise<StorableData> {
  const shell = JSON.parse(packed.shell) as StorableData;
  let next = 0;
  const accounts: AccountLedgerData[] = [];
  for (const account of shell.accounts) {
    const lists = account.ledger ? packed.ledgers[next] : undefined;
    if (!account.ledger) {
      accounts.push(account);
      continue;
    }
    if (!lists) throw new Error('a packed ledger is missing its lists');
    next += 1;
    const ledger: LedgerData = {
      ...account.ledger,
      rows: await unpackList<LedgerData['rows'][number]>(lists.rows),
      skipped: await unpackList<LedgerData['skipped'][number]>(lists.skipped),
      imported: await unpackList<LedgerData['imported'][number]>(lists.imported),
      closedBankKeys: await unpackList<LedgerData['closedBankKeys'][number]>(lists.closedBankKeys),
    };
    accounts.push({ ...account, ledger });
  }
  return { ...shell, accounts };
}
