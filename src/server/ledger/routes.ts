/**
 * The ledger calls under /api/ledger. Thin: the contract's schemas check the bodies and the
 * answers, the caller comes from the token, and LedgerService does the work in one transaction.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../contract/common.js';
import { createLedgerRequestSchema, ledgerInfoSchema, newTransactionSchema, transactionUpdateSchema } from '../../contract/ledger.js';
import { callerOf } from '../api-scope.js';
import { LedgerService } from './ledger-service.js';

export const ledgerRoutes: FastifyPluginAsyncZod = async (api) => {
  const ledgers = new LedgerService(api.database, () => api.now());
  const response = { 200: ledgerInfoSchema };

  api.get('/ledger/retrieve-ledger', { schema: { response } }, async (request) => ledgers.retrieve(callerOf(request)));

  api.post('/ledger/create-ledger', { schema: { body: createLedgerRequestSchema, response } }, async (request) =>
    ledgers.create(callerOf(request), request.body.ledger),
  );

  api.post('/ledger/add-transaction', { schema: { body: newTransactionSchema, response } }, async (request) =>
    ledgers.addTransaction(callerOf(request), request.body),
  );

  api.patch('/ledger/update-transaction', { schema: { body: transactionUpdateSchema, response } }, async (request) =>
    ledgers.updateTransaction(callerOf(request), request.body),
  );

  api.delete('/ledger/transactions/:id', { schema: { params: idParamsSchema, response } }, async (request) =>
    ledgers.deleteTransaction(callerOf(request), request.params.id),
  );
};
