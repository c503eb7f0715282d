/**
 * Your data (issue 15): the ledger as CSV, everything as one document, restore and delete. Thin:
 * the endpoint table's schemas check bodies and answers, the payloads turn dollars into cents and back, and
 * YourDataService does the work in one transaction per call.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ledgerCsvFileName } from '../../contract/ledger-csv.js';
import { RESTORE_BODY_LIMIT_BYTES, type YourDataCounts } from '../../contract/your-data.js';
import { NotFoundError } from '../../domain/errors.js';
import type { Caller, SignedInUser } from '../auth/access-token.js';
import { type BudgetMembership, callerOf, chargeRowsRead, chargeRowsWritten, userOf } from '../http/api-scope.js';
import { registerEndpoint, registerLedgerEndpoint } from '../http/endpoint-route.js';
import { type AccountChoice, NO_LEDGER, readLedger } from '../ledger/index.js';
import { type PackedStorableData, rowCount, unpackStorableData } from './your-data.js';
import { exportDocument } from './your-data-payloads.js';
import { YourDataService } from './your-data-service.js';
import { ledgerCsv } from './ledger-csv.js';

export interface YourDataRoutesOptions {
  /** "Delete everything" leaves the person's shared budgets too (decision 0095): the budgets' service does it, erasing through this module. */
  readonly deleteEverything: (user: SignedInUser, budget: BudgetMembership | undefined) => Promise<YourDataCounts>;
  /** Where a restore runs: a thread of its own, given the file worker's text as it is (decision 0103). */
  readonly restoreElsewhere?: (owner: Caller, data: PackedStorableData) => Promise<YourDataCounts>;
}

export const yourDataRoutes: FastifyPluginAsyncZod<YourDataRoutesOptions> = async (api, { deleteEverything, restoreElsewhere }) => {
  const yourData = new YourDataService(api.database, () => api.now(), api.ledgerWrites);

  // The ledger of the account /api/accounts/:id names, or the primary one's at /api/ledger (decisions 0042, 0059).
  const csv = async (request: FastifyRequest, reply: FastifyReply, account: AccountChoice) => {
    const found = await readLedger(api.database, callerOf(request), account);
    if (!found) throw new NotFoundError(NO_LEDGER);
    const fileName = ledgerCsvFileName(found.ledger.startDate, found.ledger.endDate);
    chargeRowsRead(request, found.rows.length);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .header('Cache-Control', 'no-store')
      .send(await ledgerCsv(found));
  };
  registerLedgerEndpoint(api, 'exportLedgerCsv', async (request, reply, account) => csv(request, reply, account));

  registerEndpoint(api, 'exportYourData', async (request, reply) => {
    const data = await yourData.export(callerOf(request));
    chargeRowsRead(request, rowCount(data));
    const exportedAt = api.now();
    reply.header('Cache-Control', 'no-store');
    return exportDocument(data, exportedAt);
  });

  // A restore document (up to 10 MB) is parsed and checked in a worker thread (issue 22): the
  // body stays text here, the schema is still the contract's (and the OpenAPI document's), and a
  // document too costly to check fails alone with 413.
  await api.register(async (restore) => {
    // JSON only, as everywhere else: any other type is refused before the body is read.
    restore.removeAllContentTypeParsers();
    // As bytes: decoding 10 MB of text here, then copying it to the worker, held the event loop (decision 0072).
    restore.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: RESTORE_BODY_LIMIT_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    registerEndpoint(
      restore,
      'restoreYourData',
      async (request) => {
        // No body at all (no Content-Type, nothing sent) is checked as empty text: 400, not JSON.
        const body = request.body instanceof Uint8Array ? request.body : new Uint8Array(0);
        const owner = callerOf(request);
        // One file in the works per person, whatever budget it is for (decision 0088).
        const packed = await api.fileWork.forOwner(userOf(request), 'body', (run) => run({ kind: 'check-restore', body }));
        const counts = restoreElsewhere
          ? await restoreElsewhere(owner, packed)
          : await yourData.restore(owner, await unpackStorableData(packed));
        chargeRowsWritten(request, counts.transactions);
        return counts;
      },
      // The body is checked against the row's schema in the worker (file-tasks.ts), with the same answers.
      { validatorCompiler: () => (body: unknown) => ({ value: body }) },
    );
  });

  registerEndpoint(api, 'deleteYourData', async (request) => deleteEverything(userOf(request), request.member?.budget));
};
