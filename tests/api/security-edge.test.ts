/**
 * The edge of the server (issue 17): personal answers are never cached, and a request without a
 * Host header is refused like every other, with our body and headers.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { miniatureWebRoot, parseRawAnswer, rawExchange } from '../support/miniature-page.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('the edge of the server', () => {
  let test: TestApp;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = miniatureWebRoot();
    test = await startTestApp('sqlite', { webRoot });
    await test.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await test?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('sends Cache-Control: no-store with every /api answer, success and refusal', async () => {
    const user = test.as('cache-user');
    const answers = [
      ['GET /api/me', await user.get('/api/me')],
      ['GET /api/deposits', await user.get('/api/deposits')],
      ['GET /api/expenses', await user.get('/api/expenses')],
      ['GET /api/openapi.json', await test.app.inject({ method: 'GET', url: '/api/openapi.json' })],
      ['401', await test.app.inject({ method: 'GET', url: '/api/me' })],
      ['404', await user.get('/api/nothing-here')],
    ] as const;
    for (const [label, response] of answers) {
      expect(response.statusCode, label).toBeLessThan(500);
      expect(response.headers['cache-control'], label).toBe('no-store');
    }
    expect(answers[0][1].statusCode).toBe(200);
  });

  it('keeps the long cache of hashed assets and revalidates the page and sw.js', async () => {
    const asset = await test.app.inject({ method: 'GET', url: '/assets/app-1a2b3c.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/sw.js']) {
      expect((await test.app.inject({ method: 'GET', url })).headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('refuses a request without a Host header with our JSON error body and security headers', async () => {
    const address = test.app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('not listening');
    for (const url of ['/api/me', '/']) {
      const answer = parseRawAnswer(await rawExchange(address.port, `GET ${url} HTTP/1.1\r\n\r\n`));
      expect(answer.status, url).toBe(400);
      expect(answer.headers['content-type'], url).toMatch(/^application\/json/);
      expect(strictErrorBodySchema.parse(JSON.parse(answer.body)).error.code, url).toBe('bad_request');
      expect(answer.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(answer.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      expect(answer.headers['x-content-type-options'], url).toBe('nosniff');
      expect(answer.headers['referrer-policy'], url).toBe('no-referrer');
    }
    // With a Host header the same request is served as usual: the refusal was the missing header.
    const served = parseRawAnswer(
      await rawExchange(address.port, 'GET /api/openapi.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
    );
    expect(served.status).toBe(200);
  });
});

/** Opens a socket, sends the bytes, and resolves with what came back and how long the server kept it open. */
function heldOpen(port: number, request: string): Promise<{ answer: string; ms: number }> {
  const started = performance.now();
  return rawExchange(port, request).then((answer) => ({ answer, ms: performance.now() - started }));
}

describe('slow and silent clients', () => {
  let test: TestApp;
  let port: number;

  beforeAll(async () => {
    test = await startTestApp('sqlite', {
      env: { REQUEST_TIMEOUT_MS: '500', KEEP_ALIVE_TIMEOUT_MS: '500', CONNECTION_TIMEOUT_MS: '5000' },
    });
    await test.app.listen({ port: 0, host: '127.0.0.1' });
    const address = test.app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('not listening');
    port = address.port;
  });
  afterAll(async () => {
    await test?.close();
  });

  it('closes a request whose body never comes within the configured time, with 408 and our body', async () => {
    const token = await test.issuer.token('slow-user');
    const promised = (url: string, extra = '') =>
      `POST ${url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n${extra}\r\n{"name":`;
    const [anonymous, signedIn] = await Promise.all([
      heldOpen(port, promised('/')),
      heldOpen(port, promised('/api/deposits/add-deposit', `Authorization: Bearer ${token}\r\n`)),
    ]);
    for (const [label, { answer, ms }] of [
      ['anonymous POST /', anonymous],
      ['signed-in add-deposit', signedIn],
    ] as const) {
      // 500 ms, checked every 125 ms: closed well before the old "never".
      expect(ms, label).toBeGreaterThan(400);
      expect(ms, label).toBeLessThan(2_500);
      expect(answer, label).toMatch(/^HTTP\/1\.1 (408|4\d\d)/);
    }
    const refused = parseRawAnswer(signedIn.answer);
    expect(refused.status).toBe(408);
    expect(strictErrorBodySchema.parse(JSON.parse(refused.body)).error.code).toBe('bad_request');
    expect(refused.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('closes an idle kept-alive connection after the configured time', async () => {
    const { answer, ms } = await heldOpen(port, 'GET /api/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(parseRawAnswer(answer).status).toBe(200);
    expect(ms).toBeLessThan(2_500);
  });
});
