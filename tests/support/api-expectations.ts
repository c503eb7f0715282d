/** What API tests expect of refusals, said once for every resource's tests. */
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { UNDO_HEADER } from '../../src/contract/common.js';
import { expect } from 'vitest';
import { errorBodySchema } from '../../src/contract/errors.js';

/** Stored rows answer with time-ordered UUIDs (version 7; src/server/db/ids.ts). */
export const ROW_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const FIELDS_MESSAGE = 'Some fields need attention.';

export const AMOUNT_MESSAGES = {
  notNumber: 'Amount must be a number.',
  notPositive: 'Amount must be greater than 0.',
  tooLarge: 'Amount must be at most $99,999,999.99.',
  decimals: 'Amount must have at most two decimal places.',
} as const;

/** A 400 with the contract's error body, naming exactly the given fields. */
export function expectBadRequest(response: LightMyRequestResponse, fields: Record<string, string>, message = FIELDS_MESSAGE): void {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(errorBodySchema.parse(response.json())).toEqual({ error: { code: 'bad_request', message, fields } });
}

/** A 404 with the resource's own message: a foreign id looks exactly like a missing one. */
export function expectNotFound(response: LightMyRequestResponse, message: string): void {
  expect(response.statusCode, response.body).toBe(404);
  expect(response.json()).toEqual({ error: { code: 'not_found', message } });
}

/** Every test signs in as its own user, so tests sharing one database never see each other's rows. */
export function newSubject(prefix: string): string {
  return `${prefix}-${crypto.randomUUID()}`;
}

/** The token of a write's `Leftover-Undo` header (decision 0040); a write without one fails the test. */
export function undoToken(response: LightMyRequestResponse): string {
  const token = response.headers[UNDO_HEADER];
  if (typeof token !== 'string') throw new Error(`no ${UNDO_HEADER} header on ${response.body.slice(0, 200)}`);
  return token;
}

/** The per-account path of an /api/ledger alias: `/api/ledger/x` becomes `/api/accounts/{id}/ledger/x` (decision 0042). */
export function inAccount(path: string, accountId: string): string {
  return path.replace(/^\/api\/ledger\//, `/api/accounts/${encodeURIComponent(accountId)}/ledger/`);
}
