/**
 * The statement calls as the api client sends them: each one's row of the endpoint table and the
 * codec of its answer (decision 0034). A lazy chunk, loaded by the first statement call, so the
 * page's first view carries neither the statement answers' schemas nor their codecs (benchmark 4a).
 */
import { statementImportCodec, statementPreviewCodec } from '../../contract/statement-codecs.js';
import type { StatementImportRequest, StatementPreviewRequest } from '../../contract/statement-requests.js';
import type { Endpoints } from './api-request.js';

export const previewStatementCall = (at: Endpoints, body: StatementPreviewRequest) => ({
  ...at('previewStatement'),
  answer: statementPreviewCodec,
  body,
});

export const importStatementCall = (at: Endpoints, body: StatementImportRequest) => ({
  ...at('importStatement'),
  answer: statementImportCodec,
  body,
});
