/**
 * No file, restore or read can take the server down for everyone (issue 22): the built server as a
 * child process with the production budgets, sent the files and reads an attacker used on the old
 * code. Statement files are read and matched in a worker with limits, and refused with 400 (past
 * the parsers' bounds) or 413 (too costly for the worker); nothing answers 5xx, the process lives,
 * and another user calling /api/me meanwhile keeps its p95 under 5 x its idle figure (with a floor
 * of 5 ms, as in heavy-user.test.ts). Reads are charged by the rows they answer, so a user reading
 * a 20,000-row ledger over and over meets 429 instead of slowing everyone.
 *
 * Floods last 10 s, as heavy-user.test.ts's does: the crash file's user sends it again and again,
 * and the budget turns the repeats away. The light users' figures during the first preview and
 * import alone are recorded too (about 35 calls, so their p95 is their second slowest call).
 *
 * One server per database for the whole file; every test signs in as its own users, so budgets
 * (600 calls a minute each) never carry over between tests.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { YOUR_DATA_PATHS } from '../../src/contract/your-data.js';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { STATEMENT_PATHS, statementImportSchema, statementPreviewSchema } from '../../src/contract/statements.js';
import { NESTED_TOO_DEEP, TOO_MANY_LINES, TOO_MANY_TRANSACTIONS } from '../../src/domain/statements/statement-bounds.js';
import {
  deepOfx,
  pendingLedgerExport,
  repeatedFitIdOfx,
  sameRowsCsv,
  shortLinesCsv,
  unmatchedTagsOfx,
} from '../support/hostile-statements.js';
import { type HttpUser, httpUser } from '../support/http-user.js';
import { processRunOn } from '../support/process-run.js';
import { recordFigures } from '../support/reliability-figures.js';
import type { ServerProcess } from '../support/server-process.js';
import { databaseKinds } from '../support/test-databases.js';
import type { TestIssuer } from '../support/test-issuer.js';

const IDLE_CALLS = 100;
const WARM_CALLS = 40;
/** The light users call every 20 ms at most, over LIGHT_USERS users (below): each stays well within its budget. */
const PACE_MS = 20;
/**
 * The calls rotate over this many light users: a 10 s flood after a preview and an import of up to
 * 20 s each is up to 2,500 calls at one every 20 ms, far past one user's 600 a minute; over eight,
 * each makes about 300.
 */
const LIGHT_USERS = 8;
const NOISE_FLOOR_MS = 5;
const LEDGER_ROWS = 20_000;
/** What finding 1 sent: 3,000 statement rows, each a candidate for every one of the 20,000 ledger rows. */
const CRASH_STATEMENT_ROWS = 3_000;
const CRASH_ANSWER_MS = 20_000;
/** How long the crash file's user keeps sending it, and the light users are measured: as heavy-user.test.ts's flood. */
const ATTACK_WINDOW_MS = 10_000;
const FILE_ANSWER_MS = 5_000;
/** Past the answer bounds, so a slow answer is measured and reported rather than cut off. */
const CALL_TIMEOUT_MS = 30_000;
const READ_FLOOD_MS = 10_000;
const READ_CONNECTIONS = 4;
/** A small ledger for the users whose files should be refused before any matching. */
const SMALL_LEDGER_ROWS = 100;

interface TimedAnswer {
  readonly status: number;
  /** The answer's text, parsed only when a test reads it: parsing megabytes in this process while the light users are timed would slow their figures, not the server's. */
  readonly text: string;
  readonly ms: number;
}

/** One call with its own timeout (longer than httpUser's), timed; a connection that fails is status 0. */
async function timedCall(origin: string, user: HttpUser, method: string, path: string, body?: unknown): Promise<TimedAnswer> {
  const started = performance.now();
  try {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { authorization: `Bearer ${user.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await response.text();
    return { status: response.status, text, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: 0, text: String(error), ms: Math.round(performance.now() - started) };
  }
}

function bodyOf(answer: TimedAnswer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    return answer.text;
  }
}

/** The refusal's body, as the contract says every refusal is. */
function errorOf(answer: TimedAnswer) {
  return strictErrorBodySchema.parse(bodyOf(answer));
}

function messageOf(answer: TimedAnswer): string {
  return errorOf(answer).error.message;
}

function p95(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? Number.NaN;
}

const tenths = (ms: number) => Math.round(ms * 10) / 10;

/** The five slowest samples, slowest first: what a p95 over few samples is made of. */
function slowest(samples: readonly number[]): number[] {
  return [...samples]
    .sort((a, b) => b - a)
    .slice(0, 5)
    .map((ms) => Math.round(ms));
}

/** Light users calling /api/me one after another, as the measure of what everyone else sees. */
interface LightUsers {
  idle(): Promise<number[]>;
  /**
   * Calls /api/me every PACE_MS while the attack runs; answers the attack's value and the durations.
   * The attack sees the durations so far, to tell which of them fell in a part of it.
   */
  during<T>(attack: (busy: readonly number[]) => Promise<T>): Promise<{ value: T; busy: number[]; failures: string[] }>;
}

async function lightUsers(server: ServerProcess, issuer: TestIssuer, label: string): Promise<LightUsers> {
  const users = await Promise.all(
    Array.from({ length: LIGHT_USERS }, (_, index) => httpUser(server.origin, issuer, `${label}-light-${index}`)),
  );
  let next = 0;
  const me = async (): Promise<{ ms: number; failure?: string }> => {
    const user = users[next % users.length] as HttpUser;
    next += 1;
    const started = performance.now();
    try {
      const answer = await user.call('GET', '/api/me');
      const ms = performance.now() - started;
      return answer.status === 200 ? { ms } : { ms, failure: `/api/me answered ${answer.status}` };
    } catch (error) {
      return { ms: performance.now() - started, failure: String(error) };
    }
  };
  const paced = async () => {
    const answer = await me();
    if (answer.ms < PACE_MS) await new Promise((resolve) => setTimeout(resolve, PACE_MS - answer.ms));
    return answer;
  };
  // Each user's first calls check a new token and warm the server's code paths: not measured.
  for (let index = 0; index < WARM_CALLS; index += 1) {
    const warm = await paced();
    if (warm.failure) throw new Error(warm.failure);
  }
  return {
    async idle() {
      const samples: number[] = [];
      for (let index = 0; index < IDLE_CALLS; index += 1) {
        const answer = await paced();
        if (answer.failure) throw new Error(answer.failure);
        samples.push(answer.ms);
      }
      return samples;
    },
    async during(attack) {
      const busy: number[] = [];
      const failures: string[] = [];
      let attacking = true;
      const measuring = (async () => {
        while (attacking) {
          const answer = await paced();
          busy.push(answer.ms);
          if (answer.failure) failures.push(answer.failure);
        }
      })();
      try {
        return { value: await attack(busy), busy, failures };
      } finally {
        attacking = false;
        await measuring;
      }
    },
  };
}

describe.each(databaseKinds())('hostile files and reads against the built server on %s', (kind) => {
  const processes = processRunOn(kind);
  let server: ServerProcess;
  beforeAll(async () => {
    // The production budgets and worker limits: nothing set.
    server = await processes().start();
  });

  const signIn = (subject: string) => httpUser(server.origin, processes().issuer, `${kind}-${subject}`);

  /** A user whose ledger holds `rows` pending $1.00 debits on one day, restored through the API. */
  async function userWithLedger(subject: string, rows: number): Promise<{ user: HttpUser; restoreMs: number }> {
    const user = await signIn(subject);
    const restored = await timedCall(server.origin, user, 'POST', YOUR_DATA_PATHS.restore, pendingLedgerExport(rows));
    expect(restored.status, restored.text.slice(0, 500)).toBe(200);
    expect(bodyOf(restored)).toMatchObject({ transactions: rows });
    return { user, restoreMs: restored.ms };
  }

  async function expectAlive(): Promise<void> {
    const ready = await fetch(`${server.origin}/readyz`, { signal: AbortSignal.timeout(5_000) });
    expect(ready.status, server.output()).toBe(200);
  }

  it('finding 1: a 3,000-row CSV against 20,000 identical pending rows answers within 20 s, keeps the process up and the others fast', async () => {
    const { user: heavy, restoreMs } = await userWithLedger('crash', LEDGER_ROWS);
    const light = await lightUsers(server, processes().issuer, `${kind}-crash`);
    const idle = await light.idle();
    const content = sameRowsCsv(CRASH_STATEMENT_ROWS);
    const body = { fileName: 'statement.csv', content };

    // The file previewed, then imported with the proposals as they are (no decisions); then both
    // again as fast as the server answers until the window closes, as heavy-user.test.ts floods:
    // the budget turns the repeats away with 429 once it has charged the work.
    const { value, busy, failures } = await light.during(async (samples) => {
      const deadline = Date.now() + ATTACK_WINDOW_MS;
      const preview = await timedCall(server.origin, heavy, 'POST', STATEMENT_PATHS.preview, body);
      const imported = await timedCall(server.origin, heavy, 'POST', STATEMENT_PATHS.import, body);
      const firstPair = samples.length;
      const repeats = new Map<number, number>();
      while (Date.now() < deadline) {
        for (const path of [STATEMENT_PATHS.preview, STATEMENT_PATHS.import]) {
          const answer = await timedCall(server.origin, heavy, 'POST', path, body);
          repeats.set(answer.status, (repeats.get(answer.status) ?? 0) + 1);
        }
      }
      return { preview, imported, firstPair, repeats };
    });
    const { preview, imported, firstPair, repeats } = value;
    const previewed = preview.status === 200 ? statementPreviewSchema.parse(bodyOf(preview)) : null;
    const matched = previewed?.rows.filter((row) => row.action === 'match') ?? [];
    const duringFirstPair = busy.slice(0, firstPair + 1);

    recordFigures(`hostile-files-crash-${kind}`, {
      database: kind,
      ledgerRows: LEDGER_ROWS,
      statementRows: CRASH_STATEMENT_ROWS,
      restoreMs,
      previewStatus: preview.status,
      previewMs: preview.ms,
      previewMatched: matched.length,
      importStatus: imported.status,
      importMs: imported.ms,
      importMessage: imported.status === 200 ? null : messageOf(imported),
      repeats: Object.fromEntries(repeats),
      idleP95Ms: tenths(p95(idle)),
      busyP95Ms: tenths(p95(busy)),
      busyCalls: busy.length,
      // The light user during the first preview and import alone: few calls, so their p95 is about their second slowest.
      firstPairP95Ms: tenths(p95(duringFirstPair)),
      firstPairTopMs: slowest(duringFirstPair),
      firstPairCalls: duringFirstPair.length,
      busyMaxMs: Math.round(Math.max(...busy)),
      lightFailures: failures.length,
    });

    expect(preview.status, preview.text.slice(0, 500)).toBeGreaterThan(0);
    expect(preview.status, preview.text.slice(0, 500)).toBeLessThan(500);
    expect(preview.ms).toBeLessThan(CRASH_ANSWER_MS);
    if (previewed) {
      expect(previewed.rows).toHaveLength(CRASH_STATEMENT_ROWS);
      // Each statement row ranks only its nearest candidates (MAX_MATCH_CANDIDATES): some rows
      // match, the others are new, and no ledger row is taken twice.
      expect(matched.length).toBeGreaterThan(0);
      expect(previewed.rows.filter((row) => row.action !== 'match' && row.action !== 'new')).toEqual([]);
      expect(new Set(matched.map((row) => row.matchId)).size).toBe(matched.length);
    } else {
      errorOf(preview);
    }

    expect(imported.status, imported.text.slice(0, 500)).toBeGreaterThan(0);
    expect(imported.status, imported.text.slice(0, 500)).toBeLessThan(500);
    expect(imported.ms).toBeLessThan(CRASH_ANSWER_MS);
    // A 409 is the ledger's row limit: the rows the import would add take it past 20,000.
    if (imported.status === 200) statementImportSchema.parse(bodyOf(imported));
    else errorOf(imported);

    expect([...repeats.keys()].filter((status) => status >= 500 || status === 0)).toEqual([]);
    expect(repeats.get(429) ?? 0).toBeGreaterThan(0);
    await expectAlive();
    expect(failures).toEqual([]);
    expect(p95(busy)).toBeLessThan(5 * Math.max(p95(idle), NOISE_FLOOR_MS));
  }, 120_000);

  it('finding 2: an OFX of 16,000 unique FITIDs and 16,000 repeats of one answers within 5 s, not 5xx', async () => {
    const { user } = await userWithLedger('fitids', SMALL_LEDGER_ROWS);
    const content = repeatedFitIdOfx(16_000, 16_000);
    expect(content.length).toBeLessThan(2_000_000);
    const answer = await timedCall(server.origin, user, 'POST', STATEMENT_PATHS.preview, { fileName: 'statement.ofx', content });

    // At the 10,000-transaction bound, half of them one FITID: read and matched, not refused.
    const atBound = repeatedFitIdOfx(5_000, 5_000);
    const bounded = await timedCall(server.origin, user, 'POST', STATEMENT_PATHS.preview, { fileName: 'statement.ofx', content: atBound });

    recordFigures(`hostile-files-fitids-${kind}`, {
      database: kind,
      characters: content.length,
      status: answer.status,
      ms: answer.ms,
      message: answer.status === 200 ? null : messageOf(answer),
      atBoundStatus: bounded.status,
      atBoundMs: bounded.ms,
    });

    expect(answer.status).toBeGreaterThan(0);
    expect(answer.status).toBeLessThan(500);
    expect(answer.ms).toBeLessThan(FILE_ANSWER_MS);
    expect(errorOf(answer).error).toEqual({
      code: 'bad_request',
      message: TOO_MANY_TRANSACTIONS,
      fields: { content: TOO_MANY_TRANSACTIONS },
    });

    expect(bounded.status, bounded.text.slice(0, 500)).toBe(200);
    expect(bounded.ms).toBeLessThan(FILE_ANSWER_MS);
    expect(statementPreviewSchema.parse(bodyOf(bounded)).rows).toHaveLength(10_000);
    await expectAlive();
  });

  it('finding 3: <OFX>, 20,000 opening tags and 20,000 unmatched closing tags answer 400 or 413 within 5 s', async () => {
    const { user } = await userWithLedger('unmatched', SMALL_LEDGER_ROWS);
    const answer = await timedCall(server.origin, user, 'POST', STATEMENT_PATHS.preview, {
      fileName: 'statement.ofx',
      content: unmatchedTagsOfx(20_000),
    });
    recordFigures(`hostile-files-unmatched-tags-${kind}`, {
      database: kind,
      status: answer.status,
      ms: answer.ms,
      message: answer.status === 200 ? null : messageOf(answer),
    });
    expect([400, 413], answer.text.slice(0, 500)).toContain(answer.status);
    expect(answer.ms).toBeLessThan(FILE_ANSWER_MS);
    expect(errorOf(answer).error.fields).toHaveProperty('content');
    await expectAlive();
  });

  it('finding 4: a CSV of 130,000 short lines and an OFX nested 3,000 deep answer 400 with the bound they pass', async () => {
    const { user } = await userWithLedger('lines-depth', SMALL_LEDGER_ROWS);
    const lines = shortLinesCsv(130_000);
    expect(lines.length).toBeLessThan(2_000_000);
    const csv = await timedCall(server.origin, user, 'POST', STATEMENT_PATHS.preview, { fileName: 'statement.csv', content: lines });
    const ofx = await timedCall(server.origin, user, 'POST', STATEMENT_PATHS.preview, {
      fileName: 'statement.ofx',
      content: deepOfx(3_000),
    });
    recordFigures(`hostile-files-lines-depth-${kind}`, {
      database: kind,
      csvCharacters: lines.length,
      csvStatus: csv.status,
      csvMs: csv.ms,
      ofxStatus: ofx.status,
      ofxMs: ofx.ms,
    });
    expect(csv.status, csv.text.slice(0, 500)).toBe(400);
    expect(errorOf(csv).error).toEqual({ code: 'bad_request', message: TOO_MANY_LINES, fields: { content: TOO_MANY_LINES } });
    expect(csv.ms).toBeLessThan(FILE_ANSWER_MS);
    expect(ofx.status, ofx.text.slice(0, 500)).toBe(400);
    expect(errorOf(ofx).error).toEqual({ code: 'bad_request', message: NESTED_TOO_DEEP, fields: { content: NESTED_TOO_DEEP } });
    expect(ofx.ms).toBeLessThan(FILE_ANSWER_MS);
    await expectAlive();
  });

  it('finding 5: one user reading a 20,000-row ledger on 4 connections meets 429 and leaves another user’s /api/me p95 under 5 x idle', async () => {
    const { user: heavy, restoreMs } = await userWithLedger('reader', LEDGER_ROWS);
    const light = await lightUsers(server, processes().issuer, `${kind}-reads`);
    const idle = await light.idle();

    const statuses = new Map<number, number>();
    const readMs: number[] = [];
    const { busy, failures } = await light.during(async () => {
      const deadline = Date.now() + READ_FLOOD_MS;
      const lane = async () => {
        while (Date.now() < deadline) {
          const answer = await timedCall(server.origin, heavy, 'GET', LEDGER_PATHS.retrieve);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 200) readMs.push(answer.ms);
        }
      };
      await Promise.all(Array.from({ length: READ_CONNECTIONS }, lane));
    });

    recordFigures(`hostile-files-reads-${kind}`, {
      database: kind,
      ledgerRows: LEDGER_ROWS,
      restoreMs,
      reads: Object.fromEntries(statuses),
      readP95Ms: readMs.length > 0 ? Math.round(p95(readMs)) : null,
      idleP95Ms: tenths(p95(idle)),
      busyP95Ms: tenths(p95(busy)),
      busyMaxMs: Math.round(Math.max(...busy)),
      busyCalls: busy.length,
      lightFailures: failures.length,
    });

    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(429) ?? 0).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((status) => status !== 200 && status !== 429)).toEqual([]);
    await expectAlive();
    expect(failures).toEqual([]);
    expect(p95(busy)).toBeLessThan(5 * Math.max(p95(idle), NOISE_FLOOR_MS));
  }, 90_000);
});
