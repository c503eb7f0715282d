/**
 * Deposits: list, add, change and remove; every call answers the caller's full deposits info, and every
 * write brings the caller's ledger up to date with it (depositService).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Caller } from '../auth/access-token.js';
import { callerOf, chargeRowsWritten } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import { tagUndo } from '../http/undo-header.js';
import { depositFields, depositsAnswer } from './deposit-payloads.js';
import { depositService } from './deposit-service.js';

export const depositRoutes: FastifyPluginAsyncZod = async (api) => {
  const deposits = depositService(api.database, api.ledgerWrites);
  const info = async (owner: Caller) => depositsAnswer(await deposits.list(owner));

  registerEndpoint(api, 'getDeposits', async (request) => info(callerOf(request)));

  registerEndpoint(api, 'addDeposit', async (request, reply) => {
    const written = await deposits.add(callerOf(request), depositFields(request.body));
    chargeRowsWritten(request, written.added);
    tagUndo(reply, written.undo);
    return info(callerOf(request));
  });

  registerEndpoint(api, 'updateDeposit', async (request, reply) => {
    const written = await deposits.update(callerOf(request), request.params.id, depositFields(request.body));
    chargeRowsWritten(request, written.added);
    tagUndo(reply, written.undo);
    return info(callerOf(request));
  });

  registerEndpoint(api, 'deleteDeposit', async (request, reply) => {
    const written = await deposits.remove(callerOf(request), request.params.id);
    chargeRowsWritten(request, written.added);
    tagUndo(reply, written.undo);
    return info(callerOf(request));
  });
};
