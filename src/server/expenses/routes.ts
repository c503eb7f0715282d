/**
 * Expenses: list, add, change and remove; every call answers the caller's full expenses info. Each write
 * runs with the re-projection of that expense into the caller's ledger, in one transaction.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../contract/common.js';
import { EXPENSES_PATHS, expenseInputSchema, expensesInfoSchema } from '../../contract/expenses.js';
import { todayIn } from '../../domain/calendar-date.js';
import type { Caller } from '../auth/access-token.js';
import { callerOf, routeInApi } from '../api-scope.js';
import { LedgerService } from '../ledger/ledger-service.js';
import { expenseFields, expensesAnswer } from './expense-payloads.js';
import { expenseRepository } from './expense-repository.js';

export const expenseRoutes: FastifyPluginAsyncZod = async (api) => {
  const ledgers = new LedgerService(api.database, () => api.now());
  const answer = { response: { 200: expensesInfoSchema } };
  // The app's clock, not Date: tests fix "today".
  const info = async (owner: Caller) => expensesAnswer(await expenseRepository(api.database.db).list(owner), todayIn(api.now()));

  api.get(routeInApi(EXPENSES_PATHS.retrieve), { schema: answer }, async (request) => info(callerOf(request)));

  api.post(routeInApi(EXPENSES_PATHS.add), { schema: { body: expenseInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    const fields = expenseFields(request.body);
    await ledgers.changeSchedule(owner, async (db) => ({
      schedule: { kind: 'expense', id: await expenseRepository(db).add(owner, fields) },
      deleted: false,
    }));
    return info(owner);
  });

  api.put(routeInApi(EXPENSES_PATHS.one), { schema: { params: idParamsSchema, body: expenseInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    const { id } = request.params;
    const fields = expenseFields(request.body);
    await ledgers.changeSchedule(owner, async (db) => {
      await expenseRepository(db).update(owner, id, fields);
      return { schedule: { kind: 'expense', id }, deleted: false };
    });
    return info(owner);
  });

  api.delete(routeInApi(EXPENSES_PATHS.one), { schema: { params: idParamsSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    const { id } = request.params;
    await ledgers.changeSchedule(owner, async (db) => {
      await expenseRepository(db).remove(owner, id);
      return { schedule: { kind: 'expense', id }, deleted: true };
    });
    return info(owner);
  });
};
