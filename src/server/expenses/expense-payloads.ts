/** Expenses between dollars on the wire and cents inside: the only place the two meet. */
import type { ExpensesInfo } from '../../contract/expenses.js';
import type { CheckedExpense } from '../../contract/expense-input.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import { totalMonthlyExpenses } from '../../domain/schedules.js';
import type { ScheduleList, ScheduleRequest } from '../schedules/schedule-writes.js';
import type { ExpenseFields, StoredExpense } from './expense-repository.js';

export function expenseFields(input: CheckedExpense): ScheduleRequest<ExpenseFields> {
  return {
    accountId: input.accountId,
    // Empty means none, as null does.
    toAccountId: input.toAccountId === undefined ? undefined : input.toAccountId || null,
    name: input.name,
    type: input.type,
    frequency: input.frequency,
    day: input.day,
    amount: dollarsToCents(input.amount),
    startDate: input.startDate,
    endDate: input.endDate,
  };
}

/**
 * The answer of every expenses call. The total counts only expenses that have not ended, so it
 * depends on today, and leaves out recurring transfers: money moved between the user's own
 * accounts is neither income nor expense (decision 0043). Each names its account, and the account
 * a transfer pays into, only while the caller has more than one (decision 0042).
 */
export function expensesAnswer({ schedules: expenses, manyAccounts }: ScheduleList<StoredExpense>, today: IsoDate): ExpensesInfo {
  return {
    expenses: expenses.map(({ amount, accountId, toAccountId, ...expense }) => ({
      ...expense,
      amount: centsToDollars(amount),
      ...(manyAccounts && accountId !== null && { accountId }),
      ...(manyAccounts && toAccountId !== null && { toAccountId }),
    })),
    totalExpenses: centsToDollars(
      totalMonthlyExpenses(
        expenses.filter((expense) => expense.toAccountId === null),
        today,
      ),
    ),
  };
}
