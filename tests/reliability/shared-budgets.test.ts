/**
 * Request budgets shared by every server process on one PostgreSQL database (issue 34 item 6,
 * decision 0071). Two built server processes on one database, each started with
 * RATE_LIMIT_PER_MINUTE=20 and RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE=10 (small budgets keep the test
 * fast; 600 and 1,200 are counted the same way): one user's calls spread over both get 20 answers in
 * total, not 20 from each, and the rest 429 with Retry-After; calls with a refused token from one
 * address get 10 answers 401 in total, the rest 429; another user still has a whole budget on both;
 * what a read costs by its size on one process (1 + 1 per started 100 rows) is counted by the other
 * too. Before, each process counted alone: 40 answers, 20 answers, and the other process's whole budget.
 *
 * SQLite serves one process and keeps counting in it, as before: tests/api/security-rate-limit.test.ts
 * checks its budgets, and two processes on one SQLite file are not a supported set-up.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { httpUser } from '../support/http-user.js';
import { recordFigures } from '../support/reliability-figures.js';
import { processRunOn } from '../support/process-run.js';
import type { ServerProcess } from '../support/server-process.js';
import { databaseKinds } from '../support/test-databases.js';

const PER_USER = 20;
const PER_ADDRESS = 10;
const LEDGER = { startDate: '2026-12-01', endDate: '2027-02-28', currentBalance: 100 };
const ROW = { date: '2027-01-02', name: 'Groceries', type: 'D', amount: 12.5 };
const ENV = { RATE_LIMIT_PER_MINUTE: String(PER_USER), RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: String(PER_ADDRESS) };

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly remaining: string | null;
  readonly body: string;
}

async function getMe(server: ServerProcess, authorization: string): Promise<Answer> {
  const response = await fetch(`${server.origin}/api/me`, { headers: { authorization }, signal: AbortSignal.timeout(15_000) });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    body: await response.text(),
  };
}

/** `count` calls, alternating between the two processes, in pairs sent at once. */
async function spread(servers: readonly ServerProcess[], authorization: string, count: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let index = 0; index < count; index += servers.length) {
    answers.push(...(await Promise.all(servers.map((server) => getMe(server, authorization)))));
  }
  return answers;
}

function expectRefusedTooMany(answers: readonly Answer[]): void {
  for (const answer of answers) {
    expect(answer.status, answer.body).toBe(429);
    const retryAfter = Number(answer.retryAfter);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${answer.retryAfter}`).toBe(true);
    expect(strictErrorBodySchema.parse(JSON.parse(answer.body)).error.code).toBe('too_many_requests');
  }
}

// Runs only where PostgreSQL is configured (always in CI, where a skipped test fails the run). On a
// SQLite-only machine it is reported skipped: a file with no suite at all would fail `npm test` there.
describe.runIf(databaseKinds().includes('postgres'))('request budgets of two server processes on one PostgreSQL database', () => {
  const run = processRunOn('postgres');
  let servers: ServerProcess[] = [];
  beforeAll(async () => {
    servers = [await run().start({ env: ENV }), await run().start({ env: ENV })];
  });

  it(`gives one user ${PER_USER} calls a minute in total over both processes, not ${PER_USER} from each`, async () => {
    const { issuer } = run();
    const answers = await spread(servers, `Bearer ${await issuer.token('spread-user', { expiresInSeconds: 900 })}`, 2 * PER_USER);
    const served = answers.filter((answer) => answer.status === 200);
    recordFigures('shared-budgets-user', {
      perUserPerMinute: PER_USER,
      processes: servers.length,
      calls: answers.length,
      answered200: served.length,
      answered429: answers.filter((answer) => answer.status === 429).length,
    });
    expect(served).toHaveLength(PER_USER);
    // Each process told the truth about the one budget: 19, 18, ... 0 left.
    expect(served.map((answer) => Number(answer.remaining)).sort((a, b) => b - a)).toEqual(
      Array.from({ length: PER_USER }, (_, index) => PER_USER - 1 - index),
    );
    expectRefusedTooMany(answers.filter((answer) => answer.status !== 200));

    // Another user has a whole budget of their own, on either process.
    const other = await spread(servers, `Bearer ${await issuer.token('calm-user', { expiresInSeconds: 900 })}`, 2);
    expect(other.map((answer) => answer.status)).toEqual([200, 200]);
    expect(other.map((answer) => answer.remaining).sort()).toEqual([String(PER_USER - 2), String(PER_USER - 1)]);
  });

  it('charges a read by its size on one process, and the other process counts that charge too', async () => {
    const { issuer } = run();
    const [first, second] = servers;
    if (!first || !second) throw new Error('two servers expected');
    const reader = await httpUser(first.origin, issuer, 'size-reader');
    const elsewhere = await httpUser(second.origin, issuer, 'size-reader');
    // 1 (create, no rows) + 2 (the add answers its 1-row ledger) + 8 x 2 (each read answers that row) = 19.
    expect((await reader.call('POST', '/api/ledger/create-ledger', { ledger: LEDGER })).status).toBe(200);
    expect((await reader.call('POST', '/api/ledger/add-transaction', ROW)).status).toBe(200);
    for (let index = 0; index < 8; index += 1) expect((await reader.call('GET', '/api/ledger/retrieve-ledger')).status).toBe(200);
    // What a read costs beyond its first unit reaches the database within a second (decision 0071).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const last = await getMe(second, `Bearer ${elsewhere.token}`);
    expect([last.status, last.remaining]).toEqual([200, '0']);
    expectRefusedTooMany([await getMe(second, `Bearer ${elsewhere.token}`), await getMe(first, `Bearer ${reader.token}`)]);
  });

  it(`answers ${PER_ADDRESS} calls a minute with a refused token from one address over both processes, then 429`, async () => {
    const answers = await spread(servers, 'Bearer not.a.token', 2 * PER_ADDRESS);
    recordFigures('shared-budgets-address', {
      perAddressPerMinute: PER_ADDRESS,
      processes: servers.length,
      calls: answers.length,
      answered401: answers.filter((answer) => answer.status === 401).length,
      answered429: answers.filter((answer) => answer.status === 429).length,
    });
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(PER_ADDRESS);
    expectRefusedTooMany(answers.filter((answer) => answer.status !== 401));
    const message = strictErrorBodySchema.parse(JSON.parse(answers.at(-1)?.body ?? '')).error.message;
    expect(message).toMatch(/without a valid access token/);
  });
});
