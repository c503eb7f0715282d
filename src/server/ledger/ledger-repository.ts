/**
 * Ledger storage: the owner's one ledger row, its transaction rows, and the deposits and expenses a
 * new ledger is generated from. A repository is built for one owner and one database transaction,
 * so every query it runs is scoped by the owner's issuer and subject and takes part in the caller's
 * transaction. Rows come back as domain values (IsoDate, Cents, statuses); no rule lives here.
 */
import { CompiledQuery, type Insertable, type RawBuilder, sql } from 'kysely';
import { isoDate, type IsoDate } from '../../domain/calendar-date.js';
import {
  type LedgerRow,
  type NamedDeposit,
  type NamedExpense,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type TransactionDraft,
} from '../../domain/ledger.js';
import { type Cents, cents } from '../../domain/money.js';
import { FREQUENCIES } from '../../domain/schedules.js';
import type { Caller } from '../auth/access-token.js';
import { newId } from '../db/ids.js';
import type { Database, OpenDatabase } from '../db/database.js';
import type { LedgerTransactionsTable } from '../db/schema.js';

/**
 * Rows per INSERT when a ledger is filled: a power of two from 512 down to 1, largest first, so a
 * 5-year ledger (~1,800 rows) takes about seven statements. 512 rows of 11 values is 5,632
 * parameters, far below SQLite's 32,766 and PostgreSQL's 65,535.
 */
const LARGEST_INSERT_BATCH = 512;

export interface StoredLedger {
  readonly id: string;
  readonly startDate: IsoDate;
  readonly endDate: IsoDate;
  readonly openingBalance: Cents;
}

export interface StoredRow extends LedgerRow {
  /** Raised on every change; a write names the version it read so a lost update cannot go unnoticed. */
  readonly version: number;
}

export interface NewLedgerFields {
  readonly startDate: IsoDate;
  readonly endDate: IsoDate;
  readonly openingBalance: Cents;
  /** The creation-order number the next added row will take. */
  readonly nextSequence: number;
}

export type RowChanges = Pick<LedgerRow, 'date' | 'name' | 'amount' | 'status'>;

/** Stored text back to a closed set of values; anything else is a corrupt row, not user input. */
function oneOf<T extends string>(values: readonly T[], value: string, column: string): T {
  const found = values.find((candidate) => candidate === value);
  if (found === undefined) throw new Error(`unexpected ${column} value in the database: ${value}`);
  return found;
}

interface LedgerRecord {
  id: string;
  start_date: string;
  end_date: string;
  opening_balance_cents: number;
}

function toLedger(record: LedgerRecord): StoredLedger {
  return {
    id: record.id,
    startDate: isoDate(record.start_date),
    endDate: isoDate(record.end_date),
    openingBalance: cents(record.opening_balance_cents),
  };
}

const LEDGER_COLUMNS = ['id', 'start_date', 'end_date', 'opening_balance_cents'] as const;
const INSERT_COLUMNS = [
  'id',
  'ledger_id',
  'owner_iss',
  'owner_sub',
  'sequence',
  'date',
  'name',
  'type',
  'amount_cents',
  'status',
  'version',
] as const satisfies readonly (keyof LedgerTransactionsTable)[];

const ROW_COLUMNS = ['id', 'sequence', 'date', 'name', 'type', 'amount_cents', 'status', 'version'] as const;

/** INSERT texts by dialect and row count; at most two dialects times ten batch sizes. */
const compiledInserts = new Map<string, string>();

/** The largest power of two, up to LARGEST_INSERT_BATCH, that fits in the rows left. */
function insertBatchSize(rowsLeft: number): number {
  let size = LARGEST_INSERT_BATCH;
  while (size > rowsLeft) size /= 2;
  return size;
}

export class LedgerRepository {
  constructor(
    private readonly db: Database,
    private readonly owner: Caller,
    private readonly kind: OpenDatabase['kind'],
  ) {}

  /**
   * The owner's ledger, locked until the transaction ends: every write takes this lock first, so
   * one user's writes run one after another on PostgreSQL. SQLite has no row locks (nor FOR UPDATE
   * syntax); there Kysely runs every transaction on its single connection, one at a time.
   */
  async lockLedger(): Promise<StoredLedger | undefined> {
    const query = this.ledgerQuery();
    const record = await (this.kind === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
    return record && toLedger(record);
  }

  /**
   * Makes the owner's one ledger carry these fields. An upsert rather than delete + insert: the
   * ledger row survives a replacement, so a write queued on its lock sees the new ledger instead of
   * a vanished one, and two first-time creates meet on the unique owner key (the second waits and
   * updates) instead of one failing on it. The caller then replaces the rows.
   */
  async saveLedger(fields: NewLedgerFields, now: Date): Promise<StoredLedger> {
    const values = {
      start_date: fields.startDate,
      end_date: fields.endDate,
      opening_balance_cents: fields.openingBalance,
      next_sequence: fields.nextSequence,
      created_at: now.toISOString(),
    };
    const record = await this.db
      .insertInto('ledgers')
      .values({ id: newId(), owner_iss: this.owner.issuer, owner_sub: this.owner.subject, ...values })
      .onConflict((conflict) => conflict.columns(['owner_iss', 'owner_sub']).doUpdateSet(values))
      .returning(LEDGER_COLUMNS)
      .executeTakeFirstOrThrow();
    return toLedger(record);
  }

  /** Takes the next creation-order number atomically (the unique sequence key backs this up). */
  async takeSequence(ledgerId: string): Promise<number> {
    const record = await this.db
      .updateTable('ledgers')
      .set((eb) => ({ next_sequence: eb('next_sequence', '+', 1) }))
      .where('id', '=', ledgerId)
      .where('owner_iss', '=', this.owner.issuer)
      .where('owner_sub', '=', this.owner.subject)
      .returning('next_sequence')
      .executeTakeFirstOrThrow();
    return record.next_sequence - 1;
  }

  async deleteAllRows(ledgerId: string): Promise<void> {
    await this.rowScope(this.db.deleteFrom('ledger_transactions'), ledgerId).execute();
  }

  /**
   * Stores new rows and answers them as stored. New rows always start PENDING (nothing is paid
   * before the user says so) at version 1.
   */
  async insertRows(ledgerId: string, rows: readonly (TransactionDraft & { readonly sequence: number })[]): Promise<StoredRow[]> {
    const stored = rows.map((row): StoredRow => ({
      id: newId(),
      sequence: row.sequence,
      date: row.date,
      name: row.name,
      type: row.type,
      amount: row.amount,
      status: 'PENDING',
      version: 1,
    }));
    let start = 0;
    while (start < stored.length) {
      const size = insertBatchSize(stored.length - start);
      await this.db.executeQuery(this.insertStatement(ledgerId, stored, start, size));
      start += size;
    }
    return stored;
  }

  /**
   * The INSERT for `size` rows from `start`. Kysely spends about as long building and compiling a
   * 512-row insert as SQLite spends storing it, and the statement text depends only on the dialect
   * and the row count, so the text is compiled once per (dialect, batch size) and after that only
   * the values are laid out, straight into one array in INSERT_COLUMNS order.
   */
  private insertStatement(ledgerId: string, rows: readonly StoredRow[], start: number, size: number): CompiledQuery {
    const parameters: unknown[] = [];
    for (let index = start; index < start + size; index += 1) {
      const row = rows[index] as StoredRow;
      parameters.push(
        row.id,
        ledgerId,
        this.owner.issuer,
        this.owner.subject,
        row.sequence,
        row.date,
        row.name,
        row.type,
        row.amount,
        row.status,
        row.version,
      );
    }
    const key = `${this.kind}:${size}`;
    const cached = compiledInserts.get(key);
    if (cached) return CompiledQuery.raw(cached, parameters);
    const values = Array.from({ length: size }, (_, offset): Insertable<LedgerTransactionsTable> => {
      const row = parameters.slice(offset * INSERT_COLUMNS.length, (offset + 1) * INSERT_COLUMNS.length);
      return Object.fromEntries(INSERT_COLUMNS.map((column, position) => [column, row[position]])) as Insertable<LedgerTransactionsTable>;
    });
    const compiled = this.db.insertInto('ledger_transactions').values(values).compile();
    // The cached text is only reusable if Kysely laid the values out row by row in column order.
    const sameLayout =
      compiled.parameters.length === parameters.length && compiled.parameters.every((parameter, index) => parameter === parameters[index]);
    if (!sameLayout) return compiled;
    compiledInserts.set(key, compiled.sql);
    return compiled;
  }

  /**
   * The owner's ledger with all its rows, or undefined when they have none, in one statement: a
   * statement reads one snapshot on both databases, so a replacement committed meanwhile can never
   * pair an old opening balance with new rows, and no transaction is needed to make sure of it.
   */
  async findLedgerWithRows(): Promise<{ ledger: StoredLedger; rows: StoredRow[] } | undefined> {
    const record = await this.ledgerQuery()
      .select((eb) =>
        this.rowScope(eb.selectFrom('ledger_transactions').select(this.rowsAggregate().as('rows')), sql.ref<string>('ledgers.id')).as(
          'rows',
        ),
      )
      .executeTakeFirst();
    return record && { ledger: toLedger(record), rows: toRows(record.rows) };
  }

  /** Every row of the ledger, in creation order (nearly row order, so sorting them is cheap). */
  async listRows(ledgerId: string): Promise<StoredRow[]> {
    const record = await this.rowScope(
      this.db.selectFrom('ledger_transactions').select(this.rowsAggregate().as('rows')),
      ledgerId,
    ).executeTakeFirst();
    return toRows(record?.rows);
  }

  /**
   * The rows as one JSON array of [id, sequence, date, name, type, amount_cents, status, version]
   * arrays built by the database, not one result row each: both drivers build a JavaScript object
   * value by value for every result row, which for a 1,000-row ledger costs several times what one
   * JSON.parse of the same data does.
   */
  private rowsAggregate() {
    const columns = sql.join(ROW_COLUMNS.map((column) => sql.ref(`ledger_transactions.${column}`)));
    return this.kind === 'postgres'
      ? sql<unknown>`coalesce(json_agg(json_build_array(${columns}) order by ${sql.ref('ledger_transactions.sequence')}), '[]'::json)`
      : sql<unknown>`json_group_array(json_array(${columns}))`;
  }

  /** The row with this id in the owner's ledger; another user's id finds nothing, like a missing one. */
  async findRow(ledgerId: string, id: string): Promise<StoredRow | undefined> {
    const record = await this.rowScope(this.db.selectFrom('ledger_transactions').select(ROW_COLUMNS), ledgerId)
      .where('id', '=', id)
      .executeTakeFirst();
    return record && toRow(record);
  }

  /** False when the row changed since it was read (its version moved on); nothing is written then. */
  async updateRow(ledgerId: string, row: StoredRow, changes: RowChanges): Promise<boolean> {
    const result = await this.rowScope(this.db.updateTable('ledger_transactions'), ledgerId)
      .set({
        date: changes.date,
        name: changes.name,
        amount_cents: changes.amount,
        status: changes.status,
        version: row.version + 1,
      })
      .where('id', '=', row.id)
      .where('version', '=', row.version)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async deleteRow(ledgerId: string, row: StoredRow): Promise<boolean> {
    const result = await this.rowScope(this.db.deleteFrom('ledger_transactions'), ledgerId)
      .where('id', '=', row.id)
      .where('version', '=', row.version)
      .executeTakeFirst();
    return result.numDeletedRows === 1n;
  }

  /**
   * The owner's deposits and expenses as schedules. Read in the order they were added, so rows
   * that tie on date, type and name get their creation order from it, the same on every create.
   */
  async schedules(): Promise<{ deposits: NamedDeposit[]; expenses: NamedExpense[] }> {
    const deposits = await this.db
      .selectFrom('deposits')
      .select(['name', 'amount_cents', 'start_date', 'frequency'])
      .where('owner_iss', '=', this.owner.issuer)
      .where('owner_sub', '=', this.owner.subject)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const expenses = await this.db
      .selectFrom('expenses')
      .select(['name', 'amount_cents', 'day', 'end_date'])
      .where('owner_iss', '=', this.owner.issuer)
      .where('owner_sub', '=', this.owner.subject)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return {
      deposits: deposits.map((record) => ({
        name: record.name,
        amount: cents(record.amount_cents),
        startDate: isoDate(record.start_date),
        frequency: oneOf(FREQUENCIES, record.frequency, 'deposits.frequency'),
      })),
      expenses: expenses.map((record) => ({
        name: record.name,
        amount: cents(record.amount_cents),
        day: record.day,
        endDate: record.end_date === null ? null : isoDate(record.end_date),
      })),
    };
  }

  private ledgerQuery() {
    return this.db
      .selectFrom('ledgers')
      .select(LEDGER_COLUMNS)
      .where('owner_iss', '=', this.owner.issuer)
      .where('owner_sub', '=', this.owner.subject);
  }

  /** Narrows any query on ledger_transactions to the owner's rows of one ledger. */
  private rowScope<Query extends RowScopable<Query>>(query: Query, ledgerId: string | RawBuilder<string>): Query {
    return query.where('ledger_id', '=', ledgerId).where('owner_iss', '=', this.owner.issuer).where('owner_sub', '=', this.owner.subject);
  }
}

/** The one `where` overload rowScope uses, shared by select, update and delete builders. */
interface RowScopable<Query> {
  where(column: 'ledger_id' | 'owner_iss' | 'owner_sub', operator: '=', value: string | RawBuilder<string>): Query;
}

interface RowRecord {
  id: string;
  sequence: number;
  date: string;
  name: string;
  type: string;
  amount_cents: number;
  status: string;
  version: number;
}

function toRow(record: RowRecord): StoredRow {
  return {
    id: record.id,
    sequence: record.sequence,
    date: isoDate(record.date),
    name: record.name,
    type: oneOf(TRANSACTION_TYPES, record.type, 'ledger_transactions.type'),
    amount: cents(record.amount_cents),
    status: oneOf(TRANSACTION_STATUSES, record.status, 'ledger_transactions.status'),
    version: record.version,
  };
}

/** The rows JSON as the database answers it: text from SQLite, already parsed by PostgreSQL's driver. */
function toRows(json: unknown): StoredRow[] {
  const tuples: unknown = typeof json === 'string' ? JSON.parse(json) : (json ?? []);
  if (!Array.isArray(tuples)) throw new Error('unexpected ledger rows from the database: not an array');
  return tuples.map(toRowFromTuple);
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

/** One [id, sequence, date, name, type, amount_cents, status, version] tuple, in ROW_COLUMNS order. */
function toRowFromTuple(tuple: unknown): StoredRow {
  if (!Array.isArray(tuple) || tuple.length !== ROW_COLUMNS.length) throw new Error('unexpected ledger row shape from the database');
  return {
    id: columnValue(tuple, 0, isString),
    sequence: columnValue(tuple, 1, isNumber),
    date: checkedDate(columnValue(tuple, 2, isString)),
    name: columnValue(tuple, 3, isString),
    type: oneOf(TRANSACTION_TYPES, columnValue(tuple, 4, isString), 'ledger_transactions.type'),
    amount: cents(columnValue(tuple, 5, isNumber)),
    status: oneOf(TRANSACTION_STATUSES, columnValue(tuple, 6, isString), 'ledger_transactions.status'),
    version: columnValue(tuple, 7, isNumber),
  };
}
