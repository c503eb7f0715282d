/**
 * Ready to operate (issue 16): /healthz and /readyz without a token or personal data (503 once a
 * migration is missing or the database is gone), answers compressed with brotli or gzip only when
 * asked (the CSV export and the page's files too), and TRUST_PROXY putting the client's address,
 * not the proxy's, under the per-address budget.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YOUR_DATA_PATHS } from '../../src/contract/your-data.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { errorBodySchema } from '../../src/contract/errors.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const USER = 'operations-user';
/** A page build in miniature: one hashed asset well above the compression threshold, and a tiny one. */
const PAGE_SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, index) => `"row ${index}"`).join(', ')}];\n`;

function decode(encoding: string, payload: Buffer): string {
  return (encoding === 'br' ? zlib.brotliDecompressSync(payload) : zlib.gunzipSync(payload)).toString('utf8');
}

describe.each(databaseKinds())('operations on %s', (kind) => {
  let test: TestApp;
  let webRoot: string;
  let authorization: string;

  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-page-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Leftover</title>');
    fs.writeFileSync(path.join(webRoot, 'assets/index-0a1b2c3d.js'), PAGE_SCRIPT);
    test = await startTestApp(kind, { webRoot });
    authorization = `Bearer ${await test.issuer.token(USER)}`;
    // A year of weekly paydays and monthly bills: a ledger answer of a few hundred rows.
    const user = test.as(USER);
    const deposit = { name: 'Paycheck', type: 'Direct Deposit', day: 'Friday', amount: 1000, startDate: '2026-11-06', frequency: 'W' };
    expect((await user.post(DEPOSITS_PATHS.add, deposit)).statusCode).toBe(200);
    for (const [index, day] of [1, 5, 10, 15, 20, 25].entries()) {
      const expense = { name: `Bill ${index}`, type: 'Utilities', day, amount: 50 + index, endDate: null };
      expect((await user.post(EXPENSES_PATHS.add, expense)).statusCode).toBe(200);
    }
    const created = await user.post(LEDGER_PATHS.create, {
      ledger: { startDate: '2026-11-01', endDate: '2027-10-31', currentBalance: 500 },
    });
    expect(created.statusCode, created.body).toBe(200);
  });
  afterAll(async () => {
    await test?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('answers /healthz and /readyz without a token, with nothing but a status', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const response = await test.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.json(), url).toEqual({ status: 'ok' });
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('compresses a large ledger answer with brotli or gzip when asked, the same JSON once decompressed', async () => {
    const plain = await test.app.inject({ method: 'GET', url: LEDGER_PATHS.retrieve, headers: { authorization } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(20_000);
    for (const [asked, encoding] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
    ] as const) {
      const response = await test.app.inject({
        method: 'GET',
        url: LEDGER_PATHS.retrieve,
        headers: { authorization, 'accept-encoding': asked },
      });
      expect(response.headers['content-encoding'], asked).toBe(encoding);
      expect(String(response.headers.vary), asked).toMatch(/accept-encoding/i);
      expect(response.rawPayload.length, asked).toBeLessThan(plain.body.length / 5);
      expect(decode(encoding, response.rawPayload), asked).toBe(plain.body);
    }
    for (const asked of ['identity', 'deflate', '*;q=0, identity']) {
      const response = await test.app.inject({
        method: 'GET',
        url: LEDGER_PATHS.retrieve,
        headers: { authorization, 'accept-encoding': asked },
      });
      expect(response.headers['content-encoding'], asked).toBeUndefined();
      expect(response.body, asked).toBe(plain.body);
    }
  });

  it('leaves small answers alone, and compresses the CSV export and the page files when asked', async () => {
    for (const url of ['/healthz', '/api/me']) {
      const response = await test.app.inject({ method: 'GET', url, headers: { authorization, 'accept-encoding': 'br, gzip' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBeUndefined();
    }
    const csv = await test.app.inject({ method: 'GET', url: YOUR_DATA_PATHS.ledgerCsv, headers: { authorization } });
    const csvGzip = await test.app.inject({
      method: 'GET',
      url: YOUR_DATA_PATHS.ledgerCsv,
      headers: { authorization, 'accept-encoding': 'gzip' },
    });
    expect(csvGzip.headers['content-type']).toMatch(/^text\/csv/);
    expect(csvGzip.headers['content-disposition']).toBe(csv.headers['content-disposition']);
    expect(csvGzip.headers['content-encoding']).toBe('gzip');
    expect(decode('gzip', csvGzip.rawPayload)).toBe(csv.body);

    const asset = await test.app.inject({ method: 'GET', url: '/assets/index-0a1b2c3d.js', headers: { 'accept-encoding': 'br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decode('br', asset.rawPayload)).toBe(PAGE_SCRIPT);
    const assetPlain = await test.app.inject({ method: 'GET', url: '/assets/index-0a1b2c3d.js' });
    expect(assetPlain.headers['content-encoding']).toBeUndefined();
    expect(assetPlain.body).toBe(PAGE_SCRIPT);
  });

  it('is not ready while a migration of this build is missing from the database', async () => {
    const db = test.app.database.db;
    const latest = (
      await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by name desc`.execute(db)
    ).rows[0];
    if (!latest) throw new Error('no migration recorded');
    await sql`delete from kysely_migration where name = ${latest.name}`.execute(db);
    try {
      const response = await test.app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(errorBodySchema.parse(response.json()).error.code).toBe('service_unavailable');
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${latest.name}, ${latest.timestamp})`.execute(db);
    }
    expect((await test.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  // Last: it stops this file's database.
  it('is not ready once the database is stopped, while the process stays healthy', async () => {
    await test.app.database.db.destroy();
    const ready = await test.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ error: { code: 'service_unavailable', message: 'The server cannot serve requests right now.' } });
    expect((await test.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('TRUST_PROXY', () => {
  let test: TestApp;
  beforeAll(async () => {
    // One budget of one refused token a minute per address, to see whose address is counted.
    test = await startTestApp('sqlite', { env: { TRUST_PROXY: '10.0.0.0/8' }, rateLimit: { unauthenticatedPerMinute: 1 } });
  });
  afterAll(async () => {
    await test?.close();
  });

  const refused = (remoteAddress: string, forwardedFor?: string) =>
    test.app.inject({
      method: 'GET',
      url: LEDGER_PATHS.retrieve,
      remoteAddress,
      headers: { authorization: 'Bearer not-a-token', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    });

  it("counts refusals against the client's address behind a trusted proxy, and ignores the header from anyone else", async () => {
    expect((await refused('10.0.0.5', '203.0.113.1')).statusCode).toBe(401);
    // Another client behind the same proxy has a budget of its own.
    expect((await refused('10.0.0.5', '203.0.113.2')).statusCode).toBe(401);
    expect((await refused('10.0.0.5', '203.0.113.1')).statusCode).toBe(429);
    // A direct caller outside the trusted range cannot buy a fresh budget with a made-up header.
    expect((await refused('198.51.100.7', '203.0.113.3')).statusCode).toBe(401);
    expect((await refused('198.51.100.7', '203.0.113.4')).statusCode).toBe(429);
  });
});
