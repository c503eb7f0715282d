/**
 * Untrusted files are read where they cannot hurt anyone else (issue 22, decision 0031): statements
 * and restores are parsed, matched and checked in worker threads with a time and a memory limit, so
 * a file that costs too much fails alone with 413 and the server carries on; a user has one file in
 * the works at a time; and calls are charged by the rows they read or answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { callCost } from '../../src/server/http/rate-limit.js';
import { FILE_ALREADY_IN_THE_WORKS, FILE_TOO_COMPLEX } from '../../src/server/file-work/file-work-pool.js';
import { VALID_EXPORT_DOCUMENT, VALID_DEPOSIT, VALID_EXPENSE, VALID_LEDGER } from '../support/api-calls.js';
import { ledgerOf } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PREVIEW = '/api/ledger/statements/preview';
const IMPORT = '/api/ledger/statements/import';
const RESTORE = '/api/account/import';

/** A CSV statement of `count` rows in November 2026 (inside VALID_LEDGER's dates), about 2 MB at 40,000. */
function csvStatement(count: number): string {
  const lines = ['Date,Description,Amount'];
  for (let index = 0; index < count; index += 1)
    lines.push(`2026-11-${String(1 + (index % 28)).padStart(2, '0')},Shop ${index},-1.${index % 100}`);
  return `${lines.join('\n')}\n`;
}

describe.each(databaseKinds())('file workers on %s', (kind) => {
  describe('with a time limit no real file can meet', () => {
    let test: TestApp;
    beforeAll(async () => {
      test = await startTestApp(kind, { env: { FILE_WORKER_TIMEOUT_MS: '100' } });
      expect((await test.as('alice').post('/api/ledger/create-ledger', VALID_LEDGER)).statusCode).toBe(200);
    });
    afterAll(async () => test?.close());

    it('answers a file that runs out of time 413 with the message, changes nothing, and serves everyone after', async () => {
      const alice = test.as('alice');
      const before = await test.snapshot();
      // The largest statement the product reads (2 MB): its worker is stopped at 100 ms.
      const content = csvStatement(9_000).padEnd(2 * 1024 * 1024 - 10, '\n');
      for (const url of [PREVIEW, IMPORT]) {
        const response = await alice.post(url, { fileName: 'big.csv', content });
        expect(response.statusCode, response.body).toBe(413);
        const body = strictErrorBodySchema.parse(response.json());
        expect(body.error).toEqual({ code: 'payload_too_large', message: FILE_TOO_COMPLEX, fields: { content: FILE_TOO_COMPLEX } });
      }
      expect(await test.snapshot()).toBe(before);
      expect((await test.as('bob').get('/api/me')).statusCode).toBe(200);
      expect((await alice.get('/api/ledger/retrieve-ledger')).statusCode).toBe(200);
    });
  });

  describe('with a heap too small for a large restore', () => {
    let test: TestApp;
    beforeAll(async () => {
      // A heap near its limit collects garbage ever more often before it gives up: the time limit
      // ends that sooner, and either way the restore is refused alone.
      test = await startTestApp(kind, { env: { FILE_WORKER_MEMORY_MB: '32', FILE_WORKER_TIMEOUT_MS: '3000' } });
    });
    afterAll(async () => test?.close());

    it('answers a restore too costly to check (3 million objects for a 32 MB heap) 413 on the body, changes nothing, and serves everyone after', async () => {
      const alice = test.as('alice');
      expect((await alice.post('/api/ledger/create-ledger', VALID_LEDGER)).statusCode).toBe(200);
      const before = await test.snapshot();
      // 9 MB of JSON that is 3 million empty objects: many times its size as a parsed heap.
      const body = `{"format":"leftover-export","version":1,"deposits":[],"expenses":[],"ledger":{"transactions":[${'{},'.repeat(3_000_000)}{}]}}`;
      expect(body.length).toBeLessThan(10 * 1024 * 1024);
      const response = await alice.request('POST', RESTORE, body);
      expect(response.statusCode, response.body).toBe(413);
      expect(strictErrorBodySchema.parse(response.json()).error).toEqual({
        code: 'payload_too_large',
        message: FILE_TOO_COMPLEX,
        fields: { body: FILE_TOO_COMPLEX },
      });
      expect(await test.snapshot()).toBe(before);
      expect((await test.as('bob').get('/api/me')).statusCode).toBe(200);
    });
  });

  describe('with the default limits', () => {
    let test: TestApp;
    beforeAll(async () => {
      test = await startTestApp(kind, { rateLimit: { perUserPerMinute: 1_000 } });
      expect((await test.as('alice').post('/api/deposits/add-deposit', VALID_DEPOSIT)).statusCode).toBe(200);
      expect((await test.as('alice').post('/api/expenses/add-expense', VALID_EXPENSE)).statusCode).toBe(200);
      for (const subject of ['alice', 'bob']) {
        expect((await test.as(subject).post('/api/ledger/create-ledger', VALID_LEDGER)).statusCode).toBe(200);
      }
    });
    afterAll(async () => test?.close());

    it('reads one file of a user at a time: a second at once answers 429, another user is served meanwhile', async () => {
      const content = csvStatement(5_000);
      const [first, second, other] = await Promise.all([
        test.as('alice').post(PREVIEW, { fileName: 'a.csv', content }),
        test.as('alice').post(PREVIEW, { fileName: 'b.csv', content }),
        test.as('bob').post(PREVIEW, { fileName: 'c.csv', content }),
      ]);
      // Whichever of the user's two arrived first is read; the other is turned away at once.
      const [read, refused] = first.statusCode === 200 ? [first, second] : [second, first];
      expect(read.statusCode, read.body).toBe(200);
      expect(refused.statusCode, refused.body).toBe(429);
      expect(strictErrorBodySchema.parse(refused.json()).error.message).toBe(FILE_ALREADY_IN_THE_WORKS);
      expect(refused.headers['retry-after']).toBe('1');
      expect(other.statusCode, other.body).toBe(200);
      // Once the first is done, the user's next file is read.
      expect((await test.as('alice').post(PREVIEW, { fileName: 'b.csv', content })).statusCode).toBe(200);
    });

    it('checks a restore in its worker with the answers the schema gives: bad JSON and bad fields are 400 per field', async () => {
      const alice = test.as('alice');
      const before = await test.snapshot();
      const notJson = await alice.request('POST', RESTORE, '{"format": ');
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json()).toEqual({
        error: {
          code: 'bad_request',
          message: 'The request body is not valid JSON.',
          fields: { body: 'The request body is not valid JSON.' },
        },
      });
      // Nothing sent, without a Content-Type: refused as not JSON (found by the endpoint fuzzer: it was a 500).
      const nothing = await test.app.inject({
        method: 'POST',
        url: RESTORE,
        headers: { authorization: `Bearer ${await test.issuer.token('alice')}` },
      });
      expect(nothing.statusCode, nothing.body).toBe(400);
      expect(strictErrorBodySchema.parse(nothing.json()).error.fields).toEqual({ body: 'The request body is not valid JSON.' });
      // A document that would be restored, but carries a prototype key: refused as Fastify refuses every other body.
      const withProto = JSON.stringify(VALID_EXPORT_DOCUMENT).replace(/^\{/, '{"__proto__":{"polluted":true},');
      const polluted = await alice.request('POST', RESTORE, withProto);
      expect(polluted.statusCode, polluted.body).toBe(400);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const wrongFormat = await alice.post(RESTORE, { format: 'other', version: 1, deposits: [], expenses: [], ledger: null });
      expect(wrongFormat.statusCode).toBe(400);
      const fields = strictErrorBodySchema.parse(wrongFormat.json()).error.fields ?? {};
      expect(fields.format).toMatch(/not a Leftover export/);
      expect(await test.snapshot()).toBe(before);
    });

    it('imports a statement only at the version its If-Match names: a stale one answers 412 and changes nothing', async () => {
      const bob = test.as('bob');
      const importIfMatch = async (content: string, ifMatch: string) =>
        test.app.inject({
          method: 'POST',
          url: IMPORT,
          headers: { authorization: `Bearer ${await test.issuer.token('bob')}`, 'if-match': ifMatch },
          payload: { fileName: 'a.csv', content },
        });
      const content = csvStatement(3);
      const held = (await bob.get('/api/ledger/retrieve-ledger')).headers.etag as string;
      expect(held).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/);
      expect(
        (await bob.post('/api/ledger/add-transaction', { date: '2026-11-20', name: 'Coffee', type: 'D', amount: 4.5 })).statusCode,
      ).toBe(200);
      const before = await test.snapshot();
      const stale = await importIfMatch(content, held);
      expect(stale.statusCode, stale.body).toBe(412);
      expect(strictErrorBodySchema.parse(stale.json()).error.code).toBe('precondition_failed');
      expect(await test.snapshot()).toBe(before);
      const current = (await bob.get('/api/ledger/retrieve-ledger')).headers.etag as string;
      const imported = await importIfMatch(content, current);
      expect(imported.statusCode, imported.body).toBe(200);
      expect(imported.json().imported.added).toBe(3);
      expect(imported.headers.etag).not.toBe(current);
    });

    it('charges a read by the rows it answers and a preview by the rows it read, as a create is charged by the rows it writes', async () => {
      const alice = test.as('alice');
      const read = await alice.get('/api/ledger/retrieve-ledger');
      const rows = ledgerOf(read).transactions.length;
      expect(rows).toBeGreaterThan(1);
      const me = await alice.get('/api/me');
      const remaining = Number(me.headers['x-ratelimit-remaining']);
      const again = await alice.get('/api/ledger/retrieve-ledger');
      expect(Number(again.headers['x-ratelimit-remaining'])).toBe(remaining - callCost(rows));

      const statementRows = 700;
      const preview = await alice.post(PREVIEW, { fileName: 'a.csv', content: csvStatement(statementRows) });
      expect(preview.statusCode).toBe(200);
      expect(Number(preview.headers['x-ratelimit-remaining'])).toBe(remaining - callCost(rows) - callCost(statementRows + rows));
    });
  });
});
