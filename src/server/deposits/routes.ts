/** Deposits: list, add, change and remove; every call answers the caller's full deposits info. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../contract/common.js';
import { DEPOSITS_PATHS, depositInputSchema, depositsInfoSchema } from '../../contract/deposits.js';
import { callerOf, routeInApi } from '../api-scope.js';
import { depositFields, depositsAnswer } from './deposit-payloads.js';
import { depositRepository } from './deposit-repository.js';

export const depositRoutes: FastifyPluginAsyncZod = async (api) => {
  const deposits = depositRepository(api.database.db);
  const answer = { response: { 200: depositsInfoSchema } };

  api.get(routeInApi(DEPOSITS_PATHS.retrieve), { schema: answer }, async (request) => {
    return depositsAnswer(await deposits.list(callerOf(request)));
  });

  api.post(routeInApi(DEPOSITS_PATHS.add), { schema: { body: depositInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await deposits.add(owner, depositFields(request.body));
    return depositsAnswer(await deposits.list(owner));
  });

  api.put(routeInApi(DEPOSITS_PATHS.one), { schema: { params: idParamsSchema, body: depositInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await deposits.update(owner, request.params.id, depositFields(request.body));
    return depositsAnswer(await deposits.list(owner));
  });

  api.delete(routeInApi(DEPOSITS_PATHS.one), { schema: { params: idParamsSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await deposits.remove(owner, request.params.id);
    return depositsAnswer(await deposits.list(owner));
  });
};
