/**
 * Expenses: list, add, change and remove; every call answers the caller's full expenses info, and every
 * write brings the caller's ledger up to date with it (scheduleWrites).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../contract/request-fields.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../contract/expenses.js';
import { expenseInputSchema } from '../../contract/expense-input.js';
import { todayIn } from '../../domain/calendar-date.js';
import type { Caller } from '../auth/access-token.js';
import { callerOf, chargeRowsWritten, routeInApi } from '../api-scope.js';
import { LedgerService } from '../ledger/index.js';
import { readLedgerSchedules } from '../schedules/ledger-schedules.js';
import { scheduleWrites } from '../schedules/schedule-writes.js';
import { expenseFields, expensesAnswer } from './expense-payloads.js';
import { expenseRepository } from './expense-repository.js';

export const expenseRoutes: FastifyPluginAsyncZod = async (api) => {
  const writes = scheduleWrites(new LedgerService(api.database, () => api.now(), readLedgerSchedules), 'expense', expenseRepository);
  const answer = { response: { 200: expensesInfoSchema } };
  const info = async (owner: Caller) => expensesAnswer(await expenseRepository(api.database.db).list(owner), todayIn(api.now()));

  api.get(routeInApi(EXPENSES_PATHS.retrieve), { schema: answer }, async (request) => info(callerOf(request)));

  api.post(routeInApi(EXPENSES_PATHS.add), { schema: { body: expenseInputSchema, ...answer } }, async (request) => {
    chargeRowsWritten(request, await writes.add(callerOf(request), expenseFields(request.body)));
    return info(callerOf(request));
  });

  api.put(routeInApi(EXPENSES_PATHS.one), { schema: { params: idParamsSchema, body: expenseInputSchema, ...answer } }, async (request) => {
    chargeRowsWritten(request, await writes.update(callerOf(request), request.params.id, expenseFields(request.body)));
    return info(callerOf(request));
  });

  api.delete(routeInApi(EXPENSES_PATHS.one), { schema: { params: idParamsSchema, ...answer } }, async (request) => {
    chargeRowsWritten(request, await writes.remove(callerOf(request), request.params.id));
    return info(callerOf(request));
  });
};
