/**
 * Bank sync's schedule elected across two built server processes on one PostgreSQL database (issue
 * 37 item 3, "Done when": two server processes on one PostgreSQL make one scheduled request per
 * tick; decision 0082). Both processes tick every 150 ms against the repository's SimpleFIN
 * simulator on loopback; a user connects a bank through the first and links its Checking to their
 * account, and the test makes the connection due by setting its next time into the past. The bridge
 * then sees the requests of exactly one sync (the windows the window rule gives), the connection's
 * last sync is the schedule's, its rows are in the ledger once, and over 1.6 s (more than 10 rounds of
 * each process) nothing more comes; a second due round holds again. SQLite serves one process:
 * tests/api/bank-sync.test.ts covers the schedule there, and a simulated day of ticks on two apps in
 * one process on PostgreSQL.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNTS_PATHS, accountsInfoSchema } from '../../src/contract/accounts.js';
import { type BankConnection, bankConnectionSchema, bankConnectionsSchema } from '../../src/contract/bank-connections.js';
import { LEDGER_PATHS, ledgerInfoSchema } from '../../src/contract/ledger.js';
import { addDays, type IsoDate } from '../../src/domain/calendar-date.js';
import { dateRangeWindows } from '../../src/domain/date-windows.js';
import { todayInZone } from '../../src/domain/time-zones.js';
import { type HttpUser, httpUser } from '../support/http-user.js';
import { processRunOn } from '../support/process-run.js';
import { openRawDatabase } from '../support/raw-database.js';
import type { ServerProcess } from '../support/server-process.js';
import { type RecordedRequest, type SimplefinSimulator, startSimplefinSimulator } from '../support/simplefin-simulator.js';
import { databaseKinds } from '../support/test-databases.js';

const FIXED_CLOCK_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../support/fixed-clock-server.mjs');
/** Fri, Nov 20, 2026, 12:00 UTC: the connection's own next sync is past 18:00, hours after the test. */
const CLOCK_START = new Date('2026-11-20T12:00:00.000Z');
const ZONE = 'UTC';
const TODAY = todayInZone(CLOCK_START, ZONE);
/** Each process's bank round, and a wait of more than 10 rounds of each. */
const BANK_EVERY_MS = 150;
const SETTLE_MS = 1_600;
const SECRETS_KEY = Buffer.alloc(32, 37).toString('base64');
/** The window rule (decision 0082): a first sync asks 90 days back to tomorrow, a later one from its last success less 5 days. */
const FIRST_SYNC_DAYS = 90;
const OVERLAP_DAYS = 5;
/** The bridge allows 90 days a request (decision 0079). */
const BRIDGE_WINDOW_DAYS = 90;

/** The `start-date` and `end-date` of each request a sync of `from` to tomorrow asks, in order. */
function windowsFrom(from: IsoDate): { start: string; end: string }[] {
  return dateRangeWindows(from, addDays(TODAY, 1), ZONE, BRIDGE_WINDOW_DAYS).map((window) => ({
    start: String(window.start),
    end: String(window.end),
  }));
}

function asked(requests: readonly RecordedRequest[]): { start: string; end: string }[] {
  return requests.map((request) => ({ start: request.query['start-date']?.[0] ?? '', end: request.query['end-date']?.[0] ?? '' }));
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

// Runs only where PostgreSQL is configured (always in CI, where a skipped test fails the run). On a
// SQLite-only machine it is reported skipped: a file with no suite at all would fail `npm test` there.
describe.runIf(databaseKinds().includes('postgres'))('the bank schedule of two server processes on one PostgreSQL database', () => {
  const run = processRunOn('postgres');
  let simulator: SimplefinSimulator;
  let servers: [ServerProcess, ServerProcess];
  let user: HttpUser;
  /** The same user on the second process. */
  let reader: HttpUser;
  let connection: BankConnection;
  /** The Access URL's user name at the simulator: this connection's requests. */
  let bridgeUser: string;

  beforeAll(async () => {
    simulator = await startSimplefinSimulator({ now: CLOCK_START });
    simulator.scenario('default');
    const start = () =>
      run().start({
        entry: FIXED_CLOCK_SERVER,
        env: {
          TZ: ZONE,
          NOTIFY_ALLOW_PRIVATE_URLS: 'true',
          SECRETS_KEY,
          TEST_CLOCK_START: CLOCK_START.toISOString(),
          TEST_BANK_EVERY_MS: String(BANK_EVERY_MS),
          // No channel in this file: the notification round has nothing to do.
          TEST_NOTIFY_EVERY_MS: '60000',
        },
      });
    servers = [await start(), await start()];
    user = await httpUser(servers[0].origin, run().issuer, 'bank-schedule-pat');
    reader = await httpUser(servers[1].origin, run().issuer, user.subject);
  });
  afterAll(async () => {
    await simulator?.close();
  });

  const ok = async (method: string, url: string, body?: unknown): Promise<unknown> => {
    const answer = await user.call(method, url, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  /** The connection as GET /api/bank-connections answers it, read through the second process. */
  const listed = async () => {
    const answer = await reader.call('GET', '/api/bank-connections');
    expect(answer.status).toBe(200);
    return bankConnectionsSchema.parse(answer.body).connections.find((each) => each.id === connection.id);
  };
  const bankRows = async () =>
    (ledgerInfoSchema.parse(await ok('GET', LEDGER_PATHS.retrieve)).ledger?.transactions ?? []).filter((row) => row.fromBank === true);
  const bridgeRequests = () => simulator.accountRequests().filter((request) => request.user === bridgeUser);
  /** Makes the connection due: its next scheduled time an hour before the processes' clocks began. */
  const makeDue = async () => {
    const db = openRawDatabase('postgres', run().database.url);
    try {
      const past = new Date(CLOCK_START.getTime() - 3_600_000).toISOString();
      const updated = await sql`update bank_connections set next_sync_at = ${past} where id = ${connection.id}`.execute(db);
      expect(updated.numAffectedRows).toBe(1n);
    } finally {
      await db.destroy();
    }
  };

  it('makes one scheduled sync of a due connection, its rows in the ledger once, nothing more over 10 rounds of each process', async () => {
    // A ledger on the user's account from before the first sync's 90 days, so the sync asks them all.
    await ok('POST', LEDGER_PATHS.create, { ledger: { startDate: '2026-08-01', endDate: '2027-01-31', currentBalance: 1500 } });
    const primary = accountsInfoSchema.parse(await ok('GET', ACCOUNTS_PATHS.list)).accounts.find((account) => account.primary);
    connection = bankConnectionSchema.parse(await ok('POST', '/api/bank-connections', { setupToken: simulator.setupToken() }));
    bridgeUser = simulator.accountRequests().at(-1)?.user ?? '';
    expect(bridgeUser).not.toBe('');
    connection = bankConnectionSchema.parse(
      await ok('PUT', `/api/bank-connections/${connection.id}/accounts/ACT-checking`, { accountId: primary?.id }),
    );
    expect(connection.status).toEqual({ state: 'Connected', reason: null, scheduled: true });
    // Not due for hours: both processes have been ticking all along, and nothing was synced.
    expect((await listed())?.lastSync).toBeNull();
    expect(await bankRows()).toEqual([]);
    simulator.clearRequests();

    await makeDue();
    const first = windowsFrom(addDays(TODAY, -FIRST_SYNC_DAYS));
    expect(first).toHaveLength(2);
    await vi.waitFor(async () => expect((await listed())?.lastSync).not.toBeNull(), { timeout: 10_000, interval: 100 });
    await settle();

    expect(asked(bridgeRequests())).toEqual(first);
    const synced = (await listed())?.lastSync;
    expect(synced).toMatchObject({ trigger: 'schedule', failure: null, matched: 0, replaced: 0, flagged: 0 });
    expect(synced?.added).toBeGreaterThan(10);
    const rows = await bankRows();
    expect(rows).toHaveLength(synced?.added ?? 0);
    // The scenario has no two transactions of one name on one day: a duplicate would show here.
    expect(new Set(rows.map((row) => `${row.date} ${row.name}`)).size).toBe(rows.length);
  }, 60_000);

  it('holds again at the next due round: one sync of the days since the last, adding nothing twice', async () => {
    const before = await listed();
    const rows = await bankRows();
    simulator.clearRequests();

    await makeDue();
    await vi.waitFor(async () => expect((await listed())?.lastSync?.at).not.toBe(before?.lastSync?.at), {
      timeout: 10_000,
      interval: 100,
    });
    await settle();

    expect(asked(bridgeRequests())).toEqual(windowsFrom(addDays(TODAY, -OVERLAP_DAYS)));
    expect((await listed())?.lastSync).toMatchObject({ trigger: 'schedule', failure: null, added: 0, replaced: 0, flagged: 0 });
    expect(await bankRows()).toEqual(rows);
  }, 60_000);
});
