/** Expenses as rows: what sets them apart from deposits; the shared storage is ScheduleRepository. */
import type { Expense } from '../../contract/expenses.js';
import { isoDate } from '../../domain/calendar-date.js';
import { cents } from '../../domain/money.js';
import { compareNames } from '../../domain/names.js';
import { EXPENSE_FREQUENCIES, type ExpenseSchedule } from '../../domain/schedules.js';
import { storedValue } from '../db/stored-value.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { ownerColumns } from '../db/owner.js';
import { byCodeUnits } from '../../domain/names.js';
import { type ScheduleRecord, ScheduleRepository, type ScheduleTable } from '../schedules/schedule-repository.js';

/** An expense in server units (cents, a calendar end date), so the schedule functions take it as is. */
export type StoredExpense = Omit<Expense, 'amount' | 'day' | 'endDate' | 'frequency' | 'startDate' | 'accountId' | 'toAccountId'> &
  Required<ExpenseSchedule> & {
    /** Null only while the owner has no account yet (a row written by hand): see ScheduleRepository's select. */
    readonly accountId: string | null;
    /** The account a recurring transfer pays into (decision 0043); null for a bill. */
    readonly toAccountId: string | null;
  };

/**
 * An expense as the caller adds or changes it, in the account the write chose. `toAccountId`
 * undefined: the request left it out, and the write keeps what the expense had (checkToAccount).
 */
export type ExpenseFields = Omit<StoredExpense, 'id' | 'accountId' | 'toAccountId'> & {
  readonly accountId: string;
  readonly toAccountId: string | null | undefined;
};

type ExpenseRecord = ScheduleRecord<'expenses'>;

function toStoredExpense(record: ExpenseRecord): StoredExpense {
  return {
    id: record.id,
    name: record.name,
    type: record.type,
    frequency: storedValue(EXPENSE_FREQUENCIES, record.frequency, 'expenses.frequency'),
    day: record.day,
    amount: cents(record.amount_cents),
    startDate: record.start_date === null ? null : isoDate(record.start_date),
    endDate: record.end_date === null ? null : isoDate(record.end_date),
    accountId: record.account_id,
    toAccountId: record.to_account_id,
  };
}

/** The table as the repository reads and writes it. */
const EXPENSES: ScheduleTable<'expenses', StoredExpense, ExpenseFields> = {
  name: 'expenses',
  columns: [
    'id',
    'account_id',
    'to_account_id',
    'name',
    'type',
    'frequency',
    'day',
    'amount_cents',
    'start_date',
    'end_date',
    'created_at',
  ],
  toStored: toStoredExpense,
  toColumns: (expense) => ({
    name: expense.name,
    type: expense.type,
    frequency: expense.frequency,
    day: expense.day,
    amount_cents: expense.amount,
    start_date: expense.startDate,
    end_date: expense.endDate,
    account_id: expense.accountId,
    to_account_id: expense.toAccountId ?? null,
  }),
  // Day of the month (a non-monthly bill's is its start date's, decision 0018), then name, then
  // creation order (the id only breaks exact ties).
  compare: (a, b) => a.day - b.day || compareNames(a.name, b.name) || byCodeUnits(a.created_at, b.created_at) || byCodeUnits(a.id, b.id),
  notFound: 'That expense does not exist.',
};

export type ExpenseRepository = ScheduleRepository<'expenses', StoredExpense, ExpenseFields>;

export function expenseRepository(db: Database): ExpenseRepository {
  return new ScheduleRepository(db, EXPENSES);
}

/**
 * Before an account is deleted (decision 0043): the recurring transfers paying into it become
 * ordinary bills of their own accounts, and so do any that paying from it would leave paying into
 * the account they move to. Their rows there stay; the link on them is cleared with the ledger.
 */
export async function endTransfersInto(db: Database, owner: Caller, accountId: string): Promise<void> {
  await db
    .updateTable('expenses')
    .set({ to_account_id: null })
    .where((eb) => eb.and(ownerColumns(owner)))
    .where((eb) => eb.or([eb('to_account_id', '=', accountId), eb('to_account_id', '=', eb.ref('account_id'))]))
    .execute();
}
