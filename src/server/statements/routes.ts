/**
 * Bank statements under /api/ledger/statements. Thin: the contract checks the bodies and the
 * answers, the payloads turn cents into dollars, and StatementService does the work. These two
 * calls carry a whole file, so they alone take bodies above the app's limit.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { statementImportRequestSchema, statementPreviewRequestSchema } from '../../contract/statement-requests.js';
import { STATEMENT_BODY_LIMIT_BYTES, STATEMENT_PATHS, statementImportSchema, statementPreviewSchema } from '../../contract/statements.js';
import { callerOf, chargeRowsWritten, routeInApi } from '../api-scope.js';
import { tagLedgerVersion } from '../ledger/ledger-version-header.js';
import { importAnswer, importDecisions, previewAnswer } from './statement-payloads.js';
import { StatementService } from './statement-service.js';

export const statementRoutes: FastifyPluginAsyncZod = async (api) => {
  const statements = new StatementService(api.database, () => api.now());

  api.post(
    routeInApi(STATEMENT_PATHS.preview),
    { bodyLimit: STATEMENT_BODY_LIMIT_BYTES, schema: { body: statementPreviewRequestSchema, response: { 200: statementPreviewSchema } } },
    async (request) => previewAnswer(await statements.preview(callerOf(request), request.body)),
  );

  api.post(
    routeInApi(STATEMENT_PATHS.import),
    { bodyLimit: STATEMENT_BODY_LIMIT_BYTES, schema: { body: statementImportRequestSchema, response: { 200: statementImportSchema } } },
    async (request, reply) => {
      const result = await statements.import(callerOf(request), request.body, importDecisions(request.body.decisions));
      chargeRowsWritten(request, result.counts.added);
      tagLedgerVersion(reply, result.ledger);
      return importAnswer(result);
    },
  );
};
