/**
 * The headers that name versions of the ledger (decision 0030): the ETag an answer carrying a
 * ledger names its version in, and the If-Match a write may send to go ahead only at that version.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ledgerEtag } from '../../contract/ledger.js';
import { InvalidInputError } from '../../domain/errors.js';
import { chargeRowsRead } from '../http/api-scope.js';
import { ANY_LEDGER_VERSION, versionOf } from './ledger-version.js';
import type { StoredLedger } from './ledger-record.js';

export function tagLedgerVersion(reply: FastifyReply, found: { readonly ledger: StoredLedger } | undefined): void {
  if (found) reply.header('etag', ledgerEtag(versionOf(found.ledger)));
}

/** A ledger answer written and checked against its schema elsewhere (the big writes' thread), as this server's serializer would. */
export interface LedgerAnswerText {
  readonly etag: string;
  readonly body: string;
  /** Rows in the answer: charged as read, as an answer carrying a ledger is. */
  readonly rows: number;
}

/** Sends a ledger answer already written as text, its version in the ETag (the reply's type names objects; this is their text). */
export function sendLedgerText(request: FastifyRequest, reply: FastifyReply, answer: LedgerAnswerText): FastifyReply {
  reply.header('etag', answer.etag).type('application/json; charset=utf-8');
  chargeRowsRead(request, answer.rows);
  return reply.send(answer.body);
}

/** One entity tag, weak (as the ETag names it) or strong; the version inside is opaque. */
const ENTITY_TAG = /^(?:W\/)?"([\x21\x23-\x7e]*)"$/;
const BAD_IF_MATCH = 'If-Match must be the ETag of the ledger you hold (W/"<version>" or "<version>"), or *.';

/**
 * The version a write's If-Match asks for, for checkExpectedVersion to compare under the owner's
 * lock: the version inside `W/"<version>"` or `"<version>"`, ANY_LEDGER_VERSION for `*`, null
 * without the header. A list of tags or anything else is refused (400), not taken as no condition.
 */
export function expectedVersionOf(request: FastifyRequest): string | null {
  const header = request.headers['if-match'];
  if (header === undefined) return null;
  const value = header.trim();
  if (value === ANY_LEDGER_VERSION) return ANY_LEDGER_VERSION;
  const tag = ENTITY_TAG.exec(value);
  if (tag?.[1] === undefined) throw new InvalidInputError(BAD_IF_MATCH, { 'if-match': BAD_IF_MATCH });
  return tag[1];
}
