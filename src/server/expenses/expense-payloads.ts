/** Expenses between dollars on the wire and cents inside: the only place the two meet. */
import type { ExpensesInfo } from '../../contract/expenses.js';
import type { CheckedExpense } from '../../contract/expense-input.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import { totalMonthlyExpenses } from '../../domain/schedules.js';
import type { ExpenseFields, StoredExpense } from './expense-repository.js';

export function expenseFields(input: CheckedExpense): ExpenseFields {
  return {
    name: input.name,
    type: input.type,
    frequency: input.frequency,
    day: input.day,
    amount: dollarsToCents(input.amount),
    startDate: input.startDate,
    endDate: input.endDate,
  };
}

/** The answer of every expenses call. The total counts only expenses that have not ended, so it depends on today. */
export function expensesAnswer(expenses: readonly StoredExpense[], today: IsoDate): ExpensesInfo {
  return {
    expenses: expenses.map(({ amount, ...expense }) => ({ ...expense, amount: centsToDollars(amount) })),
    totalExpenses: centsToDollars(totalMonthlyExpenses(expenses, today)),
  };
}
