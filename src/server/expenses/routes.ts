/** Expenses: list, add, change and remove; every call answers the caller's full expenses info. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../contract/common.js';
import { expenseInputSchema, type ExpensesInfo, expensesInfoSchema } from '../../contract/expenses.js';
import { type IsoDate, todayIn } from '../../domain/calendar-date.js';
import { centsToDollars } from '../../domain/money.js';
import { totalMonthlyExpenses } from '../../domain/schedules.js';
import { callerOf } from '../api-scope.js';
import { ExpenseRepository, type StoredExpense } from './expense-repository.js';

/** The total counts only expenses that have not ended, so it depends on today. */
function expensesInfo(expenses: readonly StoredExpense[], today: IsoDate): ExpensesInfo {
  return {
    expenses: expenses.map(({ amount, ...expense }) => ({ ...expense, amount: centsToDollars(amount) })),
    totalExpenses: centsToDollars(totalMonthlyExpenses(expenses, today)),
  };
}

export const expenseRoutes: FastifyPluginAsyncZod = async (api) => {
  const expenses = new ExpenseRepository(api.database.db);
  const answer = { response: { 200: expensesInfoSchema } };
  // The app's clock, not Date: tests fix "today".
  const today = () => todayIn(api.now());

  api.get('/expenses/retrieve-expenses', { schema: answer }, async (request) => {
    return expensesInfo(await expenses.list(callerOf(request)), today());
  });

  api.post('/expenses/add-expense', { schema: { body: expenseInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await expenses.add(owner, request.body);
    return expensesInfo(await expenses.list(owner), today());
  });

  api.put('/expenses/:id', { schema: { params: idParamsSchema, body: expenseInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await expenses.update(owner, request.params.id, request.body);
    return expensesInfo(await expenses.list(owner), today());
  });

  api.delete('/expenses/:id', { schema: { params: idParamsSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await expenses.remove(owner, request.params.id);
    return expensesInfo(await expenses.list(owner), today());
  });
};
