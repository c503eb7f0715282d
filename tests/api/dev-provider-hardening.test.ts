/**
 * The development provider under abuse (issue 17 finding 7; decision 0028): a flood of anonymous
 * /oidc/auth calls signs no one out, /oidc has its own budget per address, access tokens live 15
 * minutes and a refresh token renews them, and a forged Host never reaches the discovery document.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { DEV_ACCESS_TOKEN_TTL_SECONDS } from '../../src/server/auth/dev-provider-configuration.js';
import { DEFAULT_OIDC_RATE_LIMIT_PER_MINUTE, loadConfig } from '../../src/server/config.js';
import { authorizeSilently, signInThroughDevProvider } from '../support/dev-sign-in.js';
import { freePort } from '../support/server-process.js';

/** What emptied oidc-provider's own store (a 1,000-entry LRU that keeps up to two generations) of sessions. */
const ANONYMOUS_CALLS = 2_100;
const BUDGET = 2_400;

describe('development provider hardening', () => {
  let dataDir: string;
  let port: number;
  let app: FastifyInstance;
  const origin = () => `http://localhost:${port}`;
  /** A complete authorization request without a session: each one stores an interaction. */
  const anonymousAuth = () => {
    const query = new URLSearchParams({
      client_id: 'leftover-web',
      redirect_uri: `${origin()}/login/callback`,
      response_type: 'code',
      scope: 'openid profile',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    return fetch(`${origin()}/oidc/auth?${query}`, { redirect: 'manual' });
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-dev-hardening-'));
    port = await freePort();
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(dataDir, 'leftover.sqlite')}`,
      LOG_LEVEL: 'silent',
      OIDC_RATE_LIMIT_PER_MINUTE: String(BUDGET),
    });
    app = await buildApp(config, { logger: false });
    await app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('names the configured issuer and endpoints in its discovery document, whatever the Host header says', async () => {
    expect(DEFAULT_OIDC_RATE_LIMIT_PER_MINUTE).toBe(300);
    const response = await app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration', headers: { host: 'evil.example' } });
    expect(response.statusCode).toBe(200);
    const discovery = response.json<Record<string, unknown>>();
    expect(discovery.issuer).toBe(`${origin()}/oidc`);
    expect(discovery.authorization_endpoint).toBe(`${origin()}/oidc/auth`);
    expect(discovery.token_endpoint).toBe(`${origin()}/oidc/token`);
    expect(response.body).not.toContain('evil.example');
  });

  it('lets only the app’s own origin read its discovery document and keys, or pass a preflight (issue 34)', async () => {
    const ask = (method: 'GET' | 'OPTIONS', url: string, requestOrigin: string) =>
      app.inject({
        method,
        url,
        headers: {
          origin: requestOrigin,
          ...(method === 'OPTIONS' && { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }),
        },
      });
    const corsHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((name) => name.startsWith('access-control-'));
    const discovery = '/oidc/.well-known/openid-configuration';
    for (const foreign of ['https://evil.example', 'http://127.0.0.1:1', 'null']) {
      for (const [method, url] of [
        ['GET', discovery],
        ['GET', '/oidc/jwks'],
        ['OPTIONS', '/oidc/token'],
        ['OPTIONS', discovery],
      ] as const) {
        const response = await ask(method, url, foreign);
        expect(response.statusCode, `${foreign} ${method} ${url}`).toBeLessThan(300);
        expect(corsHeaders(response.headers), `${foreign} ${method} ${url}`).toEqual([]);
      }
    }
    for (const [method, url] of [
      ['GET', discovery],
      ['GET', '/oidc/jwks'],
      ['OPTIONS', '/oidc/token'],
    ] as const) {
      const response = await ask(method, url, origin());
      expect(response.headers['access-control-allow-origin'], `${method} ${url}`).toBe(origin());
    }
  });

  it('issues access tokens for 15 minutes, and renews them with the refresh token', async () => {
    const signedIn = await signInThroughDevProvider(origin(), 'frank');
    expect(DEV_ACCESS_TOKEN_TTL_SECONDS).toBe(15 * 60);
    expect(signedIn.expiresIn).toBe(DEV_ACCESS_TOKEN_TTL_SECONDS);
    const claims = decodeJwt(signedIn.accessToken);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(DEV_ACCESS_TOKEN_TTL_SECONDS);

    const renewed = await fetch(`${origin()}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: signedIn.refreshToken ?? '', client_id: 'leftover-web' }),
    });
    const body = (await renewed.json()) as { access_token?: string; expires_in?: number };
    expect(renewed.status, JSON.stringify(body)).toBe(200);
    expect(body.expires_in).toBe(DEV_ACCESS_TOKEN_TTL_SECONDS);
    const me = await fetch(`${origin()}/api/me`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(await me.json()).toMatchObject({ subject: 'frank' });
  });

  it(`keeps a signed-in session through ${ANONYMOUS_CALLS} anonymous /oidc/auth calls, then answers 429 past the address's budget`, async () => {
    const signedIn = await signInThroughDevProvider(origin(), 'grace');
    const before = await authorizeSilently(origin(), signedIn.cookies);
    expect(before.searchParams.get('code'), before.href).toEqual(expect.any(String));

    for (let sent = 0; sent < ANONYMOUS_CALLS; sent += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => anonymousAuth()));
      // Each is sent on to the sign-in page: an interaction is stored for it.
      for (const answer of answers) expect(answer.headers.get('location') ?? '').toMatch(/^\/dev-sign-in\//);
    }
    const after = await authorizeSilently(origin(), signedIn.cookies);
    expect(after.searchParams.get('error'), after.href).toBeNull();
    expect(after.searchParams.get('code'), after.href).toEqual(expect.any(String));

    // The address has now spent most of its budget; the rest runs out within it.
    let over: Response | undefined;
    for (let sent = 0; sent < BUDGET && !over; sent += 1) {
      const answer = await anonymousAuth();
      if (answer.status === 429) over = answer;
    }
    if (!over) throw new Error('no 429 within the budget');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe('too_many_requests');
    // The API's budget is its own: the signed-in user goes on.
    expect((await fetch(`${origin()}/api/me`, { headers: { authorization: `Bearer ${signedIn.accessToken}` } })).status).toBe(200);
  });
});
