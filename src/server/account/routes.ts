/**
 * Your data (issue 15): the ledger as CSV, everything as one document, restore and delete. Thin:
 * the contract checks bodies and answers, the payloads turn dollars into cents and back, and
 * AccountService does the work in one transaction per call.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_IMPORT_BODY_LIMIT_BYTES,
  ACCOUNT_PATHS,
  accountCountsSchema,
  accountExportSchema,
  ledgerCsvFileName,
} from '../../contract/account.js';
import { accountImportRequestSchema, deleteAccountRequestSchema } from '../../contract/account-requests.js';
import { NotFoundError } from '../../domain/errors.js';
import { callerOf, chargeRowsWritten, routeInApi } from '../api-scope.js';
import { LedgerService, NO_LEDGER } from '../ledger/ledger-service.js';
import { exportDocument, restoredData } from './account-payloads.js';
import { AccountService } from './account-service.js';
import { ledgerCsv } from './ledger-csv.js';

export const accountRoutes: FastifyPluginAsyncZod = async (api) => {
  const ledgers = new LedgerService(api.database, () => api.now());
  const accounts = new AccountService(api.database, () => api.now());

  api.get(routeInApi(ACCOUNT_PATHS.ledgerCsv), async (request, reply) => {
    const found = await ledgers.retrieve(callerOf(request));
    if (!found) throw new NotFoundError(NO_LEDGER);
    const fileName = ledgerCsvFileName(found.ledger.startDate, found.ledger.endDate);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(ledgerCsv(found));
  });

  api.get(routeInApi(ACCOUNT_PATHS.export), { schema: { response: { 200: accountExportSchema } } }, async (request, reply) => {
    const data = await accounts.export(callerOf(request));
    const exportedAt = api.now();
    reply.header('Cache-Control', 'no-store');
    return exportDocument(data, exportedAt);
  });

  api.post(
    routeInApi(ACCOUNT_PATHS.import),
    { bodyLimit: ACCOUNT_IMPORT_BODY_LIMIT_BYTES, schema: { body: accountImportRequestSchema, response: { 200: accountCountsSchema } } },
    async (request) => {
      const counts = await accounts.restore(callerOf(request), restoredData(request.body));
      chargeRowsWritten(request, counts.transactions);
      return counts;
    },
  );

  api.delete(
    routeInApi(ACCOUNT_PATHS.account),
    { schema: { body: deleteAccountRequestSchema, response: { 200: accountCountsSchema } } },
    async (request) => accounts.delete(callerOf(request)),
  );
};
