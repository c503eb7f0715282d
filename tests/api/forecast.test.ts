/**
 * GET /api/ledger/forecast (issue 13, point 5) through the API, on SQLite and (with
 * TEST_POSTGRES_URL) PostgreSQL: pay periods opened by paychecks, the lowest balance ahead and the
 * first one below zero, in dollars with whole cents. The app's clock is fixed at 2026-11-21
 * (TEST_NOW) unless a test sets it to another fixed moment, so "today" is known in every answer.
 * Schedules and ledgers are made through the API; every test signs in as its own user; one app
 * per database.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withId } from '../../src/contract/common.js';
import { DEPOSITS_PATHS, depositsInfoSchema } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import {
  type Forecast,
  forecastSchema,
  type Ledger,
  LEDGER_PATHS,
  type LedgerTransaction,
  type PayPeriodInfo,
} from '../../src/contract/ledger.js';
import { addDays, isoDate, todayIn } from '../../src/domain/calendar-date.js';
import { expectNotFound, newSubject } from '../support/api-expectations.js';
import { databaseKinds } from '../support/test-databases.js';
import { type DepositBody, depositInput, type ExpenseBody, expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { startTestApp, TEST_NOW, type TestApp, type UserClient } from '../support/test-app.js';

/** todayIn(TEST_NOW). */
const TODAY = '2026-11-21';

const NO_LEDGER = 'You have no ledger yet: create one first.';

/** Paid every other Friday from 2026-11-06: 11-06, 11-20, 12-04, 12-18, 2027-01-01, ... */
const ACME: DepositBody = { name: 'Acme', amount: 1000, startDate: '2026-11-06', frequency: 'BW' };
const RENT: ExpenseBody = { name: 'Rent', amount: 1200, day: 1 };
const PHONE: ExpenseBody = { name: 'Phone', amount: 45.55, day: 15 };

/** The answer, held to the contract (which also refuses an amount with a fraction of a cent). */
function forecastOf(response: LightMyRequestResponse): Forecast {
  const body = okJson(response);
  expect(Object.keys(body as object).sort()).toEqual([
    'chart',
    'currentBalance',
    'endDate',
    'firstBelowZero',
    'lowest',
    'openingBalance',
    'payPeriods',
    'pendingBalance',
    'safeToSpend',
    'startDate',
    'today',
    'upcoming',
  ]);
  return forecastSchema.parse(body);
}

function period(
  startDate: string,
  endDate: string,
  figures: { income: number; bills: number; leftover: number; lowest: number; endBalance: number },
): PayPeriodInfo {
  return { startDate, endDate, ...figures };
}

function rowAt(ledger: Ledger, name: string, date: string): LedgerTransaction {
  const row = ledger.transactions.find((candidate) => candidate.name === name && candidate.date === date);
  if (!row) throw new Error(`no row ${name} on ${date} in ${JSON.stringify(ledger.transactions)}`);
  return row;
}

const toCents = (dollars: number) => Math.round(dollars * 100);

/**
 * What the forecast must say of a ledger answer, recomputed by brute force in cents from its rows
 * (in row order, with their running balances): the ledger's own figures, not the domain's functions.
 */
function expectedForecast(ledger: Ledger, today: string): Forecast {
  const rows = ledger.transactions;
  const starts = [ledger.startDate];
  for (const row of rows) {
    const paycheck = row.type === 'C' && row.source?.kind === 'deposit';
    if (paycheck && !starts.includes(row.date)) starts.push(row.date);
  }
  let balance = toCents(ledger.openingBalance);
  const payPeriods = starts.map((startDate, index) => {
    const next = starts[index + 1];
    const endDate = next === undefined ? ledger.endDate : addDays(isoDate(next), -1);
    const inside = rows.filter((row) => row.date >= startDate && row.date <= endDate);
    const sum = (type: 'C' | 'D') => inside.filter((row) => row.type === type).reduce((total, row) => total + toCents(row.amount), 0);
    const lowest = inside.length === 0 ? balance : Math.min(...inside.map((row) => toCents(row.balance)));
    balance = inside.length === 0 ? balance : toCents((inside.at(-1) as LedgerTransaction).balance);
    return period(startDate, endDate, {
      income: sum('C') / 100,
      bills: sum('D') / 100,
      leftover: (sum('C') - sum('D')) / 100,
      lowest: lowest / 100,
      endBalance: balance / 100,
    });
  });
  const ahead = rows.filter((row) => row.date >= today);
  const minimum = Math.min(...ahead.map((row) => toCents(row.balance)));
  const point = (row: LedgerTransaction | undefined) => (row ? { date: row.date, name: row.name, balance: row.balance } : null);
  return {
    today,
    lowest: point(ahead.find((row) => toCents(row.balance) === minimum)),
    firstBelowZero: point(ahead.find((row) => row.balance < 0)),
    payPeriods,
    startDate: ledger.startDate,
    endDate: ledger.endDate,
    openingBalance: ledger.openingBalance,
    currentBalance: ledger.currentBalance,
    pendingBalance: ledger.pendingBalance,
    // The chart's points: every paycheck, and the last row of each date.
    chart: rows
      .filter((row, index) => (row.type === 'C' && row.source?.kind === 'deposit') || rows[index + 1]?.date !== row.date)
      .map((row) => ({
        date: row.date,
        name: row.name,
        balance: row.balance,
        paycheck: row.type === 'C' && row.source?.kind === 'deposit',
      })),
    // Home's rows: today and the 13 days after it.
    upcoming: rows.filter((row) => row.date >= today && row.date <= addDays(isoDate(today), 13)),
    safeToSpend: expectedSafeToSpend(ledger, today),
  };
}

/**
 * Safe to spend with no buffer (issue 36), by brute force day by day: the lowest end-of-day balance
 * from today to the day before the first paycheck after today (or to the ledger's end), in cents.
 */
function expectedSafeToSpend(ledger: Ledger, today: string): Forecast['safeToSpend'] {
  if (today > ledger.endDate) return null;
  const rows = ledger.transactions;
  const payday = rows.find((row) => row.date > today && row.type === 'C' && row.source?.kind === 'deposit')?.date;
  const last = payday === undefined ? ledger.endDate : addDays(isoDate(payday), -1);
  let lowest = Number.POSITIVE_INFINITY;
  let lowestDate = today;
  let lowestName: string | null = null;
  let days = 0;
  for (let date = isoDate(today); date <= last; date = addDays(date, 1)) {
    days += 1;
    const through = rows.filter((row) => row.date <= date);
    const balance = through.length === 0 ? toCents(ledger.openingBalance) : toCents((through.at(-1) as LedgerTransaction).balance);
    if (balance < lowest) {
      lowest = balance;
      lowestDate = date;
      lowestName = rows.filter((row) => row.date === date).at(-1)?.name ?? null;
    }
  }
  return {
    amount: lowest / 100,
    perDay: lowest < 0 ? null : Math.floor((2 * lowest + days) / (2 * days)) / 100,
    until: payday ?? ledger.endDate,
    untilReason: payday === undefined ? 'LEDGER_END' : 'PAYDAY',
    lowestDate,
    lowestName,
    buffer: 0,
  };
}

describe.each(databaseKinds())('the forecast on %s', (kind) => {
  let test: TestApp;
  /** The app's clock: TEST_NOW unless a test fixes another moment. */
  let clock = TEST_NOW;
  beforeAll(async () => {
    test = await startTestApp(kind, { now: () => clock });
  });
  afterAll(() => test.close());
  afterEach(() => {
    clock = TEST_NOW;
  });

  /** The whole answer, every field of which a brute force over the ledger answer must give too. */
  async function fullForecast(client: UserClient): Promise<Forecast> {
    const answer = forecastOf(await client.get(LEDGER_PATHS.forecast));
    expect(answer).toEqual(expectedForecast(await retrieve(client), answer.today));
    return answer;
  }

  /** What will the money do: the answer's first four fields, which the tests below spell out. */
  async function forecast(client: UserClient): Promise<Pick<Forecast, 'today' | 'lowest' | 'firstBelowZero' | 'payPeriods'>> {
    const { today, lowest, firstBelowZero, payPeriods } = await fullForecast(client);
    return { today, lowest, firstBelowZero, payPeriods };
  }

  async function retrieve(client: UserClient): Promise<Ledger> {
    return ledgerOf(await client.get(LEDGER_PATHS.retrieve));
  }

  async function createLedger(client: UserClient, startDate: string, endDate: string, currentBalance: number): Promise<Ledger> {
    return ledgerOf(await client.post(LEDGER_PATHS.create, { ledger: { startDate, endDate, currentBalance } }));
  }

  async function addTransaction(client: UserClient, date: string, name: string, type: 'C' | 'D', amount: number): Promise<Ledger> {
    return ledgerOf(await client.post(LEDGER_PATHS.addTransaction, { date, name, type, amount }));
  }

  /** Sends the row as the page holds it, with some fields changed. */
  async function updateRow(client: UserClient, row: LedgerTransaction, changes: Partial<LedgerTransaction>): Promise<Ledger> {
    return ledgerOf(await client.patch(LEDGER_PATHS.updateTransaction, { ...row, ...changes }));
  }

  async function addDeposit(client: UserClient, deposit: DepositBody): Promise<void> {
    depositsInfoSchema.parse(okJson(await client.post(DEPOSITS_PATHS.add, depositInput(deposit))));
  }

  async function addExpense(client: UserClient, expense: ExpenseBody): Promise<void> {
    expensesInfoSchema.parse(okJson(await client.post(EXPENSES_PATHS.add, expenseInput(expense))));
  }

  /** A new user with these schedules, added in this order, and no ledger yet. */
  async function userWith(label: string, deposits: readonly DepositBody[], expenses: readonly ExpenseBody[]): Promise<UserClient> {
    const client = test.as(newSubject(label));
    for (const deposit of deposits) await addDeposit(client, deposit);
    for (const expense of expenses) await addExpense(client, expense);
    return client;
  }

  it('answers 404 with the error body without a ledger, whatever the schedules or other users’ ledgers; 401 without a token', async () => {
    const other = await userWith('forecast-other', [ACME], [RENT]);
    await createLedger(other, '2026-11-01', '2026-12-31', 100);
    const client = await userWith('forecast-none', [ACME], [RENT]);

    expectNotFound(await client.get(LEDGER_PATHS.forecast), NO_LEDGER);
    expectNotFound(await test.as(newSubject('forecast-nobody')).get(LEDGER_PATHS.forecast), NO_LEDGER);
    // Asking created nothing.
    expect(okJson(await client.get(LEDGER_PATHS.retrieve))).toEqual({ ledger: null });
    expect((await test.app.inject({ method: 'GET', url: LEDGER_PATHS.forecast })).statusCode).toBe(401);
  });

  it('makes one period of the whole ledger when no paycheck falls in it; a credit added by hand opens none', async () => {
    // Acme's first payday comes after the ledger's end.
    const client = await userWith('forecast-no-paycheck', [{ ...ACME, startDate: '2027-01-08' }], [RENT, PHONE]);
    await createLedger(client, '2026-11-01', '2026-12-31', 1500);
    const ledger = await addTransaction(client, TODAY, 'Tax refund', 'C', 300);
    expect(ledger.transactions.map((row) => [row.date, row.name, row.balance])).toEqual([
      ['2026-11-01', 'Rent', 300],
      ['2026-11-15', 'Phone', 254.45],
      ['2026-11-21', 'Tax refund', 554.45],
      ['2026-12-01', 'Rent', -645.55],
      ['2026-12-15', 'Phone', -691.1],
    ]);

    expect(await forecast(client)).toEqual({
      today: TODAY,
      lowest: { date: '2026-12-15', name: 'Phone', balance: -691.1 },
      firstBelowZero: { date: '2026-12-01', name: 'Rent', balance: -645.55 },
      payPeriods: [
        period('2026-11-01', '2026-12-31', { income: 300, bills: 2491.1, leftover: -2191.1, lowest: -691.1, endBalance: -691.1 }),
      ],
    });
  });

  it('opens one period for several deposits paid on one day, and ignores a dip below zero before today', async () => {
    const side: DepositBody = { name: 'Side', amount: 150.25, startDate: '2026-11-06', frequency: 'BW' };
    const client = await userWith(
      'forecast-same-day',
      [{ ...ACME, amount: 2000 }, side],
      [RENT, { name: 'Internet', amount: 60, day: 20 }],
    );
    const ledger = await createLedger(client, '2026-11-01', '2026-12-10', 100);
    expect(ledger.transactions.filter((row) => row.source?.kind === 'deposit').map((row) => row.date)).toEqual([
      '2026-11-06',
      '2026-11-06',
      '2026-11-20',
      '2026-11-20',
      '2026-12-04',
      '2026-12-04',
    ]);

    expect(await forecast(client)).toEqual({
      today: TODAY,
      lowest: { date: '2026-12-01', name: 'Rent', balance: 1940.5 },
      firstBelowZero: null,
      payPeriods: [
        period('2026-11-01', '2026-11-05', { income: 0, bills: 1200, leftover: -1200, lowest: -1100, endBalance: -1100 }),
        period('2026-11-06', '2026-11-19', { income: 2150.25, bills: 0, leftover: 2150.25, lowest: 900, endBalance: 1050.25 }),
        period('2026-11-20', '2026-12-03', { income: 2150.25, bills: 1260, leftover: 890.25, lowest: 1940.5, endBalance: 1940.5 }),
        period('2026-12-04', '2026-12-10', { income: 2150.25, bills: 0, leftover: 2150.25, lowest: 3940.5, endBalance: 4090.75 }),
      ],
    });

    // Deleting one of the day's paychecks leaves the period to the other; deleting both merges it into the one before.
    const periodStarts = async () => (await forecast(client)).payPeriods.map((each) => each.startDate);
    ledgerOf(await client.delete(withId(LEDGER_PATHS.transaction, rowAt(ledger, 'Acme Paycheck', '2026-12-04').id)));
    expect(await periodStarts()).toEqual(['2026-11-01', '2026-11-06', '2026-11-20', '2026-12-04']);
    ledgerOf(await client.delete(withId(LEDGER_PATHS.transaction, rowAt(ledger, 'Side Paycheck', '2026-12-04').id)));
    expect((await forecast(client)).payPeriods.at(-1)).toEqual(
      period('2026-11-20', '2026-12-10', { income: 2150.25, bills: 1260, leftover: 890.25, lowest: 1940.5, endBalance: 1940.5 }),
    );
    expect(await periodStarts()).toEqual(['2026-11-01', '2026-11-06', '2026-11-20']);
  });

  it('gives a period without rows the balance it started with, as lowest and end balance', async () => {
    const client = await userWith('forecast-empty-period', [ACME], [{ name: 'Gym', amount: 30, day: 25 }]);
    await createLedger(client, '2026-11-01', '2026-11-30', 500);
    expect(await forecast(client)).toEqual({
      today: TODAY,
      lowest: { date: '2026-11-25', name: 'Gym', balance: 2470 },
      firstBelowZero: null,
      payPeriods: [
        period('2026-11-01', '2026-11-05', { income: 0, bills: 0, leftover: 0, lowest: 500, endBalance: 500 }),
        period('2026-11-06', '2026-11-19', { income: 1000, bills: 0, leftover: 1000, lowest: 1500, endBalance: 1500 }),
        period('2026-11-20', '2026-11-30', { income: 1000, bills: 30, leftover: 970, lowest: 2470, endBalance: 2470 }),
      ],
    });

    // A paycheck on the start date: the opening period is its period, no empty one before it.
    await createLedger(client, '2026-11-06', '2026-11-30', 500);
    expect((await forecast(client)).payPeriods).toEqual([
      period('2026-11-06', '2026-11-19', { income: 1000, bills: 0, leftover: 1000, lowest: 1500, endBalance: 1500 }),
      period('2026-11-20', '2026-11-30', { income: 1000, bills: 30, leftover: 970, lowest: 2470, endBalance: 2470 }),
    ]);

    // A ledger without any row, opening below zero: one period at that balance, and no row ahead to name.
    const empty = test.as(newSubject('forecast-no-rows'));
    await createLedger(empty, '2026-11-01', '2026-11-30', -25.5);
    expect(await forecast(empty)).toEqual({
      today: TODAY,
      lowest: null,
      firstBelowZero: null,
      payPeriods: [period('2026-11-01', '2026-11-30', { income: 0, bills: 0, leftover: 0, lowest: -25.5, endBalance: -25.5 })],
    });
  });

  it('names the first row ahead that goes below zero and the lowest one, as the balance dips and comes back', async () => {
    const client = await userWith('forecast-dip', [ACME], [RENT, PHONE]);
    await createLedger(client, '2026-11-01', '2026-12-31', 250);
    await addTransaction(client, '2026-12-20', 'Car repair', 'D', 2000);
    const ledger = await addTransaction(client, '2026-12-28', 'Bonus', 'C', 500);
    expect(ledger.transactions.map((row) => [row.date, row.name, row.balance])).toEqual([
      ['2026-11-01', 'Rent', -950],
      ['2026-11-06', 'Acme Paycheck', 50],
      ['2026-11-15', 'Phone', 4.45],
      ['2026-11-20', 'Acme Paycheck', 1004.45],
      ['2026-12-01', 'Rent', -195.55],
      ['2026-12-04', 'Acme Paycheck', 804.45],
      ['2026-12-15', 'Phone', 758.9],
      ['2026-12-18', 'Acme Paycheck', 1758.9],
      ['2026-12-20', 'Car repair', -241.1],
      ['2026-12-28', 'Bonus', 258.9],
    ]);

    expect(await forecast(client)).toEqual({
      today: TODAY,
      lowest: { date: '2026-12-20', name: 'Car repair', balance: -241.1 },
      firstBelowZero: { date: '2026-12-01', name: 'Rent', balance: -195.55 },
      payPeriods: [
        period('2026-11-01', '2026-11-05', { income: 0, bills: 1200, leftover: -1200, lowest: -950, endBalance: -950 }),
        period('2026-11-06', '2026-11-19', { income: 1000, bills: 45.55, leftover: 954.45, lowest: 4.45, endBalance: 4.45 }),
        period('2026-11-20', '2026-12-03', { income: 1000, bills: 1200, leftover: -200, lowest: -195.55, endBalance: -195.55 }),
        period('2026-12-04', '2026-12-17', { income: 1000, bills: 45.55, leftover: 954.45, lowest: 758.9, endBalance: 758.9 }),
        period('2026-12-18', '2026-12-31', { income: 1500, bills: 2000, leftover: -500, lowest: -241.1, endBalance: 258.9 }),
      ],
    });

    // Rent down to exactly what is there: $0.00 is not below zero, so the repair is now the first.
    await updateRow(client, rowAt(ledger, 'Rent', '2026-12-01'), { amount: 1004.45 });
    let answer = await forecast(client);
    expect(answer.firstBelowZero).toEqual({ date: '2026-12-20', name: 'Car repair', balance: -45.55 });
    expect(answer.lowest).toEqual({ date: '2026-12-20', name: 'Car repair', balance: -45.55 });

    // The repair down to exactly zero too: nothing below zero ahead; of two rows at the lowest, the first.
    await updateRow(client, rowAt(ledger, 'Car repair', '2026-12-20'), { amount: 1954.45 });
    answer = await forecast(client);
    expect(answer.firstBelowZero).toBeNull();
    expect(answer.lowest).toEqual({ date: '2026-12-01', name: 'Rent', balance: 0 });
    expect(answer.payPeriods.map((each) => [each.lowest, each.endBalance])).toEqual([
      [-950, -950],
      [4.45, 4.45],
      [0, 0],
      [954.45, 954.45],
      [0, 500],
    ]);
  });

  it('looks ahead from today: a ledger after today all counts, one before today names nothing, inside it today counts and yesterday not', async () => {
    const client = await userWith('forecast-today', [ACME], [RENT]);

    // Today (2026-11-21) before the ledger: every row is ahead.
    await createLedger(client, '2026-12-01', '2026-12-31', 100);
    expect(await forecast(client)).toEqual({
      today: TODAY,
      lowest: { date: '2026-12-01', name: 'Rent', balance: -1100 },
      firstBelowZero: { date: '2026-12-01', name: 'Rent', balance: -1100 },
      payPeriods: [
        period('2026-12-01', '2026-12-03', { income: 0, bills: 1200, leftover: -1200, lowest: -1100, endBalance: -1100 }),
        period('2026-12-04', '2026-12-17', { income: 1000, bills: 0, leftover: 1000, lowest: -100, endBalance: -100 }),
        period('2026-12-18', '2026-12-31', { income: 1000, bills: 0, leftover: 1000, lowest: 900, endBalance: 900 }),
      ],
    });

    // Today after the ledger: nothing is ahead, however low the balance went.
    await createLedger(client, '2026-09-01', '2026-10-31', 100);
    expect(await forecast(client)).toEqual({
      today: TODAY,
      lowest: null,
      firstBelowZero: null,
      payPeriods: [period('2026-09-01', '2026-10-31', { income: 0, bills: 2400, leftover: -2400, lowest: -2300, endBalance: -2300 })],
    });

    // Today inside the ledger: yesterday's dip is history, today's row is ahead.
    const inside = await userWith('forecast-inside', [ACME], []);
    await createLedger(inside, '2026-11-01', '2026-11-30', 0);
    await addTransaction(inside, '2026-11-20', 'Plumber', 'D', 2100);
    await addTransaction(inside, TODAY, 'Groceries', 'D', 50);
    await addTransaction(inside, '2026-11-30', 'Refund', 'C', 400);
    expect(await forecast(inside)).toEqual({
      today: TODAY,
      lowest: { date: TODAY, name: 'Groceries', balance: -150 },
      firstBelowZero: { date: TODAY, name: 'Groceries', balance: -150 },
      payPeriods: [
        period('2026-11-01', '2026-11-05', { income: 0, bills: 0, leftover: 0, lowest: 0, endBalance: 0 }),
        period('2026-11-06', '2026-11-19', { income: 1000, bills: 0, leftover: 1000, lowest: 1000, endBalance: 1000 }),
        period('2026-11-20', '2026-11-30', { income: 1400, bills: 2150, leftover: -750, lowest: -150, endBalance: 250 }),
      ],
    });
  });

  it('takes today from the server’s clock, in local time, and answers what a brute force over the ledger answer does', async () => {
    const client = await userWith('forecast-clock', [ACME], []);
    await createLedger(client, '2026-11-01', '2026-11-30', 0);
    await addTransaction(client, '2026-11-20', 'Plumber', 'D', 2100);
    await addTransaction(client, '2026-11-21', 'Groceries', 'D', 50);
    const ledger = await addTransaction(client, '2026-11-30', 'Refund', 'C', 400);
    const periods = (await forecast(client)).payPeriods;

    const plumber = { date: '2026-11-20', name: 'Plumber', balance: -100 };
    const groceries = { date: '2026-11-21', name: 'Groceries', balance: -150 };
    const cases = [
      // Before the ledger: all of it.
      { now: new Date(2026, 9, 15, 9, 30), today: '2026-10-15', lowest: groceries, firstBelowZero: plumber },
      // The last moment of 2026-11-20 and the first of 2026-11-21, local time.
      { now: new Date(2026, 10, 20, 23, 59, 59, 999), today: '2026-11-20', lowest: groceries, firstBelowZero: plumber },
      { now: new Date(2026, 10, 21, 0, 0, 0, 0), today: '2026-11-21', lowest: groceries, firstBelowZero: groceries },
      {
        now: new Date(2026, 10, 22, 8, 0),
        today: '2026-11-22',
        lowest: { date: '2026-11-30', name: 'Refund', balance: 250 },
        firstBelowZero: null,
      },
      // The ledger's last day, then the day after it.
      {
        now: new Date(2026, 10, 30, 18, 0),
        today: '2026-11-30',
        lowest: { date: '2026-11-30', name: 'Refund', balance: 250 },
        firstBelowZero: null,
      },
      { now: new Date(2026, 11, 1, 0, 0), today: '2026-12-01', lowest: null, firstBelowZero: null },
    ];
    for (const each of cases) {
      clock = each.now;
      expect(todayIn(clock)).toBe(each.today);
      expect(await forecast(client), each.today).toEqual({
        today: each.today,
        lowest: each.lowest,
        firstBelowZero: each.firstBelowZero,
        payPeriods: periods,
      });
      expect(expectedForecast(ledger, each.today)).toEqual(await fullForecast(client));
    }
  });

  it('agrees with the ledger answer on a realistic ledger, and paying or clearing rows does not change it', async () => {
    const client = await userWith(
      'forecast-realistic',
      [
        { name: 'Acme', amount: 2134.67, startDate: '2026-11-06', frequency: 'BW' },
        { name: 'Side Gig', amount: 400, startDate: '2026-10-01', frequency: 'EOM' },
        // Also paid on Fridays two weeks apart, on Acme's paydays: one period for both.
        { name: 'Stipend', amount: 75.5, startDate: '2026-11-20', frequency: 'BW' },
      ],
      [
        RENT,
        PHONE,
        { name: 'Gym', amount: 30, day: 25 },
        { name: 'Insurance', amount: 310.17, day: 31 },
        { name: 'Car loan', amount: 389.99, day: 10 },
      ],
    );
    await createLedger(client, '2026-11-01', '2027-04-30', 1234.56);
    await addTransaction(client, '2026-11-21', 'Groceries', 'D', 180.43);
    await addTransaction(client, '2026-12-24', 'Gifts', 'D', 6650);
    await addTransaction(client, '2027-02-14', 'Tax refund', 'C', 912.01);
    const ledger = await retrieve(client);
    expect(await fullForecast(client)).toEqual(expectedForecast(ledger, TODAY));
    const before = await forecast(client);

    // The periods cover the ledger with no gap or overlap and add up to its credits and debits.
    expect(before.payPeriods[0]?.startDate).toBe(ledger.startDate);
    expect(before.payPeriods.at(-1)?.endDate).toBe(ledger.endDate);
    before.payPeriods.slice(1).forEach((each, index) => {
      expect(each.startDate).toBe(addDays(isoDate((before.payPeriods[index] as PayPeriodInfo).endDate), 1));
    });
    const total = (amounts: readonly number[]) => amounts.reduce((sum, amount) => sum + toCents(amount), 0);
    const ofType = (type: 'C' | 'D') => ledger.transactions.filter((row) => row.type === type).map((row) => row.amount);
    expect(total(before.payPeriods.map((each) => each.income))).toBe(total(ofType('C')));
    expect(total(before.payPeriods.map((each) => each.bills))).toBe(total(ofType('D')));
    expect(before.payPeriods.at(-1)?.endBalance).toBe(ledger.transactions.at(-1)?.balance);
    // One period per payday (Acme and Stipend share theirs), after an opening one.
    const paydays = new Set(ledger.transactions.filter((row) => row.source?.kind === 'deposit').map((row) => row.date));
    expect(before.payPeriods.map((each) => each.startDate)).toEqual([ledger.startDate, ...paydays]);
    expect(before.payPeriods.length).toBeGreaterThan(15);
    // The gifts take it below zero until the end of month pays.
    expect(before.firstBelowZero).toEqual({ date: '2026-12-24', name: 'Gifts', balance: -41.94 });

    // Paying, clearing, and paying then clearing: the forecast projects every row, whatever its status
    // (only the balances of what is paid and cleared and the statuses of the rows ahead say so).
    await updateRow(client, rowAt(ledger, 'Groceries', '2026-11-21'), { status: 'PAID' });
    await updateRow(client, rowAt(ledger, 'Rent', '2026-12-01'), { status: 'CLEARED' });
    const paid = await updateRow(client, rowAt(ledger, 'Gifts', '2026-12-24'), { status: 'PAID' });
    await updateRow(client, rowAt(paid, 'Gifts', '2026-12-24'), { status: 'CLEARED' });
    const afterPaying = await retrieve(client);
    expect(afterPaying.pendingBalance).not.toBe(ledger.pendingBalance);
    expect(await forecast(client)).toEqual(before);

    // A new row does change it: the answer is computed from the rows as they are at each request.
    const withCards = await addTransaction(client, '2026-12-24', 'Gift cards', 'D', 0.01);
    expect(await fullForecast(client)).toEqual(expectedForecast(withCards, TODAY));
    const changed = await forecast(client);
    expect(changed).not.toEqual(before);
  });
});
