/**
 * Per-user limits and cost-charged budgets (issue 17 finding 1; decisions 0007 and 0028): one user
 * cannot grow their data, or spend the server's time, without bound. Each refusal is a 409 naming
 * the limit and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { MAX_DEPOSITS, MAX_EXPENSES, MAX_LEDGER_ROWS } from '../../src/domain/limits.js';
import { callCost } from '../../src/server/http/rate-limit.js';
import { VALID_DEPOSIT, VALID_EXPENSE, VALID_TRANSACTION } from '../support/api-calls.js';
import { ledgerOf } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

const WEEKLY = { ...VALID_DEPOSIT, frequency: 'W' } as const;
const FIVE_YEARS = { ledger: { startDate: '2026-11-01', endDate: '2031-10-31', currentBalance: 0 } } as const;
const THREE_YEARS = { ledger: { startDate: '2026-11-01', endDate: '2029-10-31', currentBalance: 0 } } as const;

function id(index: number): string {
  return `0190a1b2-c3d4-7e5f-8a6b-${index.toString(16).padStart(12, '0')}`;
}

/** An export document holding exactly the limits: 100 weekly deposits and 300 monthly expenses, no ledger. */
function atTheLimits() {
  const createdAt = '2026-11-01T09:00:00.000Z';
  return {
    format: 'leftover-export',
    version: 1,
    exportedAt: '2026-11-21T12:00:00.000Z',
    deposits: Array.from({ length: MAX_DEPOSITS }, (_, index) => ({ ...WEEKLY, name: `Pay ${index}`, id: id(index + 1), createdAt })),
    expenses: Array.from({ length: MAX_EXPENSES }, (_, index) => ({
      ...VALID_EXPENSE,
      name: `Bill ${index}`,
      frequency: 'M',
      startDate: null,
      id: id(1000 + index),
      createdAt,
    })),
    ledger: null,
  };
}

function expectLimit(response: { statusCode: number; body: string; json(): unknown }, message: string | RegExp): void {
  expect(response.statusCode, response.body).toBe(409);
  const body = strictErrorBodySchema.parse(response.json());
  expect(body.error.code).toBe('conflict');
  expect(body.error.message).toMatch(message);
}

describe.each(databaseKinds())('per-user limits on %s', (kind) => {
  let test: TestApp;
  let user: UserClient;
  beforeAll(async () => {
    test = await startTestApp(kind);
    user = test.as('heavy-user');
    const restored = await user.post('/api/account/import', atTheLimits());
    expect(restored.statusCode, restored.body).toBe(200);
  });
  afterAll(() => test?.close());

  it(`refuses the ${MAX_DEPOSITS + 1}st deposit and the ${MAX_EXPENSES + 1}st expense with the limit, storing nothing`, async () => {
    expect([MAX_DEPOSITS, MAX_EXPENSES, MAX_LEDGER_ROWS]).toEqual([100, 300, 20_000]);
    const before = await test.snapshot();
    expectLimit(await user.post('/api/deposits/add-deposit', VALID_DEPOSIT), 'You can have at most 100 deposits.');
    expectLimit(await user.post('/api/expenses/add-expense', VALID_EXPENSE), 'You can have at most 300 expenses.');
    expect(await test.snapshot()).toBe(before);
    // The limits are per user: someone else adds freely.
    expect((await test.as('light-user').post('/api/deposits/add-deposit', VALID_DEPOSIT)).statusCode).toBe(200);
  });

  it('refuses a restore over the limits, changing nothing', async () => {
    const before = await test.snapshot();
    const over = atTheLimits();
    over.deposits.push({ ...WEEKLY, name: 'One more', id: id(999), createdAt: '2026-11-01T09:00:00.000Z' });
    expectLimit(await user.post('/api/account/import', over), 'at most 100 deposits');
    expect(await test.snapshot()).toBe(before);
  });

  it(`refuses a ledger that would hold more than ${MAX_LEDGER_ROWS} rows, on create and on extend, storing nothing`, async () => {
    const before = await test.snapshot();
    // 100 weekly paychecks for five years: 26,100 rows, plus 300 bills a month.
    expectLimit(
      await user.post('/api/ledger/create-ledger', FIVE_YEARS),
      /^A ledger holds at most 20,000 rows: this one would hold \d\d,\d{3}\. Choose a shorter period or fewer schedules\.$/,
    );
    expect(await test.snapshot()).toBe(before);

    // Three years of paychecks alone fit (about 15,700 rows): a restore replaces everything, dropping the bills.
    const paychecksOnly = { ...atTheLimits(), expenses: [] };
    expect((await user.post('/api/account/import', paychecksOnly)).statusCode).toBe(200);
    const ledger = ledgerOf(await user.post('/api/ledger/create-ledger', THREE_YEARS));
    expect(ledger.transactions.length).toBeLessThanOrEqual(MAX_LEDGER_ROWS);
    const created = await test.snapshot();
    expectLimit(
      await user.post('/api/ledger/extend-ledger', { endDate: '2031-10-31' }),
      /would hold \d\d,\d{3}\. Choose an earlier end date/,
    );
    expect(await test.snapshot()).toBe(created);
    // Reading and small writes still work.
    expect((await user.post('/api/ledger/add-transaction', { ...VALID_TRANSACTION, date: '2027-01-05' })).statusCode).toBe(200);
  });
});

describe.each(databaseKinds())('budgets charged by cost on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind, { rateLimit: { perUserPerMinute: 40, unauthenticatedPerMinute: 40 } });
  });
  afterAll(() => test?.close());

  it('charges a create that writes N rows 1 + ceil(N / 100) calls, so creates meet the budget sooner than reads', async () => {
    expect([callCost(0), callCost(1), callCost(100), callCost(101), callCost(20_000)]).toEqual([1, 2, 2, 3, 201]);
    const user = test.as('creator');
    for (let index = 0; index < 5; index += 1) {
      expect((await user.post('/api/deposits/add-deposit', { ...WEEKLY, name: `Pay ${index}` })).statusCode).toBe(200);
    }
    const read = await user.get('/api/me');
    const remaining = Number(read.headers['x-ratelimit-remaining']);
    expect(remaining).toBe(40 - 6);

    const create = await user.post('/api/ledger/create-ledger', FIVE_YEARS);
    const rows = ledgerOf(create).transactions.length;
    expect(rows).toBeGreaterThan(1_000);
    expect(Number(create.headers['x-ratelimit-remaining'])).toBe(remaining - callCost(rows));

    // A reader spends 1 a call: the same budget lasts many more reads than creates.
    let creates = 1;
    while ((await user.post('/api/ledger/create-ledger', FIVE_YEARS)).statusCode === 200) creates += 1;
    const reader = test.as('reader');
    let reads = 0;
    while ((await reader.get('/api/me')).statusCode === 200) reads += 1;
    expect(reads).toBe(40);
    expect(creates).toBeLessThanOrEqual(Math.ceil(remaining / callCost(rows)));
  });
});
