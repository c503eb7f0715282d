/**
 * Deposits as rows. Every query is scoped to the caller (a foreign id is a missing id), and money
 * stays in integer cents until the answer is built.
 */
import { compareNames } from '../../domain/names.js';
import type { Deposit, DepositInput } from '../../contract/deposits.js';
import { isoDate } from '../../domain/calendar-date.js';
import { cents, dollarsToCents } from '../../domain/money.js';
import { DEPOSIT_DAYS, DEPOSIT_TYPES, type DepositSchedule, FREQUENCIES } from '../../domain/schedules.js';
import type { Caller } from '../auth/access-token.js';
import { newId } from '../db/ids.js';
import type { Database } from '../db/database.js';
import { ownerColumns } from '../db/owner.js';
import type { DepositsTable } from '../db/schema.js';
import { NotFoundError } from '../../domain/errors.js';

/** A deposit in server units (cents, a calendar date), so the schedule functions take it as is. */
export type StoredDeposit = Omit<Deposit, 'amount' | 'startDate'> & DepositSchedule;

type DepositColumns = Omit<DepositsTable, 'id' | 'owner_iss' | 'owner_sub' | 'created_at'>;
type DepositRow = Omit<DepositsTable, 'owner_iss' | 'owner_sub'>;

const DEPOSIT_COLUMNS = ['id', 'name', 'type', 'day', 'amount_cents', 'start_date', 'frequency', 'created_at'] as const;

// Names are ordered here rather than in SQL: SQLite and PostgreSQL collate text differently, and
// the list must come back in the same order from either.

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Default order: start date, then name, then creation order (the id only breaks exact ties). */
function compareRows(a: DepositRow, b: DepositRow): number {
  return (
    byCodeUnits(a.start_date, b.start_date) ||
    compareNames(a.name, b.name) ||
    byCodeUnits(a.created_at, b.created_at) ||
    byCodeUnits(a.id, b.id)
  );
}

/** Narrows a stored text column to its enum; only a hand-edited database could fail this. */
function storedValue<T extends string>(allowed: readonly T[], value: string, column: string): T {
  const match = allowed.find((candidate) => candidate === value);
  if (match === undefined) throw new Error(`deposits.${column} holds an unexpected value`);
  return match;
}

function toStoredDeposit(row: DepositRow): StoredDeposit {
  return {
    id: row.id,
    name: row.name,
    type: storedValue(DEPOSIT_TYPES, row.type, 'type'),
    day: storedValue(DEPOSIT_DAYS, row.day, 'day'),
    amount: cents(row.amount_cents),
    startDate: isoDate(row.start_date),
    frequency: storedValue(FREQUENCIES, row.frequency, 'frequency'),
  };
}

function toColumns(input: DepositInput): DepositColumns {
  return {
    name: input.name,
    type: input.type,
    day: input.day,
    amount_cents: dollarsToCents(input.amount),
    start_date: input.startDate,
    frequency: input.frequency,
  };
}

export class DepositRepository {
  constructor(private readonly db: Database) {}

  /** The caller's deposits in the default order. */
  async list(owner: Caller): Promise<StoredDeposit[]> {
    const rows = await this.db
      .selectFrom('deposits')
      .select(DEPOSIT_COLUMNS)
      .where((eb) => eb.and(ownerColumns(owner)))
      .execute();
    return rows.sort(compareRows).map(toStoredDeposit);
  }

  async add(owner: Caller, input: DepositInput): Promise<void> {
    await this.db
      .insertInto('deposits')
      // The id is always ours: a client-sent id never reaches here (the schema drops it).
      .values({ id: newId(), ...ownerColumns(owner), ...toColumns(input), created_at: new Date().toISOString() })
      .execute();
  }

  async update(owner: Caller, id: string, input: DepositInput): Promise<void> {
    const result = await this.db
      .updateTable('deposits')
      .set(toColumns(input))
      .where('id', '=', id)
      .where((eb) => eb.and(ownerColumns(owner)))
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new NotFoundError('That deposit does not exist.');
  }

  async remove(owner: Caller, id: string): Promise<void> {
    const result = await this.db
      .deleteFrom('deposits')
      .where('id', '=', id)
      .where((eb) => eb.and(ownerColumns(owner)))
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) throw new NotFoundError('That deposit does not exist.');
  }
}
