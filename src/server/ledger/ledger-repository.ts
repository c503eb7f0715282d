/**
 * Ledger storage: the owner's one ledger row, its transaction rows, and the deposits and expenses a
 * new ledger is generated from. A repository is built for one owner and one database transaction,
 * so every query it runs is scoped by the owner's issuer and subject and takes part in the caller's
 * transaction. Rows come back as domain values (IsoDate, Cents, statuses); no rule lives here.
 */
import crypto from 'node:crypto';
import { isoDate, type IsoDate } from '../../domain/calendar-date.js';
import {
  type LedgerRow,
  type NamedDeposit,
  type NamedExpense,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type TransactionDraft,
  type TransactionStatus,
} from '../../domain/ledger.js';
import { type Cents, cents } from '../../domain/money.js';
import { FREQUENCIES } from '../../domain/schedules.js';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';

/**
 * Rows per INSERT when a ledger is filled: 10 parameters per row, so 2,000 per statement, far below
 * SQLite's 32,766 and PostgreSQL's 65,535; a 5-year ledger (~1,800 rows) takes about ten statements.
 */
const INSERT_BATCH_ROWS = 200;

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
const ROW_COLUMNS = ['id', 'sequence', 'date', 'name', 'type', 'amount_cents', 'status', 'version'] as const;

export class LedgerRepository {
  constructor(
    private readonly db: Database,
    private readonly owner: Caller,
    private readonly kind: OpenDatabase['kind'],
  ) {}

  /** The owner's ledger, or undefined when they have none. */
  async findLedger(): Promise<StoredLedger | undefined> {
    const record = await this.ledgerQuery().executeTakeFirst();
    return record && toLedger(record);
  }

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
      .values({ id: crypto.randomUUID(), owner_iss: this.owner.issuer, owner_sub: this.owner.subject, ...values })
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

  /** New rows always start PENDING: nothing is paid before the user says so. */
  async insertRows(ledgerId: string, rows: readonly (TransactionDraft & { readonly sequence: number })[]): Promise<void> {
    for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
      const batch = rows.slice(start, start + INSERT_BATCH_ROWS).map((row) => ({
        id: crypto.randomUUID(),
        ledger_id: ledgerId,
        owner_iss: this.owner.issuer,
        owner_sub: this.owner.subject,
        sequence: row.sequence,
        date: row.date,
        name: row.name,
        type: row.type,
        amount_cents: row.amount,
        status: 'PENDING' satisfies TransactionStatus,
      }));
      await this.db.insertInto('ledger_transactions').values(batch).execute();
    }
  }

  async listRows(ledgerId: string): Promise<StoredRow[]> {
    const records = await this.rowScope(this.db.selectFrom('ledger_transactions').select(ROW_COLUMNS), ledgerId).execute();
    return records.map(toRow);
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
  private rowScope<Query extends RowScopable<Query>>(query: Query, ledgerId: string): Query {
    return query.where('ledger_id', '=', ledgerId).where('owner_iss', '=', this.owner.issuer).where('owner_sub', '=', this.owner.subject);
  }
}

/** The one `where` overload rowScope uses, shared by select, update and delete builders. */
interface RowScopable<Query> {
  where(column: 'ledger_id' | 'owner_iss' | 'owner_sub', operator: '=', value: string): Query;
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
