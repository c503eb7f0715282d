/**
 * Expenses as rows. Every query is scoped to the caller (a foreign id is a missing id), and money
 * stays in integer cents until the answer is built.
 */
import { compareNames } from '../../domain/names.js';
import type { Expense, ExpenseInput } from '../../contract/expenses.js';
import { isoDate } from '../../domain/calendar-date.js';
import { cents, dollarsToCents } from '../../domain/money.js';
import type { ExpenseSchedule } from '../../domain/schedules.js';
import type { Caller } from '../auth/access-token.js';
import { newId } from '../db/ids.js';
import type { Database } from '../db/database.js';
import { ownerColumns } from '../db/owner.js';
import type { ExpensesTable } from '../db/schema.js';
import { NotFoundError } from '../../domain/errors.js';

/** An expense in server units (cents, a calendar end date), so the schedule functions take it as is. */
export type StoredExpense = Omit<Expense, 'amount' | 'day' | 'endDate'> & ExpenseSchedule;

type ExpenseColumns = Omit<ExpensesTable, 'id' | 'owner_iss' | 'owner_sub' | 'created_at'>;
type ExpenseRow = Omit<ExpensesTable, 'owner_iss' | 'owner_sub'>;

const EXPENSE_COLUMNS = ['id', 'name', 'type', 'day', 'amount_cents', 'end_date', 'created_at'] as const;

// Names are ordered here rather than in SQL: SQLite and PostgreSQL collate text differently, and
// the list must come back in the same order from either.

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Default order: day of the month, then name, then creation order (the id only breaks exact ties). */
function compareRows(a: ExpenseRow, b: ExpenseRow): number {
  return a.day - b.day || compareNames(a.name, b.name) || byCodeUnits(a.created_at, b.created_at) || byCodeUnits(a.id, b.id);
}

function toStoredExpense(row: ExpenseRow): StoredExpense {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    day: row.day,
    amount: cents(row.amount_cents),
    endDate: row.end_date === null ? null : isoDate(row.end_date),
  };
}

function toColumns(input: ExpenseInput): ExpenseColumns {
  return {
    name: input.name,
    type: input.type,
    day: input.day,
    amount_cents: dollarsToCents(input.amount),
    end_date: input.endDate,
  };
}

export class ExpenseRepository {
  constructor(private readonly db: Database) {}

  /** The caller's expenses in the default order. */
  async list(owner: Caller): Promise<StoredExpense[]> {
    const rows = await this.db
      .selectFrom('expenses')
      .select(EXPENSE_COLUMNS)
      .where((eb) => eb.and(ownerColumns(owner)))
      .execute();
    return rows.sort(compareRows).map(toStoredExpense);
  }

  async add(owner: Caller, input: ExpenseInput): Promise<void> {
    await this.db
      .insertInto('expenses')
      // The id is always ours: a client-sent id never reaches here (the schema drops it).
      .values({ id: newId(), ...ownerColumns(owner), ...toColumns(input), created_at: new Date().toISOString() })
      .execute();
  }

  async update(owner: Caller, id: string, input: ExpenseInput): Promise<void> {
    const result = await this.db
      .updateTable('expenses')
      .set(toColumns(input))
      .where('id', '=', id)
      .where((eb) => eb.and(ownerColumns(owner)))
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new NotFoundError('That expense does not exist.');
  }

  async remove(owner: Caller, id: string): Promise<void> {
    const result = await this.db
      .deleteFrom('expenses')
      .where('id', '=', id)
      .where((eb) => eb.and(ownerColumns(owner)))
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) throw new NotFoundError('That expense does not exist.');
  }
}
