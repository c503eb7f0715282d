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
 * depends on today. Each names its account only while the caller has more than one (decision 0042).
 */
export function expensesAnswer({ schedules: expenses, manyAccounts }: ScheduleList<StoredExpense>, today: IsoDate): ExpensesInfo {
  return {
    expenses: expenses.map(({ amount, accountId, ...expense }) => ({
      ...expense,
      amount: centsToDollars(amount),
      ...(manyAccounts && accountId !== null && { accountId }),
    })),
    totalExpenses: centsToDollars(totalMonthlyExpenses(expenses, today)),
  };
}
