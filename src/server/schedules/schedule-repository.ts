/**
 * Deposits and expenses are stored alike: rows of the caller's own (a foreign id is a missing id),
 * listed in a fixed order, added with our own id, changed or removed by id. This is that code once;
 * each resource states its table, columns, row mapping, order and not-found message in a
 * ScheduleTable. Money is integer cents here: dollars exist only at the routes.
 */
import { sql } from 'kysely';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { newId } from '../db/ids.js';
import { ownerColumns } from '../db/owner.js';
import type { DatabaseSchema, OwnerColumns } from '../db/schema.js';
import { NotFoundError } from '../../domain/errors.js';

type ScheduleTableName = 'deposits' | 'expenses';

/** A schedule with its creation time: list order and ledger numbering break ties by it. */
export type WithCreatedAt<T> = T & { readonly createdAt: string };

/** Rows per INSERT of a restore: 500 rows of at most 11 values, far below either database's parameter limit. */
const RESTORE_BATCH = 500;

/** A column of either schedule table. */
type ScheduleColumn = keyof DatabaseSchema['deposits'] | keyof DatabaseSchema['expenses'];

/** A stored row as read: every column but the owner's, who is always the caller. */
export type ScheduleRecord<Name extends ScheduleTableName> = Omit<DatabaseSchema[Name], keyof OwnerColumns>;

/** What a resource writes of a row; the id, owner and creation time are set here. */
export type ScheduleColumns<Name extends ScheduleTableName> = Omit<ScheduleRecord<Name>, 'id' | 'created_at'>;

export interface ScheduleTable<Name extends ScheduleTableName, Stored, Fields> {
  readonly name: Name;
  /** Every column of ScheduleRecord: the mapping and the order read them all. */
  readonly columns: readonly (keyof ScheduleRecord<Name> & ScheduleColumn)[];
  readonly toStored: (record: ScheduleRecord<Name>) => Stored;
  readonly toColumns: (fields: Fields) => ScheduleColumns<Name>;
  /**
   * The list's order. Names are ordered here rather than in SQL: SQLite and PostgreSQL collate
   * text differently, and the list must come back in the same order from either.
   */
  readonly compare: (a: ScheduleRecord<Name>, b: ScheduleRecord<Name>) => number;
  readonly notFound: string;
}

export class ScheduleRepository<Name extends ScheduleTableName, Stored, Fields> {
  /**
   * Kysely cannot type a query on a table chosen by a type parameter, so the queries here name it
   * as either schedule table (both have the key and owner columns they filter on). Each resource's
   * ScheduleTable is checked against its own table where it is written; records() relies on that.
   */
  private readonly tableName: ScheduleTableName;

  constructor(
    private readonly db: Database,
    private readonly table: ScheduleTable<Name, Stored, Fields>,
  ) {
    this.tableName = table.name;
  }

  /** What a missing (or another user's) id answers. */
  get notFound(): string {
    return this.table.notFound;
  }

  /** The caller's rows in the resource's order. */
  async list(owner: Caller): Promise<Stored[]> {
    const records = await this.select(owner).execute();
    return this.records(records).sort(this.table.compare).map(this.table.toStored);
  }

  /**
   * The caller's rows in the order they were added (the id only breaks exact ties). A new ledger
   * is generated from them in this order, so rows that tie on date, type and name get their
   * creation order from it, the same on every create.
   */
  async inCreationOrder(owner: Caller): Promise<Stored[]> {
    return (await this.creationOrdered(owner)).map(this.table.toStored);
  }

  /** inCreationOrder with each row's creation time: what an export writes down. */
  async withCreationTimes(owner: Caller): Promise<WithCreatedAt<Stored>[]> {
    return (await this.creationOrdered(owner)).map((record) => ({ ...this.table.toStored(record), createdAt: record.created_at }));
  }

  /** How many rows the caller has: what an add checks the limit against (MAX_DEPOSITS, MAX_EXPENSES). */
  async count(owner: Caller): Promise<number> {
    const record = await this.db
      .selectFrom(this.tableName)
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .where((eb) => eb.and(ownerColumns(owner)))
      .executeTakeFirst();
    return Number(record?.count ?? 0);
  }

  /** Answers the new row's id, which is always ours: a client-sent id never reaches here (the schema drops it). */
  async add(owner: Caller, fields: Fields): Promise<string> {
    const id = newId();
    await this.db
      .insertInto(this.tableName)
      .values(this.stored(owner, { ...fields, id, createdAt: new Date().toISOString() }))
      .execute();
    return id;
  }

  /**
   * Stores a restore's rows for the owner, who has none now: the ids are new already (withNewIds),
   * the creation times the document's.
   */
  async restore(owner: Caller, rows: readonly WithCreatedAt<Fields & { readonly id: string }>[]): Promise<void> {
    for (let start = 0; start < rows.length; start += RESTORE_BATCH) {
      const batch = rows.slice(start, start + RESTORE_BATCH);
      await this.db
        .insertInto(this.tableName)
        .values(batch.map((row) => this.stored(owner, row)))
        .execute();
    }
  }

  async update(owner: Caller, id: string, fields: Fields): Promise<void> {
    const result = await this.db
      .updateTable(this.tableName)
      .set(this.table.toColumns(fields))
      .where('id', '=', id)
      .where((eb) => eb.and(ownerColumns(owner)))
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new NotFoundError(this.table.notFound);
  }

  async remove(owner: Caller, id: string): Promise<void> {
    const result = await this.db
      .deleteFrom(this.tableName)
      .where('id', '=', id)
      .where((eb) => eb.and(ownerColumns(owner)))
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) throw new NotFoundError(this.table.notFound);
  }

  /** The caller's row with this id as stored, every column of it, or undefined: what an undo keeps and puts back (decision 0040). */
  async record(owner: Caller, id: string): Promise<ScheduleRecord<Name> | undefined> {
    const found = await this.select(owner).where('id', '=', id).executeTakeFirst();
    return found && this.records([found])[0];
  }

  /** True when both hold the same value in every column. */
  sameRecord(a: ScheduleRecord<Name>, b: ScheduleRecord<Name>): boolean {
    return this.table.columns.every((column) => a[column] === b[column]);
  }

  /**
   * A record as an undo entry kept it (JSON, read back): the table's columns, each checked by the
   * resource's own mapping as a row read from the table is. Our own data: a mismatch is a fault.
   */
  decodeRecord(value: unknown): ScheduleRecord<Name> {
    if (typeof value !== 'object' || value === null) throw new Error(`unexpected ${this.tableName} record in an undo entry`);
    const record: Record<string, string | number | null> = {};
    for (const column of this.table.columns) {
      const field: unknown = Reflect.get(value, column);
      if (typeof field !== 'string' && typeof field !== 'number' && field !== null) {
        throw new Error(`unexpected ${this.tableName}.${column} in an undo entry`);
      }
      record[column] = field;
    }
    const [decoded] = this.records([record]);
    if (!decoded) throw new Error('unreachable: one record in, one out');
    this.table.toStored(decoded);
    return decoded;
  }

  /** Stores a record again exactly as it was, id and creation time included, so the list's order is as before. */
  async putBack(owner: Caller, record: ScheduleRecord<Name>): Promise<void> {
    await this.db
      .insertInto(this.tableName)
      .values({ ...record, ...ownerColumns(owner) })
      .execute();
  }

  /** Rows without an account are in this one (the primary one, before another becomes primary). */
  async settleAccounts(owner: Caller, accountId: string): Promise<void> {
    await this.db
      .updateTable(this.tableName)
      .set({ account_id: accountId })
      .where('account_id', 'is', null)
      .where((eb) => eb.and(ownerColumns(owner)))
      .execute();
  }

  /** Every schedule of one account is in another from now on (the first was deleted); answers their ids. */
  async moveAll(owner: Caller, from: string, to: string): Promise<string[]> {
    const moved = await this.db
      .updateTable(this.tableName)
      .set({ account_id: to })
      .where('account_id', '=', from)
      .where((eb) => eb.and(ownerColumns(owner)))
      .returning('id')
      .execute();
    return moved.map((row) => row.id);
  }

  /** Removes every row the owner has; answers how many went. */
  async removeAll(owner: Caller): Promise<number> {
    const result = await this.db
      .deleteFrom(this.tableName)
      .where((eb) => eb.and(ownerColumns(owner)))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** A row as stored: ours, with the resource's columns. */
  private stored(owner: Caller, row: WithCreatedAt<Fields & { readonly id: string }>) {
    return { id: row.id, ...ownerColumns(owner), ...this.table.toColumns(row), created_at: row.createdAt };
  }

  private async creationOrdered(owner: Caller): Promise<ScheduleRecord<Name>[]> {
    return this.records(await this.select(owner).orderBy('created_at').orderBy('id').execute());
  }

  /**
   * A row without an account (written by hand, or by a server older than accounts while the new
   * one started) reads as in the owner's primary account, or none while they have no account yet
   * (decision 0042); settleAccounts makes that choice stick before the primary account changes.
   */
  private select(owner: Caller) {
    const columns: readonly ScheduleColumn[] = this.table.columns.filter((column) => column !== 'account_id');
    const primary = sql<string | null>`coalesce(${sql.ref('account_id')}, (select accounts.id from accounts
      where accounts.owner_iss = ${owner.issuer} and accounts.owner_sub = ${owner.subject} and accounts.is_primary = 1))`;
    return this.db
      .selectFrom(this.tableName)
      .select(columns)
      .select(primary.as('account_id'))
      .where((eb) => eb.and(ownerColumns(owner)));
  }

  /** The rows as the resource's own: they hold exactly its table's columns (`table.columns`). */
  private records(rows: readonly object[]): ScheduleRecord<Name>[] {
    return rows as ScheduleRecord<Name>[];
  }
}
