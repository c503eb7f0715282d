/**
 * Bank statements under /api/ledger/statements. Thin: the endpoint table's schemas check the
 * bodies and the answers, the payloads turn cents into dollars, and StatementService does the
 * work. These two calls carry a whole file, so their rows give them bodies above the app's limit.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StatementImportRequest, StatementPreviewRequest } from '../../contract/statement-requests.js';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerOf, chargeRowsRead, chargeRowsWritten, userOf } from '../http/api-scope.js';
import { registerLedgerEndpoint } from '../http/endpoint-route.js';
import { tagUndo } from '../http/undo-header.js';
import { type AccountChoice, expectedVersionOf, tagLedgerVersion } from '../ledger/index.js';
import { importAnswer, importDecisions, previewAnswer } from './statement-payloads.js';
import { StatementService } from './statement-service.js';

/**
 * A statement line is about this many characters: a file refused before its rows were counted
 * (unreadable, or too costly for its worker) is charged as that many rows (decision 0031), so
 * refusals cost what reading would have.
 */
const CHARACTERS_PER_STATEMENT_ROW = 100;

/** Runs a statement call, charging the caller for the rows it read, or for the file's size when it was refused. */
async function chargedForRows<T extends { readonly rowsRead: number }>(
  request: FastifyRequest,
  content: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    const result = await work();
    chargeRowsRead(request, result.rowsRead);
    return result;
  } catch (error) {
    chargeRowsRead(request, Math.ceil(content.length / CHARACTERS_PER_STATEMENT_ROW));
    throw error;
  }
}

export const statementRoutes: FastifyPluginAsyncZod = async (api) => {
  const statements = new StatementService(api.database, api.fileWork, () => api.now(), api.ledgerWrites);

  // Each call once, for the account it is given: the one /api/accounts/:id names, or the primary
  // one at the /api/ledger alias (decisions 0042, 0059).
  const preview = async (request: FastifyRequest, account: AccountChoice, body: StatementPreviewRequest) =>
    previewAnswer(await chargedForRows(request, body.content, () => statements.preview(callerOf(request), userOf(request), account, body)));

  const importFile = async (request: FastifyRequest, reply: FastifyReply, account: AccountChoice, body: StatementImportRequest) => {
    const result = await chargedForRows(request, body.content, () =>
      statements.import(callerOf(request), userOf(request), account, body, importDecisions(body.decisions), expectedVersionOf(request)),
    );
    chargeRowsWritten(request, result.counts.added);
    tagLedgerVersion(reply, result.ledger);
    tagUndo(reply, result.undo);
    return importAnswer(result);
  };

  registerLedgerEndpoint(api, 'previewStatement', async (request, _reply, account) => preview(request, account, request.body));
  registerLedgerEndpoint(api, 'importStatement', async (request, reply, account) => importFile(request, reply, account, request.body));
};
