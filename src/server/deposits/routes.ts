/**
 * Deposits: list, add, change and remove; every call answers the caller's full deposits info, and every
 * write brings the caller's ledger up to date with it (depositService).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../contract/request-fields.js';
import { DEPOSITS_PATHS, depositsInfoSchema } from '../../contract/deposits.js';
import { depositInputSchema } from '../../contract/deposit-input.js';
import type { Caller } from '../auth/access-token.js';
import { callerOf, chargeRowsWritten, routeInApi } from '../http/api-scope.js';
import { depositFields, depositsAnswer } from './deposit-payloads.js';
import { depositService } from './deposit-service.js';

export const depositRoutes: FastifyPluginAsyncZod = async (api) => {
  const deposits = depositService(api.database, () => api.now());
  const answer = { response: { 200: depositsInfoSchema } };
  const info = async (owner: Caller) => depositsAnswer(await deposits.list(owner));

  api.get(routeInApi(DEPOSITS_PATHS.retrieve), { schema: answer }, async (request) => info(callerOf(request)));

  api.post(routeInApi(DEPOSITS_PATHS.add), { schema: { body: depositInputSchema, ...answer } }, async (request) => {
    chargeRowsWritten(request, await deposits.add(callerOf(request), depositFields(request.body)));
    return info(callerOf(request));
  });

  api.put(routeInApi(DEPOSITS_PATHS.one), { schema: { params: idParamsSchema, body: depositInputSchema, ...answer } }, async (request) => {
    chargeRowsWritten(request, await deposits.update(callerOf(request), request.params.id, depositFields(request.body)));
    return info(callerOf(request));
  });

  api.delete(routeInApi(DEPOSITS_PATHS.one), { schema: { params: idParamsSchema, ...answer } }, async (request) => {
    chargeRowsWritten(request, await deposits.remove(callerOf(request), request.params.id));
    return info(callerOf(request));
  });
};
