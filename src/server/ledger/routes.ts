/**
 * The ledger calls under /api/ledger. Thin: the contract's schemas check the bodies and the
 * answers, the caller comes from the token, the payloads turn dollars into cents and back, and
 * LedgerService does the work in one transaction. Every write takes an optional If-Match: with a
 * version the ledger is no longer at, it answers 412 and changes nothing. The schedules a ledger is
 * projected from are passed in by the app (a ScheduleReader): the ledger imports neither deposits
 * nor expenses.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import { callerOf, chargeRowsRead, chargeRowsWritten } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import { tagUndo } from '../http/undo-header.js';
import { todayIn } from '../../domain/calendar-date.js';
import { NotFoundError } from '../../domain/errors.js';
import { changesAnswer, forecastAnswer, ledgerAnswer, ledgerFields, requestedRow, transactionDraft } from './ledger-payloads.js';
import { type LedgerWithRows, NO_LEDGER, type ScheduleReader } from './index.js';
import { type LedgerRowWrite, LedgerService } from './ledger-service.js';
import { expectedVersionOf, tagLedgerVersion } from './ledger-version-header.js';

/** The whole ledger, its version in the ETag header (decision 0030). */
function versionedLedgerAnswer(reply: FastifyReply, found: LedgerWithRows | undefined) {
  tagLedgerVersion(reply, found);
  return ledgerAnswer(found);
}

/**
 * A write of one row answers the whole ledger, or only its changes when asked (decision 0030), and
 * names the token that undoes it when it changed something (decision 0040).
 */
function rowWriteAnswer(reply: FastifyReply, written: LedgerRowWrite, query: { answer?: 'ledger' | 'changes' | undefined }) {
  tagLedgerVersion(reply, written);
  tagUndo(reply, written.undo);
  return query.answer === 'changes' ? changesAnswer(written) : ledgerAnswer(written);
}

export interface LedgerRoutesOptions {
  /** The owner's deposits and expenses, read by their own modules (app.ts passes readLedgerSchedules). */
  readonly schedules: ScheduleReader;
}

export const ledgerRoutes: FastifyPluginAsyncZod<LedgerRoutesOptions> = async (api, { schedules }) => {
  const ledgers = new LedgerService(api.database, () => api.now(), schedules);

  registerEndpoint(api, 'getLedger', async (request, reply) => versionedLedgerAnswer(reply, await ledgers.retrieve(callerOf(request))));

  registerEndpoint(api, 'getForecast', async (request) => {
    const found = await ledgers.retrieve(callerOf(request));
    if (!found) throw new NotFoundError(NO_LEDGER);
    // The answer is small, but the work is every row of the ledger: charged by the rows read.
    chargeRowsRead(request, found.rows.length);
    return forecastAnswer(found, todayIn(api.now()));
  });

  registerEndpoint(api, 'createLedger', async (request, reply) => {
    const created = await ledgers.create(callerOf(request), ledgerFields(request.body.ledger), expectedVersionOf(request));
    chargeRowsWritten(request, created.written);
    return versionedLedgerAnswer(reply, created);
  });

  registerEndpoint(api, 'extendLedger', async (request, reply) => {
    const extended = await ledgers.extend(callerOf(request), request.body.endDate, expectedVersionOf(request));
    chargeRowsWritten(request, extended.written);
    tagUndo(reply, extended.undo);
    return versionedLedgerAnswer(reply, extended);
  });

  registerEndpoint(api, 'addTransaction', async (request, reply) =>
    rowWriteAnswer(
      reply,
      await ledgers.addTransaction(callerOf(request), transactionDraft(request.body), expectedVersionOf(request)),
      request.query,
    ),
  );

  registerEndpoint(api, 'updateTransaction', async (request, reply) =>
    rowWriteAnswer(
      reply,
      await ledgers.updateTransaction(callerOf(request), request.body.id, requestedRow(request.body), expectedVersionOf(request)),
      request.query,
    ),
  );

  registerEndpoint(api, 'deleteTransaction', async (request, reply) =>
    rowWriteAnswer(reply, await ledgers.deleteTransaction(callerOf(request), request.params.id, expectedVersionOf(request)), request.query),
  );
};
