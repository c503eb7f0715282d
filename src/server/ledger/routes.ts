/**
 * The ledger calls under /api/ledger. Thin: the contract's schemas check the bodies and the
 * answers, the caller comes from the token, the payloads turn dollars into cents and back, and
 * LedgerService does the work in one transaction.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '../../contract/request-fields.js';
import { forecastSchema, LEDGER_PATHS, ledgerInfoSchema } from '../../contract/ledger.js';
import { transactionUpdateSchema } from '../../contract/ledger-requests.js';
import { createLedgerRequestSchema, extendLedgerRequestSchema, newTransactionSchema } from '../../contract/ledger-requests.js';
import { callerOf, chargeRowsWritten, routeInApi } from '../api-scope.js';
import { todayIn } from '../../domain/calendar-date.js';
import { NotFoundError } from '../../domain/errors.js';
import { forecastAnswer, ledgerAnswer, ledgerFields, requestedRow, transactionDraft } from './ledger-payloads.js';
import { LedgerService, NO_LEDGER } from './ledger-service.js';

export const ledgerRoutes: FastifyPluginAsyncZod = async (api) => {
  const ledgers = new LedgerService(api.database, () => api.now());
  const response = { 200: ledgerInfoSchema };

  api.get(routeInApi(LEDGER_PATHS.retrieve), { schema: { response } }, async (request) =>
    ledgerAnswer(await ledgers.retrieve(callerOf(request))),
  );

  api.get(routeInApi(LEDGER_PATHS.forecast), { schema: { response: { 200: forecastSchema } } }, async (request) => {
    const found = await ledgers.retrieve(callerOf(request));
    if (!found) throw new NotFoundError(NO_LEDGER);
    return forecastAnswer(found, todayIn(api.now()));
  });

  api.post(routeInApi(LEDGER_PATHS.create), { schema: { body: createLedgerRequestSchema, response } }, async (request) => {
    const created = await ledgers.create(callerOf(request), ledgerFields(request.body.ledger));
    chargeRowsWritten(request, created.written);
    return ledgerAnswer(created);
  });

  api.post(routeInApi(LEDGER_PATHS.extend), { schema: { body: extendLedgerRequestSchema, response } }, async (request) => {
    const extended = await ledgers.extend(callerOf(request), request.body.endDate);
    chargeRowsWritten(request, extended.written);
    return ledgerAnswer(extended);
  });

  api.post(routeInApi(LEDGER_PATHS.addTransaction), { schema: { body: newTransactionSchema, response } }, async (request) =>
    ledgerAnswer(await ledgers.addTransaction(callerOf(request), transactionDraft(request.body))),
  );

  api.patch(routeInApi(LEDGER_PATHS.updateTransaction), { schema: { body: transactionUpdateSchema, response } }, async (request) =>
    ledgerAnswer(await ledgers.updateTransaction(callerOf(request), request.body.id, requestedRow(request.body))),
  );

  api.delete(routeInApi(LEDGER_PATHS.transaction), { schema: { params: idParamsSchema, response } }, async (request) =>
    ledgerAnswer(await ledgers.deleteTransaction(callerOf(request), request.params.id)),
  );
};
