import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/server/app.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { loadConfig } from '../../src/server/config.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe.each(databaseKinds())('foundation on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test.close());

  it('names the caller by the token subject: two users are two callers', async () => {
    const alice = await test.as('alice').get('/api/me');
    const bob = await test.as('bob').get('/api/me');
    expect(alice.statusCode).toBe(200);
    // Neither has chosen a time zone: both read today in the server's (decision 0047).
    const serverZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(alice.json()).toEqual({ subject: 'alice', name: null, timeZone: serverZone, buffer: 0, everydaySpending: null });
    expect(bob.json()).toEqual({ subject: 'bob', name: null, timeZone: serverZone, buffer: 0, everydaySpending: null });
  });

  it('answers 401 with WWW-Authenticate and the JSON error body when no token is sent', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/me' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(response.json()).toEqual({ error: { code: 'unauthorized', message: 'Sign in: no access token was sent.' } });
  });

  it('checks the token before anything else, even for unknown calls', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(401);
    const known = await test.as('alice').get('/api/nothing-here');
    expect(known.statusCode).toBe(404);
    expect(known.json()).toEqual({ error: { code: 'not_found', message: 'There is no such API call (GET).' } });
  });

  it('answers 413 for a body over the limit', async () => {
    const response = await test.as('alice').post('/api/me', { filler: 'x'.repeat(BODY_LIMIT_BYTES + 10) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('serves the sign-in settings the page needs', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/app-config.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      oidc: { issuer: test.issuer.issuer, clientId: 'leftover-web', audience: test.issuer.audience },
      developmentSignIn: false,
    });
  });

  it('sends strict security headers', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/app-config.json' });
    const policy = String(response.headers['content-security-policy']);
    for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      expect(policy).toContain(directive);
    }
    expect(policy).not.toContain('unsafe-inline');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('runs the migrations again without harm', async () => {
    const config = loadConfig({ DATABASE_URL: test.database.url, NODE_ENV: 'test' });
    const again = await openDatabase(config.database);
    try {
      await migrateToLatest(again.db, again.kind);
      const tables = await again.db.introspection.getTables();
      expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['deposits', 'expenses', 'ledgers', 'ledger_transactions']));
    } finally {
      await again.close();
    }
  });
});
