/**
 * Expenses: list, add, change and remove; every call answers the caller's full expenses info, and every
 * write brings the caller's ledger up to date with it (expenseService).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../contract/request-fields.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../contract/expenses.js';
import { expenseInputSchema } from '../../contract/expense-input.js';
import { todayIn } from '../../domain/calendar-date.js';
import type { Caller } from '../auth/access-token.js';
import { callerOf, chargeRowsWritten, routeInApi } from '../http/api-scope.js';
import { expenseFields, expensesAnswer } from './expense-payloads.js';
import { expenseService } from './expense-service.js';

export const expenseRoutes: FastifyPluginAsyncZod = async (api) => {
  const expenses = expenseService(api.database, () => api.now());
  const answer = { response: { 200: expensesInfoSchema } };
  const info = async (owner: Caller) => expensesAnswer(await expenses.list(owner), todayIn(api.now()));

  api.get(routeInApi(EXPENSES_PATHS.retrieve), { schema: answer }, async (request) => info(callerOf(request)));

  api.post(routeInApi(EXPENSES_PATHS.add), { schema: { body: expenseInputSchema, ...answer } }, async (request) => {
    chargeRowsWritten(request, await expenses.add(callerOf(request), expenseFields(request.body)));
    return info(callerOf(request));
  });

  api.put(routeInApi(EXPENSES_PATHS.one), { schema: { params: idParamsSchema, body: expenseInputSchema, ...answer } }, async (request) => {
    chargeRowsWritten(request, await expenses.update(callerOf(request), request.params.id, expenseFields(request.body)));
    return info(callerOf(request));
  });

  api.delete(routeInApi(EXPENSES_PATHS.one), { schema: { params: idParamsSchema, ...answer } }, async (request) => {
    chargeRowsWritten(request, await expenses.remove(callerOf(request), request.params.id));
    return info(callerOf(request));
  });
};
