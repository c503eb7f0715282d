/**
 * Expenses: list, add, change and remove; every call answers the caller's full expenses info, and every
 * write brings the caller's ledger up to date with it (expenseService).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Caller } from '../auth/access-token.js';
import { callerOf, chargeRowsWritten } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import { tagUndo } from '../http/undo-header.js';
import { expenseFields, expensesAnswer } from './expense-payloads.js';
import { expenseService } from './expense-service.js';

export const expenseRoutes: FastifyPluginAsyncZod = async (api) => {
  const expenses = expenseService(api.database, api.ledgerWrites);
  // Totals leave out expenses that ended before the caller's own today (decision 0047).
  const info = async (owner: Caller) => expensesAnswer(await expenses.list(owner), await api.todayOf(api.database.db, owner));

  registerEndpoint(api, 'getExpenses', async (request) => info(callerOf(request)));

  registerEndpoint(api, 'addExpense', async (request, reply) => {
    const written = await expenses.add(callerOf(request), expenseFields(request.body));
    chargeRowsWritten(request, written.added);
    tagUndo(reply, written.undo);
    return info(callerOf(request));
  });

  registerEndpoint(api, 'updateExpense', async (request, reply) => {
    const written = await expenses.update(callerOf(request), request.params.id, expenseFields(request.body));
    chargeRowsWritten(request, written.added);
    tagUndo(reply, written.undo);
    return info(callerOf(request));
  });

  registerEndpoint(api, 'deleteExpense', async (request, reply) => {
    const written = await expenses.remove(callerOf(request), request.params.id);
    chargeRowsWritten(request, written.added);
    tagUndo(reply, written.undo);
    return info(callerOf(request));
  });
};
