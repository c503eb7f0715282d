/** The ETag header that names the version of the ledger an answer carries (decision 0030). */
import type { FastifyReply } from 'fastify';
import { ledgerEtag } from '../../contract/ledger.js';
import { versionOf } from './ledger-payloads.js';
import type { LedgerWithRows } from './ledger-service.js';

export function tagLedgerVersion(reply: FastifyReply, found: LedgerWithRows | undefined): void {
  if (found) reply.header('etag', ledgerEtag(versionOf(found.ledger)));
}
