/** Deposits: list, add, change and remove; every call answers the caller's full deposits info. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../contract/common.js';
import { depositInputSchema, type DepositsInfo, depositsInfoSchema } from '../../contract/deposits.js';
import { centsToDollars } from '../../domain/money.js';
import { totalMonthlyDeposits } from '../../domain/schedules.js';
import { callerOf } from '../api-scope.js';
import { DepositRepository, type StoredDeposit } from './deposit-repository.js';

function depositsInfo(deposits: readonly StoredDeposit[]): DepositsInfo {
  return {
    deposits: deposits.map(({ amount, ...deposit }) => ({ ...deposit, amount: centsToDollars(amount) })),
    totalDeposits: centsToDollars(totalMonthlyDeposits(deposits)),
  };
}

export const depositRoutes: FastifyPluginAsyncZod = async (api) => {
  const deposits = new DepositRepository(api.database.db);
  const answer = { response: { 200: depositsInfoSchema } };

  api.get('/deposits/retrieve-deposits', { schema: answer }, async (request) => {
    return depositsInfo(await deposits.list(callerOf(request)));
  });

  api.post('/deposits/add-deposit', { schema: { body: depositInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await deposits.add(owner, request.body);
    return depositsInfo(await deposits.list(owner));
  });

  api.put('/deposits/:id', { schema: { params: idParamsSchema, body: depositInputSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await deposits.update(owner, request.params.id, request.body);
    return depositsInfo(await deposits.list(owner));
  });

  api.delete('/deposits/:id', { schema: { params: idParamsSchema, ...answer } }, async (request) => {
    const owner = callerOf(request);
    await deposits.remove(owner, request.params.id);
    return depositsInfo(await deposits.list(owner));
  });
};
