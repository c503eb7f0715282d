/**
 * What every answer says about itself (OWASP ASVS 3.4) and what it never says: a strict Content
 * Security Policy, nosniff, no referrer and HSTS on the page and on every API answer, refusals and
 * failures included; and an internal failure (here a missing table, a closed database) answers the
 * generic 500 body with no stack trace or SQL, the detail going to the log.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { BODY_LIMIT_BYTES } from '../../src/server/app.js';
import { API_CALLS, type ApiCall, callName } from '../support/api-calls.js';
import { MINIATURE_SCRIPT, miniatureWebRoot, parseRawAnswer, rawExchange } from '../support/miniature-page.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const strictErrorBody = strictErrorBodySchema;
const INTERNAL_ERROR = {
  error: { code: 'internal_error', message: 'Something went wrong on our side. Try again; if it keeps happening, tell us.' },
};

/** The policy the issue asks for, directive by directive, and nothing that would weaken it. */
function expectStrictHeaders(headers: LightMyRequestResponse['headers'] | Record<string, string | undefined>, context: string): void {
  const policy = String(headers['content-security-policy']);
  for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
    expect(policy, `${context}: ${policy}`).toContain(directive);
  }
  expect(policy, context).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  expect(headers['x-content-type-options'], context).toBe('nosniff');
  expect(headers['referrer-policy'], context).toBe('no-referrer');
  expect(headers['strict-transport-security'], context).toBe('max-age=31536000; includeSubDomains');
  expect(headers['x-powered-by'], context).toBeUndefined();
}

/** The built page's shape (decision 0121): its own inline script first in the head, then its modules. */
const FIRST_READS_SCRIPT = 'fetch("/api/accounts",{headers:{accept:"application/json"}}).catch(()=>{});if(1<2)void 0;';
const PAGE_WITH_FIRST_READS = `<!doctype html><html lang="en"><head><script>${FIRST_READS_SCRIPT}</script><script type="module" src="${MINIATURE_SCRIPT}"></script></head><body></body></html>`;
const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe.each(databaseKinds())('security headers and internal errors on %s', (kind) => {
  let test: TestApp;
  let webRoot: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    webRoot = miniatureWebRoot({ 'index.html': PAGE_WITH_FIRST_READS });
    test = await startTestApp(kind, {
      webRoot,
      rateLimit: { perUserPerMinute: 5 },
      env: { LOG_LEVEL: 'error' },
      logStream: { write: (line) => void logLines.push(line) },
    });
  });
  afterAll(async () => {
    await test?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it("lets the page's own inline script run by its hash, and no other inline script", async () => {
    for (const url of ['/', '/ledger', '/api/me']) {
      const response = await test.app.inject({ method: 'GET', url });
      const scriptSources = /script-src ([^;]*)/.exec(String(response.headers['content-security-policy']))?.[1];
      expect(scriptSources, url).toBe(`'self' ${sha256Source(FIRST_READS_SCRIPT)}`);
    }
  });

  it('sends them with the page, its assets and its client-side routes', async () => {
    for (const url of ['/', '/login/callback', '/some/page?x=1', '/assets/app-1a2b3c.js', '/app-config.json']) {
      const response = await test.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expectStrictHeaders(response.headers, url);
    }
  });

  it('lets browsers keep hashed assets for good and always revalidate the page itself', async () => {
    const asset = await test.app.inject({ method: 'GET', url: '/assets/app-1a2b3c.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/login/callback']) {
      expect((await test.app.inject({ method: 'GET', url })).headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('sends them with every API answer: success, 400, 401, 404, 413 and 429', async () => {
    const user = test.as('header-user');
    const answers: [string, LightMyRequestResponse][] = [
      ['200', await user.get('/api/me')],
      ['400', await user.post('/api/deposits/add-deposit', { name: '' })],
      ['400 bad URL', await test.app.inject({ method: 'GET', url: '/api/deposits/%E0%A4%A' })],
      ['401', await test.app.inject({ method: 'GET', url: '/api/me' })],
      ['404', await user.get('/api/nothing-here')],
      ['404 outside the API', await test.app.inject({ method: 'POST', url: '/nothing-here' })],
      ['413', await user.post('/api/deposits/add-deposit', { name: 'x'.repeat(BODY_LIMIT_BYTES) })],
    ];
    for (let index = 0; index < 5; index += 1) await user.get('/api/me');
    answers.push(['429', await user.get('/api/me')]);
    const policy = answers[0]?.[1].headers['content-security-policy'];
    for (const [label, response] of answers) {
      expect(response.statusCode, label).toBe(Number(label.slice(0, 3)));
      expectStrictHeaders(response.headers, label);
      // One policy everywhere, including the answers helmet never sees (a bad URL).
      expect(response.headers['content-security-policy'], label).toBe(policy);
      if (response.statusCode !== 200) strictErrorBody.parse(response.json());
    }
  });

  it('answers an undecodable address with the JSON error body, not the framework default', async () => {
    const response = await test.app.inject({
      method: 'PUT',
      url: '/api/deposits/%E0%A4%A',
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(strictErrorBody.parse(response.json())).toEqual({
      error: {
        code: 'bad_request',
        message: 'The address is not valid.',
        fields: { url: 'The address contains a malformed %-escape or character.' },
      },
    });
  });

  describe('when the database fails underneath', () => {
    const detail = /deposits|expenses|select|insert|from|no such table|relation|sqlite|postgres|kysely|\.ts:|\.js:|\n\s+at /i;

    beforeAll(async () => {
      // A table vanishing is the kind of failure no input can cause: only the server can be at fault.
      await sql`drop table deposits`.execute(test.app.database.db.withoutPlugins());
      logLines.length = 0;
    });

    it.each(API_CALLS.filter((call) => call.route.startsWith('/api/deposits')).map((call) => [callName(call), call] as const))(
      '%s answers the generic 500 body, with no stack or SQL, and logs the detail',
      async (_name, call: ApiCall) => {
        const user = test.as(`broken-${call.method}`);
        const body = call.validBody?.('any');
        const response = await user.request(call.method, call.url('4b1d0d4e-0000-4000-8000-000000000000'), body);
        expect(response.statusCode, response.body).toBe(500);
        expect(response.json()).toEqual(INTERNAL_ERROR);
        expect(response.body).not.toMatch(detail);
        expectStrictHeaders(response.headers, `500 ${callName(call)}`);
        // The cause goes to the server log, where an operator can find it.
        expect(logLines.join('\n')).toMatch(/deposits/);
      },
    );
  });

  it('answers a request Node cannot parse, or one with oversized headers, with the JSON error body on the socket', async () => {
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    const address = test.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening on a port');
    const policy = (await test.app.inject({ method: 'GET', url: '/app-config.json' })).headers['content-security-policy'];
    const cases = [
      { label: 'a broken request line', request: 'GARBAGE\r\n\r\n', status: 400 },
      { label: 'an invalid header', request: 'GET /api/me HTTP/1.1\r\nHost: x\r\nBad Header: x\r\n\r\n', status: 400 },
      {
        label: 'headers over the size limit',
        request: `GET /api/me HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`,
        status: 431,
      },
    ];
    for (const { label, request, status } of cases) {
      const answer = parseRawAnswer(await rawExchange(address.port, request));
      expect(answer.status, label).toBe(status);
      expect(answer.headers['content-type'], label).toMatch(/^application\/json/);
      expectStrictHeaders(answer.headers, label);
      expect(answer.headers['content-security-policy'], label).toBe(policy);
      expect(strictErrorBody.parse(JSON.parse(answer.body)).error.code, label).toBe('bad_request');
    }
  });
});

describe.each(databaseKinds())('a closed database on %s', (kind) => {
  it('answers the generic 500 body on every call that reads or writes', async () => {
    const test = await startTestApp(kind);
    try {
      await test.app.database.db.destroy();
      // The push key is the server's, held in memory: the one call that reads no database (/api/me now reads the caller's zone);
      // the stream of changes refuses a client that does not ask for a stream before it reads anything.
      for (const call of API_CALLS.filter((candidate) => candidate.operation !== 'getPushKey' && candidate.operation !== 'streamChanges')) {
        const response = await test
          .as('closed')
          .request(call.method, call.url('4b1d0d4e-0000-4000-8000-000000000000'), call.validBody?.('4b1d0d4e-0000-4000-8000-000000000000'));
        expect(response.statusCode, `${callName(call)}: ${response.body}`).toBe(500);
        expect(response.json()).toEqual(INTERNAL_ERROR);
      }
    } finally {
      await test.close();
    }
  });
});
