/** Expenses: list, add, change and remove; every call answers the caller's full expenses info. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../contract/common.js';
import { EXPENSES_PATHS, expenseInputSchema, expensesInfoSchema } from '../../contract/expenses.js';
import { todayIn } from '../../domain/calendar-date.js';
import { callerOf, routeInApi } from '../api-scope.js';
import { expenseFields, expensesAnswer } from './expense-payloads.js';
import { expenseRepository } from './expense-repository.js';

export const expenseRoutes: FastifyPluginAsyncZod = async (api) => {
  const expenses = expenseRepository(api.database.db);
  const answer = { response: { 200: expensesInfoSchema } };
  // The app's clock, not Date: tests fix "today".
  const today = () => todayIn(api.now());

  api.get(routeInApi(EXPENSES_PATHS.retrieve), { schema: answer }, async (request) => {
    return expensesAnswer(await expenses.list(callerOf(request)), today());
  });

  api.post(routeInApi(EXPENSES_PATHS.add), { schema: { body: expenseInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await expenses.add(owner, expenseFields(request.body));
    return expensesAnswer(await expenses.list(owner), today());
  });

  api.put(routeInApi(EXPENSES_PATHS.one), { schema: { params: idParamsSchema, body: expenseInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await expenses.update(owner, request.params.id, expenseFields(request.body));
    return expensesAnswer(await expenses.list(owner), today());
  });

  api.delete(routeInApi(EXPENSES_PATHS.one), { schema: { params: idParamsSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await expenses.remove(owner, request.params.id);
    return expensesAnswer(await expenses.list(owner), today());
  });
};
