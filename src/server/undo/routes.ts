/**
 * POST /api/undo (decision 0040). Thin: the endpoint table's schema checks the body, UndoService
 * does the work in one transaction, and the answer is the undone write's own: the whole ledger
 * with its version in the ETag header, the deposits, or the expenses. An undo is not itself undone:
 * it carries no Leftover-Undo header.
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { depositsAnswer } from '../deposits/deposit-payloads.js';
import { expensesAnswer } from '../expenses/expense-payloads.js';
import { callerOf, memberOf } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import { ledgerAnswer, sendLedgerText, tagLedgerVersion } from '../ledger/index.js';
import { type UndoElsewhere, UndoService } from './undo-service.js';

export interface UndoRoutesOptions {
  /** Where a big undo runs: a thread of its own (decision 0103). */
  readonly elsewhere?: UndoElsewhere;
}

export const undoRoutes: FastifyPluginAsyncZod<UndoRoutesOptions> = async (api, { elsewhere }) => {
  const undos = new UndoService(api.database, api.ledgerWrites, elsewhere);

  registerEndpoint(api, 'undo', async (request, reply) => {
    const undone = await undos.undo(callerOf(request), memberOf(request), request.body.token);
    if (undone.answer === 'deposits') return depositsAnswer({ schedules: undone.deposits, manyAccounts: undone.manyAccounts });
    if (undone.answer === 'expenses') {
      const owner = callerOf(request);
      return expensesAnswer({ schedules: undone.expenses, manyAccounts: undone.manyAccounts }, await api.todayOf(api.database.db, owner));
    }
    // Written and checked against this answer's schema in the thread, as the serializer here would: sent as it is.
    if (undone.answer === 'ledger-text') return sendLedgerText(request, reply as FastifyReply, undone);
    tagLedgerVersion(reply, undone.ledger);
    return ledgerAnswer(undone.ledger);
  });
};
