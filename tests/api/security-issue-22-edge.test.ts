/**
 * Issue 22, finding 7: `Cache-Control: no-store` is the default of every answer, whatever its
 * request line looks like. A percent-encoded path or an absolute-form request line reaches the API
 * as Fastify decodes it, so a rule keyed on the address as sent would miss it; only the page, its
 * hashed assets and the service worker say how they may be kept.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { MINIATURE_SCRIPT, miniatureWebRoot, parseRawAnswer, rawExchange } from '../support/miniature-page.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('Cache-Control whatever the request line', () => {
  let test: TestApp;
  let webRoot: string;
  let port: number;
  let token: string;

  beforeAll(async () => {
    webRoot = miniatureWebRoot();
    test = await startTestApp('sqlite', { webRoot });
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    const address = test.app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('not listening');
    port = address.port;
    token = await test.issuer.token('cache-line-user');
    const created = await test
      .as('cache-line-user')
      .post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2026-11-30', currentBalance: 321 } });
    expect(created.statusCode, created.body).toBe(200);
  });
  afterAll(async () => {
    await test?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  async function exchange(requestLine: string, extra: Record<string, string> = {}, body = '') {
    const headers: Record<string, string> = { Host: 'localhost', Authorization: `Bearer ${token}`, Connection: 'close', ...extra };
    if (body !== '') headers['Content-Length'] = String(Buffer.byteLength(body));
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    return parseRawAnswer(await rawExchange(port, `${requestLine}\r\n${head.join('')}\r\n${body}`));
  }

  it("answers the user's ledger with no-store through a percent-encoded path and an absolute-form request line", async () => {
    for (const line of [
      'GET /ap%69/ledger/retrieve-ledger HTTP/1.1',
      'GET http://evil.example/api/ledger/retrieve-ledger HTTP/1.1',
      'GET http://evil.example/api/me HTTP/1.1',
    ]) {
      const answer = await exchange(line);
      expect(answer.status, line).toBe(200);
      expect(answer.headers['cache-control'], line).toBe('no-store');
    }
    // The ledger really was in it: these are the answers a shared cache must never keep.
    const ledger = await exchange('GET /ap%69/ledger/retrieve-ledger HTTP/1.1');
    expect(ledger.body).toContain('"openingBalance":321');
  });

  it('answers a 404 and a refusal with no-store, inside and outside the API', async () => {
    const answers = [
      ['404 outside the API', await exchange('POST /nothing-here HTTP/1.1', {}, '{}')],
      ['404 absolute-form', await exchange('GET http://evil.example/api/nothing-here HTTP/1.1')],
      ['404 percent-encoded', await exchange('GET /ap%69/nothing-here HTTP/1.1')],
      [
        '400 absolute-form',
        await exchange('POST http://evil.example/api/deposits/add-deposit HTTP/1.1', { 'Content-Type': 'application/json' }, '{'),
      ],
      ['400 percent-encoded', await exchange('POST /ap%69/deposits/add-deposit HTTP/1.1', { 'Content-Type': 'application/json' }, '{}')],
    ] as const;
    for (const [label, answer] of answers) {
      expect(answer.status, label).toBeGreaterThanOrEqual(400);
      expect(answer.headers['cache-control'], label).toBe('no-store');
    }
    expect(answers.map(([, answer]) => answer.status)).toEqual([404, 404, 404, 400, 400]);
  });

  it('still lets the page, its hashed assets and the service worker say how they may be kept', async () => {
    expect((await exchange(`GET ${MINIATURE_SCRIPT} HTTP/1.1`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const line of ['GET / HTTP/1.1', 'GET /sw.js HTTP/1.1', 'GET /ledger HTTP/1.1']) {
      const answer = await exchange(line);
      expect(answer.status, line).toBe(200);
      expect(answer.headers['cache-control'], line).toBe('no-cache');
    }
  });
});
