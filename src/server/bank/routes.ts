/**
 * Bank connections under /api/bank-connections (issue 37, decision 0082). Thin: the endpoint table's
 * schemas check the bodies and answers, and BankService does the work.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountFields } from '../accounts/accounts-payloads.js';
import { callerOf, memberOf } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import type { BankService } from './bank-service.js';

export interface BankRoutesOptions {
  readonly bank: BankService;
}

export const bankRoutes: FastifyPluginAsyncZod<BankRoutesOptions> = async (api, { bank }) => {
  registerEndpoint(api, 'connectBank', async (request) => bank.connect(callerOf(request), memberOf(request), request.body.setupToken));
  registerEndpoint(api, 'listBankConnections', async (request) => ({ connections: await bank.list(callerOf(request), memberOf(request)) }));
  registerEndpoint(api, 'linkBankAccount', async (request) => {
    const { body } = request;
    const target = body.newAccount !== undefined ? { newAccount: accountFields(body.newAccount) } : { accountId: body.accountId ?? null };
    return bank.link(callerOf(request), memberOf(request), request.params.id, request.params.remoteId, target);
  });
  registerEndpoint(api, 'syncBankConnection', async (request) => bank.sync(callerOf(request), request.params.id, 'now', memberOf(request)));
  registerEndpoint(api, 'disconnectBank', async (request) => ({
    connections: await bank.disconnect(callerOf(request), memberOf(request), request.params.id),
  }));
};
