/**
 * Which Host the server answers for (issue 34 item 7, decision 0068), on SQLite and (with
 * TEST_POSTGRES_URL) PostgreSQL. A production configuration, as loadConfig reads it from the
 * environment, with PUBLIC_URL and ALLOWED_HOSTS: a request naming any other host answers 421 with
 * the JSON error body, the page and the API alike; PUBLIC_URL's host and ALLOWED_HOSTS are served;
 * the health probes answer whatever the Host. Without PUBLIC_URL, and outside production, any Host
 * is served as before. No token is checked here, so the production issuer is never asked anything.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PUBLIC_URL = 'https://leftover.example.com';
const PRODUCTION = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  OIDC_ISSUER: 'https://issuer.example.com',
  OIDC_CLIENT_ID: 'leftover-web',
  OIDC_AUDIENCE: `${PUBLIC_URL}/api`,
};

describe.each(databaseKinds())('the hosts the server answers for on %s', (kind) => {
  let database: TestDatabase;
  let production: FastifyInstance;
  let withoutPublicUrl: FastifyInstance;
  let testing: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const env = { ...PRODUCTION, DATABASE_URL: database.url };
    production = await buildApp(loadConfig({ ...env, PUBLIC_URL, ALLOWED_HOSTS: 'leftover.internal:3000' }), { logger: false });
    withoutPublicUrl = await buildApp(loadConfig(env), { logger: false });
    // Tests run with NODE_ENV=test: PUBLIC_URL alone changes nothing there.
    testing = await startTestApp(kind, { env: { PUBLIC_URL } });
  });
  afterAll(async () => {
    await production?.close();
    await withoutPublicUrl?.close();
    await testing?.close();
    await database?.drop();
  });

  const get = (app: FastifyInstance, url: string, headers: Record<string, string>) => app.inject({ method: 'GET', url, headers });

  it('answers 421 with the JSON error body to a request naming another host, in production with PUBLIC_URL set', async () => {
    for (const host of [
      'evil.example',
      'leftover.example.com.evil.example',
      '192.0.2.2',
      'leftover.example.com:8443',
      'leftover.internal',
    ]) {
      for (const url of ['/', '/api/openapi.json', '/api/me', '/oidc/.well-known/openid-configuration']) {
        const response = await get(production, url, { host });
        expect(response.statusCode, `${host} ${url}`).toBe(421);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.headers['cache-control']).toBe('no-store');
        expect(strictErrorBodySchema.parse(response.json())).toEqual({
          error: { code: 'misdirected_request', message: 'This server does not answer for the host this request names.' },
        });
      }
    }
    // X-Forwarded-Host is believed only from a proxy TRUST_PROXY names: here it cannot make a foreign Host ours.
    const forwarded = await get(production, '/api/openapi.json', { host: 'evil.example', 'x-forwarded-host': 'leftover.example.com' });
    expect(forwarded.statusCode).toBe(421);
  });

  it('serves PUBLIC_URL’s host (any case, its default port) and ALLOWED_HOSTS, and the probes whatever the Host', async () => {
    for (const host of ['leftover.example.com', 'LEFTOVER.example.com', 'leftover.example.com:443', 'leftover.internal:3000']) {
      expect((await get(production, '/api/openapi.json', { host })).statusCode, host).toBe(200);
      // Past the host check to the token check: no token is a 401, not a 421.
      expect((await get(production, '/api/me', { host })).statusCode, host).toBe(401);
    }
    for (const url of ['/healthz', '/readyz']) expect((await get(production, url, { host: '10.0.0.7:3000' })).statusCode, url).toBe(200);
  });

  it('serves any Host without PUBLIC_URL, and outside production, as before', async () => {
    for (const app of [withoutPublicUrl, testing.app]) {
      expect((await get(app, '/api/openapi.json', { host: 'evil.example' })).statusCode).toBe(200);
    }
    const me = await testing.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { host: 'evil.example', authorization: `Bearer ${await testing.issuer.token('someone')}` },
    });
    expect(me.statusCode).toBe(200);
  });
});
