/**
 * Reading a ledger's rows. The rows come as one JSON array of tuples built by the database, and
 * are decoded here with every value checked: a row that is not what we stored is a server fault.
 */
import { sql } from 'kysely';
import { isoDate, type IsoDate } from '../../domain/calendar-date.js';
import {
  BANK_STATES,
  type RowSource,
  SOURCE_KINDS,
  type TransferLink,
  type SourceRef,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
} from '../../domain/ledger.js';
import type { BankMark } from '../../domain/bank-sync/bank-rows.js';
import { cents } from '../../domain/money.js';
import type { OpenDatabase } from '../db/database.js';
import { storedValue } from '../db/stored-value.js';
import { ledgerQuery, type LedgerScope, type StoredLedger, toLedger } from './ledger-record.js';
import { ROW_COLUMNS, rowsOf, type StoredRow } from './transaction-rows.js';

/** A ledger with every one of its rows, as stored; balances are derived from it for each answer. */
export interface LedgerWithRows {
  readonly ledger: StoredLedger;
  readonly rows: readonly StoredRow[];
  /** How many rows the write inserted: what the request budget charges for (decision 0007). */
  readonly written?: number;
}

/**
 * The ledger of the owner's account with all its rows, or undefined when it has none, in one
 * statement: a statement reads one snapshot on both databases, so a replacement committed meanwhile
 * can never pair an old opening balance with new rows, and no transaction is needed to make sure of it.
 */
export async function findLedgerWithRows(scope: LedgerScope, accountId: string): Promise<LedgerWithRows | undefined> {
  const record = await ledgerQuery(scope, accountId)
    .select((eb) =>
      eb
        .selectFrom('ledger_transactions')
        .select(rowsAggregate(scope.kind).as('rows'))
        .where(rowsOf(scope.owner, sql.ref<string>('ledgers.id')))
        .as('rows'),
    )
    .executeTakeFirst();
  return record && { ledger: toLedger(record), rows: ledgerRows(record.id, record.rows) };
}

/**
 * The ledger of the owner's account with all its rows, found from the account in the same
 * statement: the primary account when `accountId` is null. Undefined when there is no such
 * account; `ledger` undefined while the account has none. One statement, so one snapshot, and one
 * round trip where finding the account first took two (benchmark 1).
 */
export async function findAccountLedgerWithRows(
  scope: LedgerScope,
  accountId: string | null,
): Promise<{ readonly ledger: LedgerWithRows | undefined } | undefined> {
  const { db, owner, kind } = scope;
  const record = await db
    .selectFrom('accounts')
    .leftJoin('ledgers', (join) =>
      join
        .onRef('ledgers.account_id', '=', 'accounts.id')
        .on('ledgers.owner_iss', '=', owner.issuer)
        .on('ledgers.owner_sub', '=', owner.subject),
    )
    .select(['ledgers.id', 'ledgers.start_date', 'ledgers.end_date', 'ledgers.opening_balance_cents', 'ledgers.version'])
    .select((eb) =>
      eb
        .selectFrom('ledger_transactions')
        .select(rowsAggregate(kind).as('rows'))
        .where(rowsOf(owner, sql.ref<string>('ledgers.id')))
        .as('rows'),
    )
    .where('accounts.owner_iss', '=', owner.issuer)
    .where('accounts.owner_sub', '=', owner.subject)
    .where(accountId === null ? sql<boolean>`accounts.is_primary = 1` : sql<boolean>`accounts.id = ${accountId}`)
    .executeTakeFirst();
  if (!record) return undefined;
  const { id, start_date, end_date, opening_balance_cents, version } = record;
  if (id === null || start_date === null || end_date === null || opening_balance_cents === null || version === null)
    return { ledger: undefined };
  return { ledger: { ledger: toLedger({ id, start_date, end_date, opening_balance_cents, version }), rows: ledgerRows(id, record.rows) } };
}

/** Every row of the ledger, in creation order (nearly row order, so sorting them is cheap). */
export async function listRows({ db, owner, kind }: LedgerScope, ledgerId: string): Promise<StoredRow[]> {
  const record = await db
    .selectFrom('ledger_transactions')
    .select(rowsAggregate(kind).as('rows'))
    .where(rowsOf(owner, ledgerId))
    .executeTakeFirst();
  // Not through ledgerRows: a write reads its ledger's rows here once they changed, and keeping what
  // only that one answer needs would make every write's rows outlive the request (decision 0056).
  return toRows(record?.rows);
}

/** The ledger's rows whose creation-order numbers lie in [from, to): one statement, for reading a big ledger in parts. */
export async function listRowsBetween({ db, owner, kind }: LedgerScope, ledgerId: string, from: number, to: number): Promise<StoredRow[]> {
  const record = await db
    .selectFrom('ledger_transactions')
    .select(rowsAggregate(kind).as('rows'))
    .where(rowsOf(owner, ledgerId))
    .where('sequence', '>=', from)
    .where('sequence', '<', to)
    .executeTakeFirst();
  return toRows(record?.rows);
}

/** The rows generated from one schedule (or a card's statements), in creation order: what a change of it may replace. */
export async function listScheduleRows({ db, owner, kind }: LedgerScope, ledgerId: string, schedule: SourceRef): Promise<StoredRow[]> {
  const record = await db
    .selectFrom('ledger_transactions')
    .select(rowsAggregate(kind).as('rows'))
    .where(rowsOf(owner, ledgerId))
    .where('source_kind', '=', schedule.kind)
    .where('source_id', '=', schedule.id)
    .executeTakeFirst();
  return toRows(record?.rows);
}

/**
 * The rows of the blocks that hold the rows with these ids, by block (issue 34): with the blocks'
 * counts and sums (row-blocks.ts), what places written rows without reading the whole ledger. One
 * statement, found by the (ledger, block) index: at most a few hundred rows a block, whatever the
 * ledger's shape.
 */
export async function listBlocksHolding(
  { db, owner, kind }: LedgerScope,
  ledgerId: string,
  ids: readonly string[],
): Promise<Map<number, StoredRow[]>> {
  const holding = db.selectFrom('ledger_transactions').select('block').where(rowsOf(owner, ledgerId)).where('id', 'in', ids);
  const record = await db
    .selectFrom('ledger_transactions')
    .select(rowsAggregate(kind, [...ROW_COLUMNS, 'block']).as('rows'))
    .where(rowsOf(owner, ledgerId))
    .where('block', 'in', holding)
    .executeTakeFirst();
  const blocks = new Map<number, StoredRow[]>();
  for (const tuple of parseTuples(record?.rows)) {
    const block = Array.isArray(tuple) ? (tuple[ROW_COLUMNS.length] as unknown) : undefined;
    if (typeof block !== 'number') throw new Error('unexpected ledger_transactions.block value in the database');
    const rows = blocks.get(block) ?? [];
    rows.push(toRowFromTuple((tuple as unknown[]).slice(0, ROW_COLUMNS.length)));
    blocks.set(block, rows);
  }
  return blocks;
}

/** The row with this id in the owner's ledger; another user's id finds nothing, like a missing one. */
export async function findRow({ db, owner }: LedgerScope, ledgerId: string, id: string): Promise<StoredRow | undefined> {
  const record = await db
    .selectFrom('ledger_transactions')
    .select(ROW_COLUMNS)
    .where(rowsOf(owner, ledgerId))
    .where('id', '=', id)
    .executeTakeFirst();
  return record && toRowFromTuple(ROW_COLUMNS.map((column) => record[column]));
}

/**
 * The rows as one JSON array of tuples in ROW_COLUMNS order, built by the database, not one result row each: both drivers build a JavaScript object
 * value by value for every result row, which for a 1,000-row ledger costs several times what one
 * JSON.parse of the same data does.
 */
function rowsAggregate(kind: OpenDatabase['kind'], selected: readonly string[] = ROW_COLUMNS) {
  const columns = sql.join(selected.map((column) => sql.ref(`ledger_transactions.${column}`)));
  return kind === 'postgres'
    ? // As text, as SQLite answers it: one decoding, which a read of the same rows again skips (ledgerRows).
      sql<unknown>`coalesce(json_agg(json_build_array(${columns}) order by ${sql.ref('ledger_transactions.sequence')})::text, '[]')`
    : sql<unknown>`json_group_array(json_array(${columns}))`;
}

/**
 * Every row of one ledger, decoded from the rows JSON, or the rows decoded from exactly this text
 * before (decision 0056). A ledger is often read again before it changes (each view, the forecast,
 * Home, every device), and decoding its rows is most of what a read costs apart from serializing
 * the answer (benchmark 1). The text is compared whole, so a ledger that changed in any way, by any
 * path, is decoded again: nothing relies on a version having been raised.
 *
 * Only reads outside a write come here, and rows are kept only once the same text is read a second
 * time: keeping every write's rows (or every first read's) made them outlive V8's young generation,
 * and a server under a mix of writes and reads settled 60 to 80 MB higher (benchmark 6). Kept rows
 * are frozen, because every answer built from them shares them; each caller gets its own array.
 */
function ledgerRows(ledgerId: string, json: unknown): StoredRow[] {
  if (typeof json !== 'string') return toRows(json);
  const known = decodedLedgers.get(ledgerId);
  if (known === undefined || known.text !== json) {
    rememberRead(ledgerId, { text: json, rows: null });
    return toRows(json);
  }
  if (known.rows === null) {
    const rows = toRows(json).map(frozenRow);
    rememberRead(ledgerId, { text: json, rows });
    return rows.slice();
  }
  // The Map's order is the order of eviction: the ledger read now goes last.
  decodedLedgers.delete(ledgerId);
  decodedLedgers.set(ledgerId, known);
  return known.rows.slice();
}

interface LedgerRead {
  readonly text: string;
  /** Null until the same text is read again. */
  readonly rows: readonly StoredRow[] | null;
}

/**
 * The last rows text read per ledger (with its rows, once read twice), least recently read first.
 * Bounded by the text: 8,000,000 characters is about 45,000 rows (a few MB of text and about twice
 * that of rows), so heavy users evict each other's ledgers and memory stays flat (benchmarks 3b, 6).
 */
const decodedLedgers = new Map<string, LedgerRead>();
const MAX_DECODED_CHARS = 8_000_000;
let decodedChars = 0;

function rememberRead(ledgerId: string, read: LedgerRead): void {
  const previous = decodedLedgers.get(ledgerId);
  if (previous !== undefined) {
    decodedLedgers.delete(ledgerId);
    decodedChars -= previous.text.length;
  }
  if (read.text.length > MAX_DECODED_CHARS) return;
  for (const [oldestId, oldest] of decodedLedgers) {
    if (decodedChars + read.text.length <= MAX_DECODED_CHARS) break;
    decodedLedgers.delete(oldestId);
    decodedChars -= oldest.text.length;
  }
  decodedLedgers.set(ledgerId, read);
  decodedChars += read.text.length;
}

function frozenRow(row: StoredRow): StoredRow {
  if (row.source !== null) Object.freeze(row.source);
  if (row.transfer !== null) Object.freeze(row.transfer);
  if (row.bank) Object.freeze(Object.freeze(row.bank).key);
  return Object.freeze(row);
}

/** The rows JSON as the database answers it: text (both databases answer the aggregate as text). */
function toRows(json: unknown): StoredRow[] {
  return parseTuples(json).map(toRowFromTuple);
}

function parseTuples(json: unknown): unknown[] {
  const tuples: unknown = typeof json === 'string' ? JSON.parse(json) : (json ?? []);
  if (!Array.isArray(tuples)) throw new Error('unexpected ledger rows from the database: not an array');
  return tuples;
}

/**
 * Dates already found to be real calendar dates. A ledger of thousands of rows has a few hundred
 * distinct dates, all users' ledgers together a few thousand, and the full calendar check of every
 * row's date is a measurable share of answering a ledger. Bounded all the same: past the limit it
 * starts over, which costs a few checks again, never a wrong answer.
 */
const knownDates = new Set<string>();
const MAX_KNOWN_DATES = 20_000;

function checkedDate(text: string): IsoDate {
  if (knownDates.has(text)) return text as IsoDate;
  const date = isoDate(text);
  if (knownDates.size >= MAX_KNOWN_DATES) knownDates.clear();
  knownDates.add(text);
  return date;
}

function columnValue<T>(tuple: readonly unknown[], index: number, guard: (value: unknown) => value is T): T {
  const value = tuple[index];
  if (!guard(value)) throw new Error(`unexpected ledger_transactions.${ROW_COLUMNS[index]} value in the database: ${String(value)}`);
  return value;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number';
const isNull = (value: unknown): value is null => value === null;

/** The source columns of a row: all null for a row added by hand, all set for a generated one. */
function sourceOf(tuple: readonly unknown[]): RowSource | null {
  if (isNull(tuple[8]) && isNull(tuple[9]) && isNull(tuple[10])) return null;
  return {
    kind: storedValue(SOURCE_KINDS, columnValue(tuple, 8, isString), 'ledger_transactions.source_kind'),
    id: columnValue(tuple, 9, isString),
    occurrence: checkedDate(columnValue(tuple, 10, isString)),
    // SQLite and PostgreSQL both answer the integer column as a JSON number.
    edited: columnValue(tuple, 11, isNumber) !== 0,
  };
}

/** The transfer columns of a row: both null for a row that is no side of a transfer. */
function transferOf(tuple: readonly unknown[]): TransferLink | null {
  if (isNull(tuple[12]) && isNull(tuple[13])) return null;
  return { id: columnValue(tuple, 12, isString), accountId: columnValue(tuple, 13, isString) };
}

/** One tuple in ROW_COLUMNS order. */
function toRowFromTuple(tuple: unknown): StoredRow {
  if (!Array.isArray(tuple) || tuple.length !== ROW_COLUMNS.length) throw new Error('unexpected ledger row shape from the database');
  return {
    id: columnValue(tuple, 0, isString),
    sequence: columnValue(tuple, 1, isNumber),
    date: checkedDate(columnValue(tuple, 2, isString)),
    name: columnValue(tuple, 3, isString),
    type: storedValue(TRANSACTION_TYPES, columnValue(tuple, 4, isString), 'ledger_transactions.type'),
    amount: cents(columnValue(tuple, 5, isNumber)),
    status: storedValue(TRANSACTION_STATUSES, columnValue(tuple, 6, isString), 'ledger_transactions.status'),
    version: columnValue(tuple, 7, isNumber),
    source: sourceOf(tuple),
    transfer: transferOf(tuple),
    bank: bankOf(tuple),
  };
}

/** The bank's mark of a row (decision 0081): all four columns null for a row the bank never touched. */
function bankOf(tuple: readonly unknown[]): BankMark | null {
  if (isNull(tuple[14]) && isNull(tuple[15]) && isNull(tuple[16])) return null;
  return {
    key: { account: columnValue(tuple, 14, isString), transaction: columnValue(tuple, 15, isString) },
    state: storedValue(BANK_STATES, columnValue(tuple, 16, isString), 'ledger_transactions.bank_state'),
    missingSince: isNull(tuple[17]) ? null : checkedDate(columnValue(tuple, 17, isString)),
  };
}
