/**
 * Deposits: list, add, change and remove; every call answers the caller's full deposits info. Each write
 * runs with the re-projection of that deposit into the caller's ledger, in one transaction.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../contract/common.js';
import { DEPOSITS_PATHS, depositInputSchema, depositsInfoSchema } from '../../contract/deposits.js';
import type { Caller } from '../auth/access-token.js';
import { callerOf, routeInApi } from '../api-scope.js';
import { LedgerService } from '../ledger/ledger-service.js';
import { depositFields, depositsAnswer } from './deposit-payloads.js';
import { depositRepository } from './deposit-repository.js';

export const depositRoutes: FastifyPluginAsyncZod = async (api) => {
  const ledgers = new LedgerService(api.database, () => api.now());
  const answer = { response: { 200: depositsInfoSchema } };
  const info = async (owner: Caller) => depositsAnswer(await depositRepository(api.database.db).list(owner));

  api.get(routeInApi(DEPOSITS_PATHS.retrieve), { schema: answer }, async (request) => info(callerOf(request)));

  api.post(routeInApi(DEPOSITS_PATHS.add), { schema: { body: depositInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    const fields = depositFields(request.body);
    await ledgers.changeSchedule(owner, async (db) => ({
      schedule: { kind: 'deposit', id: await depositRepository(db).add(owner, fields) },
      deleted: false,
    }));
    return info(owner);
  });

  api.put(routeInApi(DEPOSITS_PATHS.one), { schema: { params: idParamsSchema, body: depositInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    const { id } = request.params;
    const fields = depositFields(request.body);
    await ledgers.changeSchedule(owner, async (db) => {
      await depositRepository(db).update(owner, id, fields);
      return { schedule: { kind: 'deposit', id }, deleted: false };
    });
    return info(owner);
  });

  api.delete(routeInApi(DEPOSITS_PATHS.one), { schema: { params: idParamsSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    const { id } = request.params;
    await ledgers.changeSchedule(owner, async (db) => {
      await depositRepository(db).remove(owner, id);
      return { schedule: { kind: 'deposit', id }, deleted: true };
    });
    return info(owner);
  });
};
