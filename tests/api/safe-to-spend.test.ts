/**
 * Safe to spend until payday and "Can I afford it?" (issue 36 items 1, 3 and 4) through the API, on
 * SQLite and (with TEST_POSTGRES_URL) PostgreSQL. The app's clock is Saturday 2026-11-21 (TEST_NOW):
 * T below. Every test signs in as its own user.
 */
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { accountForecastSchema, accountSchema, ACCOUNTS_PATHS, accountsInfoSchema } from '../../src/contract/accounts.js';
import { profileSchema } from '../../src/contract/app-config.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { ENDPOINTS } from '../../src/contract/common.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { WHAT_IF_PATHS, whatIfAnswerSchema } from '../../src/contract/what-if.js';
import { addDays, isoDate } from '../../src/domain/calendar-date.js';
import { expectBadRequest, expectNotFound, inAccount, newSubject } from '../support/api-expectations.js';
import { depositInput, expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

const getApp = appsOnEveryDatabase();
const PROFILE = ENDPOINTS.getProfile.path;
const T = (days: number) => addDays(isoDate('2026-11-21'), days);
const ITEMS_MESSAGE = 'Items must list from 1 to 10 purchases.';

/**
 * The issue's case: Checking's current balance $1,000.00 with a Paid (not cleared) $40.00 row,
 * Rent $800.00 due T+5, the Visa payment of its $300.00 statement due T+7, a $1,200.00 paycheck on
 * T+9 (the last day of November), and a buffer of $50.00.
 */
async function issueCase(user: UserClient): Promise<{ checking: string; visa: string }> {
  okJson(await user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1200, startDate: '2026-11-01', frequency: 'EOM' })));
  okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 800, day: 26 })));
  const span = { startDate: T(0), endDate: '2026-12-31' };
  const created = ledgerOf(await user.post(LEDGER_PATHS.create, { ledger: { ...span, currentBalance: 1000 } }));
  expect(created.transactions.map((row) => [row.date, row.name])).toEqual([
    [T(5), 'Rent'],
    [T(9), 'Acme Paycheck'],
    ['2026-12-26', 'Rent'],
    ['2026-12-31', 'Acme Paycheck'],
  ]);
  const added = ledgerOf(await user.post(LEDGER_PATHS.addTransaction, { date: T(0), name: 'Groceries', type: 'D', amount: 40 }));
  const groceries = added.transactions.find((row) => row.name === 'Groceries');
  if (!groceries) throw new Error('no Groceries row');
  okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...groceries, status: 'PAID' }));
  const [checking] = accountsInfoSchema.parse(okJson(await user.get(ACCOUNTS_PATHS.list))).accounts;
  if (!checking) throw new Error('no primary account');
  const card = { closingDay: 25, dueDay: 28, payFromAccountId: checking.id, rule: 'STATEMENT', amount: null, creditLimit: null };
  const visa = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Visa', kind: 'CARD', card })));
  okJson(await user.post(inAccount(LEDGER_PATHS.create, visa.id), { ledger: { ...span, currentBalance: 0 } }));
  okJson(await user.post(inAccount(LEDGER_PATHS.addTransaction, visa.id), { date: T(1), name: 'Shoes', type: 'D', amount: 300 }));
  expect(profileSchema.parse(okJson(await user.patch(PROFILE, { buffer: 50 }))).buffer).toBe(50);
  return { checking: checking.id, visa: visa.id };
}

const forecastOf = async (user: UserClient, accountId?: string) =>
  accountForecastSchema.parse(okJson(await user.get(accountId ? inAccount(LEDGER_PATHS.forecast, accountId) : LEDGER_PATHS.forecast)));

const whatIfOf = (response: LightMyRequestResponse) => whatIfAnswerSchema.parse(okJson(response));

describe.each(databaseKinds())('safe to spend on %s', (kind) => {
  it('is the lowest balance before payday minus the buffer: the issue’s case, and a what-if that stores nothing', async () => {
    const test = getApp(kind);
    const user = test.as(newSubject('safe-issue'));
    const { checking } = await issueCase(user);
    const forecast = await forecastOf(user);
    expect(forecast.pendingBalance).toBe(960);
    expect(forecast.safeToSpend).toEqual({
      amount: -190,
      perDay: null,
      until: T(9),
      untilReason: 'PAYDAY',
      lowestDate: T(7),
      lowestName: 'Visa payment',
      buffer: 50,
    });
    // Per account too, the same.
    expect((await forecastOf(user, checking)).safeToSpend).toEqual(forecast.safeToSpend);

    const before = await test.snapshot();
    const answer = whatIfOf(await user.post(WHAT_IF_PATHS.whatIf, { items: [{ date: T(1), amount: 100 }] }));
    expect(answer.accounts).toHaveLength(1);
    const [account] = answer.accounts;
    expect(account?.accountId).toBe(checking);
    expect(account?.before).toEqual({
      lowest: forecast.lowest,
      firstBelowZero: forecast.firstBelowZero,
      safeToSpend: forecast.safeToSpend,
    });
    expect(account?.after.lowest).toEqual({ date: T(7), name: 'Visa payment', balance: -240 });
    expect(account?.after.firstBelowZero).toEqual({ date: T(7), name: 'Visa payment', balance: -240 });
    expect(account?.after.safeToSpend?.amount).toBe(-290);
    expect(account?.lowestBeforePayday).toEqual({ date: T(7), name: 'Visa payment', balance: -240, until: T(9), untilReason: 'PAYDAY' });
    expect(account?.affordable).toBe(false);
    // Nothing stored: no row, no version, no undo entry, no notification (every table, byte for byte).
    expect(await test.snapshot()).toBe(before);
    expect(await forecastOf(user)).toEqual(forecast);
  });

  it('says yes when the purchase leaves the buffer, and weighs each account touched', async () => {
    const test = getApp(kind);
    const user = test.as(newSubject('safe-yes'));
    okJson(await user.post(LEDGER_PATHS.create, { ledger: { startDate: T(0), endDate: T(30), currentBalance: 500 } }));
    const savings = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
    okJson(
      await user.post(inAccount(LEDGER_PATHS.create, savings.id), { ledger: { startDate: T(0), endDate: T(30), currentBalance: 80 } }),
    );
    const forecast = await forecastOf(user);
    // No paycheck in the ledger: until its end, which it says; $500.00 over 31 days is $16.13 a day.
    expect(forecast.safeToSpend).toEqual({
      amount: 500,
      perDay: 16.13,
      until: T(30),
      untilReason: 'LEDGER_END',
      lowestDate: T(0),
      lowestName: null,
      buffer: 0,
    });
    const answer = whatIfOf(
      await user.post(WHAT_IF_PATHS.whatIf, {
        items: [
          { date: T(3), amount: 500, name: 'TV' },
          { accountId: savings.id, date: T(2), amount: 80.01 },
        ],
      }),
    );
    expect(answer.accounts.map((account) => [account.affordable, account.lowestBeforePayday.balance])).toEqual([
      [true, 0],
      [false, -0.01],
    ]);
    expect(answer.accounts[0]?.after.lowest).toEqual({ date: T(3), name: 'TV', balance: 0 });
    expect(answer.accounts[1]?.after.lowest).toEqual({ date: T(2), name: 'Purchase', balance: -0.01 });
  });

  it('refuses bad input with a message per field, changing nothing; another user’s account is 404', async () => {
    const test = getApp(kind);
    const user = test.as(newSubject('safe-bad'));
    okJson(await user.post(LEDGER_PATHS.create, { ledger: { startDate: T(-5), endDate: T(30), currentBalance: 500 } }));
    const other = test.as(newSubject('safe-other'));
    okJson(await other.post(LEDGER_PATHS.create, { ledger: { startDate: T(0), endDate: T(30), currentBalance: 1 } }));
    const [theirs] = accountsInfoSchema.parse(okJson(await other.get(ACCOUNTS_PATHS.list))).accounts;
    const before = await test.snapshot();
    const ask = (items: unknown) => user.post(WHAT_IF_PATHS.whatIf, { items });
    expectBadRequest(await ask([{ date: T(-1), amount: 10 }]), { 'items.0.date': `Date must be today (${T(0)}) or later.` });
    expectBadRequest(
      await ask([
        { date: T(1), amount: 10 },
        { date: T(31), amount: 10 },
      ]),
      {
        'items.1.date': `Date must fall within the ledger, ${T(-5)} to ${T(30)}.`,
      },
    );
    expectBadRequest(await ask([{ date: T(1), amount: 0 }]), { 'items.0.amount': 'Amount must be greater than 0.' });
    expectBadRequest(await ask([{ date: T(1), amount: -5 }]), { 'items.0.amount': 'Amount must be greater than 0.' });
    expectBadRequest(await ask([{ date: T(1), amount: 1_000_000.01 }]), { 'items.0.amount': 'Amount must be at most $1,000,000.00.' });
    expectBadRequest(await ask([{ date: T(1), amount: 1.001 }]), { 'items.0.amount': 'Amount must have at most two decimal places.' });
    expectBadRequest(await ask([{ date: '2026-02-30', amount: 1 }]), { 'items.0.date': 'Date must be a real date (YYYY-MM-DD).' });
    expectBadRequest(await ask([]), { items: ITEMS_MESSAGE });
    expectBadRequest(await ask(Array.from({ length: 11 }, () => ({ date: T(1), amount: 1 }))), { items: ITEMS_MESSAGE });
    expect(okJson(await ask([{ date: T(0), amount: 1_000_000 }]))).toBeTruthy();

    expectNotFound(await ask([{ accountId: theirs?.id, date: T(1), amount: 1 }]), 'No such account.');
    expect(await test.snapshot()).toBe(before);
  });

  it('keeps "Keep at least" per user, from $0.00 to $1,000,000.00', async () => {
    const test = getApp(kind);
    const user = test.as(newSubject('safe-buffer'));
    expect(profileSchema.parse(okJson(await user.get(PROFILE)))).toMatchObject({ buffer: 0, everydaySpending: null });
    expectBadRequest(await user.patch(PROFILE, { buffer: -0.01 }), { buffer: 'Keep at least must be from $0.00 to $1,000,000.00.' });
    expectBadRequest(await user.patch(PROFILE, { buffer: 1_000_000.01 }), { buffer: 'Keep at least must be at most $1,000,000.00.' });
    expectBadRequest(await user.patch(PROFILE, { buffer: '5' }), { buffer: 'Keep at least must be a number.' });
    expectBadRequest(await user.patch(PROFILE, {}), { timeZone: 'Time zone is required.' });
    expect(profileSchema.parse(okJson(await user.patch(PROFILE, { buffer: 1_000_000 }))).buffer).toBe(1_000_000);
    expect(profileSchema.parse(okJson(await user.get(PROFILE))).buffer).toBe(1_000_000);
    // Another user's is their own.
    expect(profileSchema.parse(okJson(await test.as(newSubject('safe-buffer-other')).get(PROFILE))).buffer).toBe(0);
  });
});

describe.each(databaseKinds())('what a what-if costs on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind, { rateLimit: { perUserPerMinute: 100_000, unauthenticatedPerMinute: 100_000 } });
  });
  afterAll(() => test?.close());

  it('costs what a forecast read costs against the rate limit', async () => {
    const user = test.as(newSubject('safe-cost'));
    okJson(await user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1000, startDate: '2026-11-06', frequency: 'BW' })));
    for (const day of [1, 10, 20]) okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: `Bill ${day}`, amount: 50, day })));
    const rows = ledgerOf(await user.post(LEDGER_PATHS.create, { ledger: { startDate: T(0), endDate: '2031-11-20', currentBalance: 100 } }))
      .transactions.length;
    expect(rows).toBeGreaterThan(300);
    const remaining = (response: LightMyRequestResponse) => Number(response.headers['x-ratelimit-remaining']);
    const first = remaining(await user.get(PROFILE));
    const afterForecast = remaining(await user.get(LEDGER_PATHS.forecast));
    const afterWhatIf = remaining(await user.post(WHAT_IF_PATHS.whatIf, { items: [{ date: T(1), amount: 5 }] }));
    expect(first - afterForecast).toBe(1 + Math.ceil(rows / 100));
    expect(afterForecast - afterWhatIf).toBe(first - afterForecast);
  });
});
