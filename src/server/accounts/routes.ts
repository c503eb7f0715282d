/**
 * Accounts under /api/accounts (issue 25, decision 0042): list, add, rename or make primary, and
 * delete. Thin: the endpoint table's schemas check the bodies and answers, the payloads turn
 * dollars into cents and back, and AccountsService does the work. Each account's ledger calls are
 * the ledger's own routes (ledger/routes.ts, statements/routes.ts, account/routes.ts for the CSV).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import { accountAnswer, accountChange, accountFields } from './accounts-payloads.js';
import { AccountsService } from './accounts-service.js';

export const accountsRoutes: FastifyPluginAsyncZod = async (api) => {
  const accounts = new AccountsService(api.database, api.ledgerWrites);

  // A viewer's read never writes: no first account is made for them (decision 0095).
  registerEndpoint(api, 'listAccounts', async (request) => ({
    accounts: (await accounts.list(callerOf(request), request.member?.role !== 'VIEWER')).map(accountAnswer),
  }));

  registerEndpoint(api, 'addAccount', async (request) => accountAnswer(await accounts.add(callerOf(request), accountFields(request.body))));

  registerEndpoint(api, 'updateAccount', async (request) =>
    accountAnswer(await accounts.update(callerOf(request), request.params.id, accountChange(request.body))),
  );

  registerEndpoint(api, 'removeAccount', async (request) => ({
    accounts: (await accounts.remove(callerOf(request), request.params.id, request.body.confirm)).map(accountAnswer),
  }));
};
