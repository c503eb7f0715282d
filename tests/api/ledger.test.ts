/**
 * The ledger API against a real database (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set),
 * with the app's clock fixed at 2026-11-21. Every test signs in as its own user, so tests sharing
 * one app cannot see each other's rows. Deposits and expenses are seeded straight into their tables.
 */
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/errors.js';
import type { z } from 'zod';
import { withId } from '../../src/contract/common.js';
import { type Ledger, LEDGER_PATHS, ledgerInfoSchema, type LedgerTransaction } from '../../src/contract/ledger.js';
import type { transactionUpdateSchema } from '../../src/contract/ledger-requests.js';
import { isoDate } from '../../src/domain/calendar-date.js';
import { generateLedgerDrafts } from '../../src/domain/ledger.js';
import { cents, centsToDollars } from '../../src/domain/money.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';

const PATHS = {
  create: LEDGER_PATHS.create,
  retrieve: LEDGER_PATHS.retrieve,
  add: LEDGER_PATHS.addTransaction,
  update: LEDGER_PATHS.updateTransaction,
  transaction: (id: string) => withId(LEDGER_PATHS.transaction, id),
};

interface DepositSeed {
  name: string;
  amount: number;
  startDate: string;
  frequency: 'BW' | 'EOM';
}

interface ExpenseSeed {
  name: string;
  amount: number;
  day: number;
  endDate?: string | null;
}

let userCounter = 0;
/** A fresh user per test: the subject is all the app knows about them. */
function newUser(label: string): string {
  userCounter += 1;
  return `${label}-${userCounter}-${crypto.randomBytes(3).toString('hex')}`;
}

function ledgerOf(response: LightMyRequestResponse): Ledger {
  expect(response.statusCode, response.body).toBe(200);
  const { ledger } = ledgerInfoSchema.parse(response.json());
  if (!ledger) throw new Error('expected a ledger in the answer');
  return ledger;
}

function errorOf(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  return errorBodySchema.parse(response.json()).error;
}

function rowNamed(ledger: Ledger, name: string, date?: string): LedgerTransaction {
  const row = ledger.transactions.find((candidate) => candidate.name === name && (date === undefined || candidate.date === date));
  if (!row) throw new Error(`no row ${name} ${date ?? ''} in ${JSON.stringify(ledger.transactions)}`);
  return row;
}

/** What a client sends to update-transaction (before the schema's parsing brands the date). */
type UpdateBody = z.input<typeof transactionUpdateSchema>;

/** The body the page sends for a row: the whole row, balance included, with some fields changed. */
function updateBody(row: LedgerTransaction, changes: Partial<UpdateBody> = {}): UpdateBody {
  return { ...row, ...changes };
}

/** A row without its id, for comparing whole ledgers. */
function shape(row: LedgerTransaction) {
  return { date: row.date, name: row.name, type: row.type, amount: row.amount, balance: row.balance, status: row.status };
}

describe.each(databaseKinds())('ledger API on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test.close());

  let seedOrder = 0;
  /** created_at orders the seeds the way the user added them. */
  function createdAt(): string {
    seedOrder += 1;
    return new Date(Date.UTC(2026, 0, 1, 0, 0, seedOrder)).toISOString();
  }

  async function seedDeposit(subject: string, deposit: DepositSeed): Promise<void> {
    const weekday = new Date(`${deposit.startDate}T00:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
    await withLedgerTables(test.app.database.db)
      .insertInto('deposits')
      .values({
        id: crypto.randomUUID(),
        owner_iss: test.issuer.issuer,
        owner_sub: subject,
        name: deposit.name,
        type: 'Direct Deposit',
        day: deposit.frequency === 'BW' ? weekday : 'N/A',
        amount_cents: Math.round(deposit.amount * 100),
        start_date: deposit.startDate,
        frequency: deposit.frequency,
        created_at: createdAt(),
      })
      .execute();
  }

  async function seedExpense(subject: string, expense: ExpenseSeed, issuer = test.issuer.issuer): Promise<void> {
    await withLedgerTables(test.app.database.db)
      .insertInto('expenses')
      .values({
        id: crypto.randomUUID(),
        owner_iss: issuer,
        owner_sub: subject,
        name: expense.name,
        type: 'Bill',
        frequency: 'M',
        day: expense.day,
        amount_cents: Math.round(expense.amount * 100),
        start_date: null,
        end_date: expense.endDate ?? null,
        created_at: createdAt(),
      })
      .execute();
  }

  async function createLedger(client: UserClient, startDate: string, endDate: string, currentBalance: number): Promise<Ledger> {
    return ledgerOf(await client.post(PATHS.create, { ledger: { startDate, endDate, currentBalance } }));
  }

  async function retrieve(client: UserClient): Promise<Ledger | null> {
    const response = await client.get(PATHS.retrieve);
    expect(response.statusCode, response.body).toBe(200);
    return ledgerInfoSchema.parse(response.json()).ledger;
  }

  async function add(client: UserClient, date: string, name: string, type: 'C' | 'D', amount: number): Promise<Ledger> {
    return ledgerOf(await client.post(PATHS.add, { date, name, type, amount }));
  }

  async function storedVersion(id: string): Promise<number> {
    const row = await withLedgerTables(test.app.database.db)
      .selectFrom('ledger_transactions')
      .select('version')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.version;
  }

  describe('create-ledger', () => {
    it('fills the ledger with paychecks and bills in row order, every balance exact', async () => {
      const user = newUser('create');
      // Seeded out of name order: the ledger must sort by name, not by when a bill was added.
      await seedExpense(user, { name: 'Water', amount: 30.25, day: 11 });
      await seedExpense(user, { name: 'Electric', amount: 85.5, day: 11 });
      await seedExpense(user, { name: 'Rent', amount: 1200, day: 1 });
      // A Friday two weeks before the range: paydays fall on 12-11 and 12-25.
      await seedDeposit(user, { name: 'Acme', amount: 1500, startDate: '2026-11-27', frequency: 'BW' });

      const ledger = await createLedger(test.as(user), '2026-12-01', '2026-12-31', 100);

      expect(ledger).toEqual({
        startDate: '2026-12-01',
        endDate: '2026-12-31',
        openingBalance: 100,
        currentBalance: 100,
        pendingBalance: 100,
        transactions: [
          {
            id: expect.any(String),
            date: '2026-12-01',
            name: 'Rent',
            type: 'D',
            amount: 1200,
            balance: -1100,
            status: 'PENDING',
            source: { kind: 'expense', id: expect.any(String), occurrence: '2026-12-01', edited: false },
          },
          // On one date the paycheck comes before the bills it pays, then the bills by name.
          {
            id: expect.any(String),
            date: '2026-12-11',
            name: 'Acme Paycheck',
            type: 'C',
            amount: 1500,
            balance: 400,
            status: 'PENDING',
            source: { kind: 'deposit', id: expect.any(String), occurrence: '2026-12-11', edited: false },
          },
          {
            id: expect.any(String),
            date: '2026-12-11',
            name: 'Electric',
            type: 'D',
            amount: 85.5,
            balance: 314.5,
            status: 'PENDING',
            source: { kind: 'expense', id: expect.any(String), occurrence: '2026-12-11', edited: false },
          },
          {
            id: expect.any(String),
            date: '2026-12-11',
            name: 'Water',
            type: 'D',
            amount: 30.25,
            balance: 284.25,
            status: 'PENDING',
            source: { kind: 'expense', id: expect.any(String), occurrence: '2026-12-11', edited: false },
          },
          {
            id: expect.any(String),
            date: '2026-12-25',
            name: 'Acme Paycheck',
            type: 'C',
            amount: 1500,
            balance: 1784.25,
            status: 'PENDING',
            source: { kind: 'deposit', id: expect.any(String), occurrence: '2026-12-25', edited: false },
          },
        ],
      });
      expect(new Set(ledger.transactions.map((row) => row.id)).size).toBe(5);
      // What create answered is what is stored.
      expect(await retrieve(test.as(user))).toEqual(ledger);
    });

    it('keeps a deposit name that already ends in Paycheck as it is', async () => {
      const user = newUser('paycheck-name');
      await seedDeposit(user, { name: 'Acme Paycheck', amount: 10, startDate: '2026-12-04', frequency: 'BW' });
      const ledger = await createLedger(test.as(user), '2026-12-01', '2026-12-10', 0);
      expect(ledger.transactions.map(shape)).toEqual([
        { date: '2026-12-04', name: 'Acme Paycheck', type: 'C', amount: 10, balance: 10, status: 'PENDING' },
      ]);
    });

    it('fits the longest deposit name with " Paycheck" added, and that row can be paid', async () => {
      const user = newUser('long-name');
      const longest = 'A'.repeat(100);
      await seedDeposit(user, { name: longest, amount: 10, startDate: '2026-12-04', frequency: 'BW' });
      const ledger = await createLedger(test.as(user), '2026-12-01', '2026-12-10', 0);
      const row = rowNamed(ledger, `${longest} Paycheck`);
      const paid = ledgerOf(await test.as(user).patch(PATHS.update, updateBody(row, { status: 'PAID' })));
      expect(rowNamed(paid, `${longest} Paycheck`).status).toBe('PAID');
    });

    it('moves a weekend end-of-month payday to Friday, clamps a 31st bill in February and stops a bill after its end date', async () => {
      const user = newUser('calendar');
      await seedDeposit(user, { name: 'Salary', amount: 3000, startDate: '2027-01-01', frequency: 'EOM' });
      await seedExpense(user, { name: 'Gym', amount: 40, day: 31 });
      await seedExpense(user, { name: 'Loan', amount: 250, day: 10, endDate: '2027-03-15' });

      const ledger = await createLedger(test.as(user), '2027-01-01', '2027-04-30', 500);
      const datesOf = (name: string) => ledger.transactions.filter((row) => row.name === name).map((row) => row.date);

      // 2027-01-31 and 2027-02-28 are Sundays: paid the Friday before. 2027-04-30 is a Friday.
      expect(datesOf('Salary Paycheck')).toEqual(['2027-01-29', '2027-02-26', '2027-03-31', '2027-04-30']);
      expect(datesOf('Gym')).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
      // The end date 03-15 falls mid-range: no April payment.
      expect(datesOf('Loan')).toEqual(['2027-01-10', '2027-02-10', '2027-03-10']);
      expect(ledger.transactions.map((row) => `${row.date} ${row.name} ${row.balance}`)).toEqual([
        '2027-01-10 Loan 250',
        '2027-01-29 Salary Paycheck 3250',
        '2027-01-31 Gym 3210',
        '2027-02-10 Loan 2960',
        '2027-02-26 Salary Paycheck 5960',
        '2027-02-28 Gym 5920',
        '2027-03-10 Loan 5670',
        '2027-03-31 Salary Paycheck 8670',
        '2027-03-31 Gym 8630',
        '2027-04-30 Salary Paycheck 11630',
        '2027-04-30 Gym 11590',
      ]);
    });

    it('clamps a 31st bill to February 29 in a leap year', async () => {
      const user = newUser('leap');
      await seedExpense(user, { name: 'Gym', amount: 40, day: 31 });
      const ledger = await createLedger(test.as(user), '2028-02-01', '2028-03-01', 0);
      expect(ledger.transactions.map((row) => row.date)).toEqual(['2028-02-29']);
    });

    it('leaves out an expense that ended before the ledger starts', async () => {
      const user = newUser('ended');
      await seedExpense(user, { name: 'Old Loan', amount: 99, day: 5, endDate: '2026-11-30' });
      await seedExpense(user, { name: 'Phone', amount: 45, day: 5 });
      const ledger = await createLedger(test.as(user), '2026-12-01', '2027-01-31', 0);
      expect(ledger.transactions.map((row) => `${row.date} ${row.name}`)).toEqual(['2026-12-05 Phone', '2027-01-05 Phone']);
    });

    it('creates an empty ledger for a user with no deposits or expenses, with a zero or negative opening balance', async () => {
      const user = newUser('empty');
      const zero = await createLedger(test.as(user), '2026-12-01', '2026-12-01', 0);
      expect(zero).toEqual({
        startDate: '2026-12-01',
        endDate: '2026-12-01',
        openingBalance: 0,
        currentBalance: 0,
        pendingBalance: 0,
        transactions: [],
      });
      const negative = await createLedger(test.as(user), '2026-12-01', '2026-12-31', -250.75);
      expect(negative).toMatchObject({ openingBalance: -250.75, currentBalance: -250.75, pendingBalance: -250.75 });
    });

    it('replaces the previous ledger: its rows, payments and ids are gone', async () => {
      const user = newUser('replace');
      const client = test.as(user);
      await seedExpense(user, { name: 'Rent', amount: 1000, day: 1 });
      const first = await createLedger(client, '2026-12-01', '2027-01-31', 5000);
      const rent = rowNamed(first, 'Rent', '2026-12-01');
      ledgerOf(await client.patch(PATHS.update, updateBody(rent, { status: 'CLEARED' })));
      await add(client, '2026-12-15', 'Dinner', 'D', 60);

      const second = await createLedger(client, '2027-03-01', '2027-03-31', 200);
      expect(second).toEqual({
        startDate: '2027-03-01',
        endDate: '2027-03-31',
        openingBalance: 200,
        currentBalance: 200,
        pendingBalance: 200,
        transactions: [
          {
            id: expect.any(String),
            date: '2027-03-01',
            name: 'Rent',
            type: 'D',
            amount: 1000,
            balance: -800,
            status: 'PENDING',
            source: { kind: 'expense', id: expect.any(String), occurrence: '2027-03-01', edited: false },
          },
        ],
      });
      expect(await retrieve(client)).toEqual(second);
      const oldIds = first.transactions.map((row) => row.id);
      expect(second.transactions.some((row) => oldIds.includes(row.id))).toBe(false);
      errorOf(await client.patch(PATHS.update, updateBody(rent, { status: 'CLEARED' })), 404);

      const ledgers = await withLedgerTables(test.app.database.db)
        .selectFrom('ledgers')
        .select('id')
        .where('owner_iss', '=', test.issuer.issuer)
        .where('owner_sub', '=', user)
        .execute();
      expect(ledgers).toHaveLength(1);
      const rows = await withLedgerTables(test.app.database.db)
        .selectFrom('ledger_transactions')
        .select('id')
        .where('owner_sub', '=', user)
        .execute();
      expect(rows).toHaveLength(1);

      // Rows added after a replacement continue the new ledger's creation order.
      const third = await add(client, '2027-03-01', 'Rent', 'D', 1);
      expect(third.transactions.map((row) => `${row.name} ${row.amount}`)).toEqual(['Rent 1000', 'Rent 1']);
    });

    it('accepts an end date exactly five years on and fills a five-year ledger of 27 schedules quickly', async () => {
      const user = newUser('five-years');
      await seedDeposit(user, { name: 'Acme', amount: 2100.55, startDate: '2026-12-04', frequency: 'BW' });
      await seedDeposit(user, { name: 'Side Gig', amount: 400, startDate: '2026-12-01', frequency: 'EOM' });
      for (let index = 1; index <= 25; index += 1) {
        await seedExpense(user, { name: `Bill ${String(index).padStart(2, '0')}`, amount: index + 0.99, day: index });
      }
      const started = performance.now();
      const ledger = await createLedger(test.as(user), '2026-12-01', '2031-12-01', 1000);
      const elapsed = performance.now() - started;

      // 61 months: 25 bills a month, except December 2031 where only the 1st is in range.
      expect(ledger.transactions.filter((row) => row.type === 'D')).toHaveLength(25 * 60 + 1);
      expect(ledger.transactions.filter((row) => row.name === 'Side Gig Paycheck')).toHaveLength(60);
      // 2026-12-04 plus every 14 days up to 2031-12-01: 1,823 days / 14 = 130 steps.
      expect(ledger.transactions.filter((row) => row.name === 'Acme Paycheck')).toHaveLength(131);
      // The last balance is the opening plus every credit minus every debit, summed in cents.
      const creditsCents = 131 * 210_055 + 60 * 40_000;
      const monthOfBillsCents = Array.from({ length: 25 }, (_, index) => (index + 1) * 100 + 99).reduce((a, b) => a + b, 0);
      const debitsCents = 60 * monthOfBillsCents + 199;
      expect(ledger.transactions.at(-1)?.balance).toBe((100_000 + creditsCents - debitsCents) / 100);
      expect(await retrieve(test.as(user))).toEqual(ledger);
      // Generous for a slow CI machine; batched inserts take well under a second here.
      expect(elapsed).toBeLessThan(10_000);
    });

    it.each([
      ['an end date before the start date', { startDate: '2026-12-10', endDate: '2026-12-09', currentBalance: 0 }, 'ledger.endDate'],
      ['more than five years', { startDate: '2026-12-01', endDate: '2031-12-02', currentBalance: 0 }, 'ledger.endDate'],
      [
        'a start date that is not a calendar date',
        { startDate: '2026-02-30', endDate: '2026-12-31', currentBalance: 0 },
        'ledger.startDate',
      ],
      ['an end date that is not a date', { startDate: '2026-12-01', endDate: 'next year', currentBalance: 0 }, 'ledger.endDate'],
      ['a missing start date', { endDate: '2026-12-31', currentBalance: 0 }, 'ledger.startDate'],
      ['a missing balance', { startDate: '2026-12-01', endDate: '2026-12-31' }, 'ledger.currentBalance'],
      ['a balance with three decimals', { startDate: '2026-12-01', endDate: '2026-12-31', currentBalance: 1.005 }, 'ledger.currentBalance'],
      ['a balance sent as text', { startDate: '2026-12-01', endDate: '2026-12-31', currentBalance: '100' }, 'ledger.currentBalance'],
    ])('refuses %s with 400 naming the field', async (_label, ledger, field) => {
      const user = newUser('refuse');
      const error = errorOf(await test.as(user).post(PATHS.create, { ledger }), 400);
      expect(error.code).toBe('bad_request');
      expect(Object.keys(error.fields ?? {})).toContain(field);
      expect(await retrieve(test.as(user))).toBeNull();
    });

    it('refuses a start date after 9994 saying why, instead of an end date past year 9999', async () => {
      const client = test.as(newUser('year-9995'));
      for (const startDate of ['9995-01-01', '9999-12-31']) {
        const error = errorOf(await client.post(PATHS.create, { ledger: { startDate, endDate: startDate, currentBalance: 0 } }), 400);
        expect(error.fields).toEqual({
          'ledger.startDate': 'Start Date must be in 9994 or earlier: a ledger may span 5 years and dates end at 9999.',
        });
      }
      expect(await retrieve(client)).toBeNull();
    });

    it('fills a ledger ending on 9999-12-31 and extends one to that date, never computing a date past it', async () => {
      const user = newUser('year-9999');
      const client = test.as(user);
      // 9999-12-31 is a Friday: a bi-weekly payday falls on it, and a bill on the 31st too.
      await seedDeposit(user, { name: 'Acme', amount: 10, startDate: '9999-12-03', frequency: 'BW' });
      await seedDeposit(user, { name: 'Salary', amount: 20, startDate: '9999-11-30', frequency: 'EOM' });
      await seedExpense(user, { name: 'Rent', amount: 5, day: 31 });
      const longest = await createLedger(client, '9994-12-31', '9999-12-31', 0);
      const lastRows = longest.transactions.filter((row) => row.date >= '9999-12-01').map((row) => `${row.date} ${row.name}`);
      expect(lastRows).toEqual([
        '9999-12-03 Acme Paycheck',
        '9999-12-17 Acme Paycheck',
        '9999-12-31 Acme Paycheck',
        '9999-12-31 Salary Paycheck',
        '9999-12-31 Rent',
      ]);

      await createLedger(client, '9994-12-31', '9999-11-30', 0);
      const extended = ledgerOf(await client.post(LEDGER_PATHS.extend, { endDate: '9999-12-31' }));
      expect(extended.transactions.filter((row) => row.date >= '9999-12-01').map((row) => `${row.date} ${row.name}`)).toEqual(lastRows);
      const tooFar = errorOf(await client.post(LEDGER_PATHS.extend, { endDate: '10000-01-01' }), 400);
      expect(tooFar.fields).toHaveProperty('endDate');
    });

    it('refuses a body without the ledger key or that is not an object', async () => {
      const client = test.as(newUser('shape'));
      const flat = errorOf(await client.post(PATHS.create, { startDate: '2026-12-01', endDate: '2026-12-31', currentBalance: 0 }), 400);
      expect(flat.fields).toHaveProperty('ledger');
      for (const body of ['"a ledger please"', '[1, 2]', '42', 'null']) {
        const error = errorOf(await client.post(PATHS.create, body), 400);
        expect(error.code).toBe('bad_request');
        expect(Object.keys(error.fields ?? {}).length).toBeGreaterThan(0);
      }
      const notAnObject = errorOf(await client.post(PATHS.create, { ledger: 'soon' }), 400);
      expect(notAnObject.fields).toHaveProperty('ledger');
      expect(await retrieve(client)).toBeNull();
    });

    it('keeps the previous ledger when a replacement is refused', async () => {
      const client = test.as(newUser('keep'));
      const ledger = await createLedger(client, '2026-12-01', '2026-12-31', 10);
      errorOf(await client.post(PATHS.create, { ledger: { startDate: '2026-12-01', endDate: '2026-11-01', currentBalance: 0 } }), 400);
      expect(await retrieve(client)).toEqual(ledger);
    });
  });

  describe('without a ledger', () => {
    it('retrieve answers {ledger: null}; add, update and delete answer 404', async () => {
      const client = test.as(newUser('nobody'));
      const response = await client.get(PATHS.retrieve);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ledger: null });
      const addError = errorOf(await client.post(PATHS.add, { date: '2026-12-01', name: 'Coffee', type: 'D', amount: 4 }), 404);
      expect(addError).toEqual({ code: 'not_found', message: expect.stringMatching(/create one/i) });
      const phantom = { id: crypto.randomUUID(), date: '2026-12-01', name: 'Coffee', type: 'D', amount: 4, status: 'PAID', balance: 0 };
      errorOf(await client.patch(PATHS.update, phantom), 404);
      errorOf(await client.delete(PATHS.transaction(phantom.id)), 404);
      expect(await retrieve(client)).toBeNull();
    });
  });

  describe('add-transaction', () => {
    it('adds PENDING rows in row order; 0.10 + 0.20 raises the balance by exactly 0.30', async () => {
      const client = test.as(newUser('cents'));
      await createLedger(client, '2026-12-01', '2026-12-31', 0);
      await add(client, '2026-12-05', 'Refund B', 'C', 0.2);
      const ledger = await add(client, '2026-12-05', 'Refund A', 'C', 0.1);
      expect(ledger.transactions.map(shape)).toEqual([
        { date: '2026-12-05', name: 'Refund A', type: 'C', amount: 0.1, balance: 0.1, status: 'PENDING' },
        { date: '2026-12-05', name: 'Refund B', type: 'C', amount: 0.2, balance: 0.3, status: 'PENDING' },
      ]);

      // Clearing both moves the pending and current balances by exactly 0.30 too.
      let latest = ledger;
      for (const row of ledger.transactions) latest = ledgerOf(await client.patch(PATHS.update, updateBody(row, { status: 'CLEARED' })));
      expect(latest.currentBalance).toBe(0.3);
      expect(latest.pendingBalance).toBe(0.3);
    });

    it('orders credits before debits on one date, then by name, then by when they were added', async () => {
      const client = test.as(newUser('order'));
      await createLedger(client, '2026-12-01', '2026-12-31', 100);
      await add(client, '2026-12-10', 'Groceries', 'D', 50);
      await add(client, '2026-12-10', 'coffee', 'D', 5);
      await add(client, '2026-12-10', 'Bonus', 'C', 20);
      await add(client, '2026-12-10', 'Groceries', 'D', 25);
      const ledger = await add(client, '2026-12-09', 'Zoo', 'D', 10);
      expect(ledger.transactions.map((row) => `${row.date} ${row.name} ${row.amount} ${row.balance}`)).toEqual([
        '2026-12-09 Zoo 10 90',
        '2026-12-10 Bonus 20 110',
        '2026-12-10 coffee 5 105',
        '2026-12-10 Groceries 50 55',
        '2026-12-10 Groceries 25 30',
      ]);
    });

    it('accepts the first and last day of the ledger and refuses a date outside it with 400 on date', async () => {
      const client = test.as(newUser('add-range'));
      await createLedger(client, '2026-12-01', '2026-12-31', 0);
      await add(client, '2026-12-01', 'First', 'D', 1);
      const before = await add(client, '2026-12-31', 'Last', 'C', 1);
      for (const date of ['2026-11-30', '2027-01-01']) {
        const error = errorOf(await client.post(PATHS.add, { date, name: 'Outside', type: 'D', amount: 1 }), 400);
        expect(error.fields).toEqual({ date: 'Date must be between 2026-12-01 and 2026-12-31.' });
      }
      expect(await retrieve(client)).toEqual(before);
    });

    it.each([
      ['without a type', { date: '2026-12-02', name: 'Coffee', amount: 4 }, 'type'],
      ['with type X', { date: '2026-12-02', name: 'Coffee', type: 'X', amount: 4 }, 'type'],
      ['with a blank name', { date: '2026-12-02', name: '   ', type: 'D', amount: 4 }, 'name'],
      ['with a zero amount', { date: '2026-12-02', name: 'Coffee', type: 'D', amount: 0 }, 'amount'],
      ['with a negative amount', { date: '2026-12-02', name: 'Coffee', type: 'D', amount: -4 }, 'amount'],
      ['with three decimals', { date: '2026-12-02', name: 'Coffee', type: 'D', amount: 4.001 }, 'amount'],
      ['with the amount as text', { date: '2026-12-02', name: 'Coffee', type: 'D', amount: '4' }, 'amount'],
      ['with an amount over the limit', { date: '2026-12-02', name: 'Coffee', type: 'D', amount: 100_000_000 }, 'amount'],
      ['with a bad date', { date: '2026-12-32', name: 'Coffee', type: 'D', amount: 4 }, 'date'],
    ])('refuses a transaction %s with 400 on that field', async (_label, body, field) => {
      const client = test.as(newUser('add-bad'));
      const before = await createLedger(client, '2026-12-01', '2026-12-31', 0);
      const error = errorOf(await client.post(PATHS.add, body), 400);
      expect(Object.keys(error.fields ?? {})).toContain(field);
      expect(await retrieve(client)).toEqual(before);
    });

    it('does not trust a status, balance or id sent with a new transaction', async () => {
      const client = test.as(newUser('add-trust'));
      await createLedger(client, '2026-12-01', '2026-12-31', 10);
      const ledger = ledgerOf(
        await client.post(PATHS.add, {
          date: '2026-12-03',
          name: 'Cash',
          type: 'C',
          amount: 5,
          status: 'CLEARED',
          balance: 1_000_000,
          id: 'mine',
        }),
      );
      expect(ledger.transactions.map(shape)).toEqual([
        { date: '2026-12-03', name: 'Cash', type: 'C', amount: 5, balance: 15, status: 'PENDING' },
      ]);
      expect(ledger.transactions[0]?.id).not.toBe('mine');
      expect(ledger).toMatchObject({ currentBalance: 10, pendingBalance: 10 });
    });

    it('stores the name trimmed', async () => {
      const client = test.as(newUser('trim'));
      await createLedger(client, '2026-12-01', '2026-12-31', 0);
      const ledger = await add(client, '2026-12-03', '  Pizza  ', 'D', 12.5);
      expect(ledger.transactions[0]?.name).toBe('Pizza');
    });
  });

  describe('update-transaction', () => {
    /** A ledger with one paycheck and two bills, all PENDING. */
    async function ledgerWithBills(label: string) {
      const user = newUser(label);
      const client = test.as(user);
      await seedDeposit(user, { name: 'Acme', amount: 1000, startDate: '2026-12-04', frequency: 'BW' });
      await seedExpense(user, { name: 'Rent', amount: 700, day: 5 });
      await seedExpense(user, { name: 'Phone', amount: 45.1, day: 8 });
      const ledger = await createLedger(client, '2026-12-01', '2026-12-10', 50);
      expect(ledger.transactions.map((row) => `${row.date} ${row.name} ${row.balance}`)).toEqual([
        '2026-12-04 Acme Paycheck 1050',
        '2026-12-05 Rent 350',
        '2026-12-08 Phone 304.9',
      ]);
      return { client, ledger };
    }

    it('pay changes the pending balance, not the current one; clear changes both', async () => {
      const { client, ledger } = await ledgerWithBills('pay-clear');
      const rent = rowNamed(ledger, 'Rent');
      const paid = ledgerOf(await client.patch(PATHS.update, updateBody(rent, { status: 'PAID' })));
      expect(paid).toMatchObject({ openingBalance: 50, currentBalance: 50, pendingBalance: -650 });
      expect(rowNamed(paid, 'Rent')).toEqual({ ...rent, status: 'PAID' });
      // Running balances project every row whatever its status.
      expect(paid.transactions.map((row) => row.balance)).toEqual([1050, 350, 304.9]);

      const cleared = ledgerOf(await client.patch(PATHS.update, updateBody(rowNamed(paid, 'Rent'), { status: 'CLEARED' })));
      expect(cleared).toMatchObject({ currentBalance: -650, pendingBalance: -650 });

      const paycheck = rowNamed(cleared, 'Acme Paycheck');
      const paidCredit = ledgerOf(await client.patch(PATHS.update, updateBody(paycheck, { status: 'PAID' })));
      expect(paidCredit).toMatchObject({ currentBalance: -650, pendingBalance: 350 });
      expect(await retrieve(client)).toEqual(paidCredit);
    });

    it('clears a PENDING row directly', async () => {
      const { client, ledger } = await ledgerWithBills('direct-clear');
      const cleared = ledgerOf(await client.patch(PATHS.update, updateBody(rowNamed(ledger, 'Phone'), { status: 'CLEARED' })));
      expect(rowNamed(cleared, 'Phone').status).toBe('CLEARED');
      expect(cleared).toMatchObject({ currentBalance: 4.9, pendingBalance: 4.9 });
    });

    it.each([
      ['CLEARED', 'PAID'],
      ['PAID', 'PENDING'],
      ['CLEARED', 'PENDING'],
    ] as const)('refuses %s -> %s with 409 and changes nothing', async (from, to) => {
      const { client, ledger } = await ledgerWithBills('refuse-move');
      const rent = rowNamed(ledger, 'Rent');
      const before = ledgerOf(await client.patch(PATHS.update, updateBody(rent, { status: from })));
      const version = await storedVersion(rent.id);
      const error = errorOf(await client.patch(PATHS.update, updateBody(rowNamed(before, 'Rent'), { status: to })), 409);
      expect(error.code).toBe('conflict');
      expect(error.message).toContain(`A ${from} transaction cannot become ${to}`);
      expect(await retrieve(client)).toEqual(before);
      expect(await storedVersion(rent.id)).toBe(version);
    });

    it('refuses a status outside the three with 400', async () => {
      const { client, ledger } = await ledgerWithBills('bad-status');
      const error = errorOf(await client.patch(PATHS.update, { ...rowNamed(ledger, 'Rent'), status: 'VOID' }), 400);
      expect(error.fields).toHaveProperty('status');
      expect(await retrieve(client)).toEqual(ledger);
    });

    it('edits the date, name and amount of a PENDING row and re-derives every balance', async () => {
      const { client, ledger } = await ledgerWithBills('edit');
      const phone = rowNamed(ledger, 'Phone');
      const edited = ledgerOf(await client.patch(PATHS.update, updateBody(phone, { date: '2026-12-01', name: 'Mobile', amount: 45.15 })));
      expect(edited.transactions.map((row) => `${row.date} ${row.name} ${row.amount} ${row.balance} ${row.status}`)).toEqual([
        '2026-12-01 Mobile 45.15 4.85 PENDING',
        '2026-12-04 Acme Paycheck 1000 1004.85 PENDING',
        '2026-12-05 Rent 700 304.85 PENDING',
      ]);
      expect(rowNamed(edited, 'Mobile').id).toBe(phone.id);
      expect(await storedVersion(phone.id)).toBe(2);
      expect(await retrieve(client)).toEqual(edited);
    });

    it.each(['PAID', 'CLEARED'] as const)('refuses to edit a %s row with 409', async (status) => {
      const { client, ledger } = await ledgerWithBills('edit-paid');
      const paid = ledgerOf(await client.patch(PATHS.update, updateBody(rowNamed(ledger, 'Rent'), { status })));
      const rent = rowNamed(paid, 'Rent');
      for (const change of [{ amount: 701 }, { name: 'Rental' }, { date: '2026-12-06' }]) {
        const error = errorOf(await client.patch(PATHS.update, updateBody(rent, change)), 409);
        expect(error.message).toContain(`A ${status} transaction cannot be changed`);
      }
      expect(await retrieve(client)).toEqual(paid);
    });

    it('refuses to edit and pay in one request (409): the edit is its own step, made first', async () => {
      const { client, ledger } = await ledgerWithBills('edit-and-pay');
      const rent = rowNamed(ledger, 'Rent');
      const error = errorOf(await client.patch(PATHS.update, updateBody(rent, { amount: 650, status: 'PAID' })), 409);
      expect(error.message).toMatch(/separate steps/);
      expect(await retrieve(client)).toEqual(ledger);
      const edited = ledgerOf(await client.patch(PATHS.update, updateBody(rent, { amount: 650 })));
      const paid = ledgerOf(await client.patch(PATHS.update, updateBody(rowNamed(edited, 'Rent'), { status: 'PAID' })));
      expect(rowNamed(paid, 'Rent')).toMatchObject({ amount: 650, status: 'PAID' });
    });

    it('refuses a type change with 400 on type', async () => {
      const { client, ledger } = await ledgerWithBills('type');
      const error = errorOf(await client.patch(PATHS.update, updateBody(rowNamed(ledger, 'Rent'), { type: 'C' })), 400);
      expect(error.fields).toEqual({ type: expect.stringContaining('cannot change') });
      expect(await retrieve(client)).toEqual(ledger);
    });

    it('refuses a new date outside the ledger with 400 on date', async () => {
      const { client, ledger } = await ledgerWithBills('update-range');
      for (const date of ['2026-11-30', '2026-12-11']) {
        const error = errorOf(await client.patch(PATHS.update, updateBody(rowNamed(ledger, 'Rent'), { date })), 400);
        expect(error.fields).toEqual({ date: 'Date must be between 2026-12-01 and 2026-12-10.' });
      }
      expect(await retrieve(client)).toEqual(ledger);
    });

    it('answers an update that changes nothing with the ledger unchanged, writing nothing', async () => {
      const { client, ledger } = await ledgerWithBills('no-op');
      const rent = rowNamed(ledger, 'Rent');
      expect(ledgerOf(await client.patch(PATHS.update, updateBody(rent)))).toEqual(ledger);
      // The name arrives padded; trimmed, it is the same name.
      expect(ledgerOf(await client.patch(PATHS.update, updateBody(rent, { name: ' Rent ' })))).toEqual(ledger);
      expect(await storedVersion(rent.id)).toBe(1);

      // Paying a PAID row again is no move at all, so it is no error either.
      const paid = ledgerOf(await client.patch(PATHS.update, updateBody(rent, { status: 'PAID' })));
      expect(ledgerOf(await client.patch(PATHS.update, updateBody(rowNamed(paid, 'Rent'))))).toEqual(paid);
      expect(await storedVersion(rent.id)).toBe(2);
    });

    it('ignores the balance the client sends', async () => {
      const { client, ledger } = await ledgerWithBills('balance');
      const rent = rowNamed(ledger, 'Rent');
      expect(ledgerOf(await client.patch(PATHS.update, updateBody(rent, { balance: 999_999 })))).toEqual(ledger);
      const paid = ledgerOf(await client.patch(PATHS.update, updateBody(rent, { status: 'PAID', balance: -1 })));
      expect(rowNamed(paid, 'Rent').balance).toBe(350);
      expect(paid.pendingBalance).toBe(-650);
    });

    it('answers 404 for an id that does not exist', async () => {
      const { client, ledger } = await ledgerWithBills('missing');
      errorOf(await client.patch(PATHS.update, updateBody(rowNamed(ledger, 'Rent'), { id: crypto.randomUUID(), status: 'PAID' })), 404);
      expect(await retrieve(client)).toEqual(ledger);
    });
  });

  describe('delete transaction', () => {
    it('deletes a PENDING row and refuses PAID and CLEARED rows with 409', async () => {
      const client = test.as(newUser('delete'));
      await createLedger(client, '2026-12-01', '2026-12-31', 100);
      await add(client, '2026-12-02', 'Pending', 'D', 10);
      await add(client, '2026-12-03', 'Paid', 'D', 20);
      const ledger = await add(client, '2026-12-04', 'Cleared', 'D', 30);
      ledgerOf(await client.patch(PATHS.update, updateBody(rowNamed(ledger, 'Paid'), { status: 'PAID' })));
      const before = ledgerOf(await client.patch(PATHS.update, updateBody(rowNamed(ledger, 'Cleared'), { status: 'CLEARED' })));

      for (const name of ['Paid', 'Cleared']) {
        const error = errorOf(await client.delete(PATHS.transaction(rowNamed(before, name).id)), 409);
        expect(error.message).toContain('only PENDING transactions can');
      }
      expect(await retrieve(client)).toEqual(before);

      const pendingId = rowNamed(before, 'Pending').id;
      const after = ledgerOf(await client.delete(PATHS.transaction(pendingId)));
      expect(after.transactions.map((row) => `${row.name} ${row.balance} ${row.status}`)).toEqual(['Paid 80 PAID', 'Cleared 50 CLEARED']);
      expect(after).toMatchObject({ currentBalance: 70, pendingBalance: 50 });
      expect(await retrieve(client)).toEqual(after);
      // Gone for good: a second delete finds nothing.
      errorOf(await client.delete(PATHS.transaction(pendingId)), 404);
      errorOf(await client.delete(PATHS.transaction('no-such-id')), 404);
    });
  });

  describe('isolation between users', () => {
    it("never lets one user read, change or delete another user's rows", async () => {
      const alice = newUser('alice');
      const bob = newUser('bob');
      await seedExpense(alice, { name: 'Rent', amount: 900, day: 1 });
      const aliceLedger = await createLedger(test.as(alice), '2026-12-01', '2026-12-31', 1000);
      const rent = rowNamed(aliceLedger, 'Rent');

      expect(await retrieve(test.as(bob))).toBeNull();
      // Without a ledger of his own, and with one: Alice's row is not found either way.
      errorOf(await test.as(bob).patch(PATHS.update, updateBody(rent, { status: 'CLEARED' })), 404);
      await createLedger(test.as(bob), '2026-12-01', '2026-12-31', 5);
      for (const body of [updateBody(rent, { status: 'CLEARED' }), updateBody(rent, { amount: 1 })]) {
        const error = errorOf(await test.as(bob).patch(PATHS.update, body), 404);
        expect(error.message).toBe('No such transaction in your ledger.');
      }
      errorOf(await test.as(bob).delete(PATHS.transaction(rent.id)), 404);

      expect(await retrieve(test.as(alice))).toEqual(aliceLedger);
      expect((await retrieve(test.as(bob)))?.transactions).toEqual([]);
      expect(await storedVersion(rent.id)).toBe(1);
    });

    it('builds a ledger only from the caller’s schedules, not from the same subject at another issuer', async () => {
      const user = newUser('issuer');
      await seedExpense(user, { name: 'Mine', amount: 1, day: 2 });
      await seedExpense(user, { name: 'Not mine', amount: 1, day: 3 }, 'https://other-issuer.example');
      await seedExpense(newUser('someone-else'), { name: 'Not mine either', amount: 1, day: 4 });
      const ledger = await createLedger(test.as(user), '2026-12-01', '2026-12-31', 0);
      expect(ledger.transactions.map((row) => row.name)).toEqual(['Mine']);
    });
  });

  it('answers 401 without a token', async () => {
    for (const [method, url] of [
      ['GET', PATHS.retrieve],
      ['POST', PATHS.create],
      ['POST', PATHS.add],
      ['PATCH', PATHS.update],
      ['DELETE', PATHS.transaction('x')],
    ] as const) {
      const response = await test.app.inject({ method, url });
      expect(response.statusCode).toBe(401);
    }
  });

  it('creates exactly the rows the domain generates from the stored schedules', async () => {
    const user = newUser('oracle');
    await seedDeposit(user, { name: 'Acme', amount: 1234.56, startDate: '2026-11-13', frequency: 'BW' });
    await seedDeposit(user, { name: 'Rental Income', amount: 800, startDate: '2026-10-01', frequency: 'EOM' });
    await seedExpense(user, { name: 'Car', amount: 310.2, day: 15, endDate: '2027-06-15' });
    await seedExpense(user, { name: 'Insurance', amount: 88.8, day: 29 });
    const ledger = await createLedger(test.as(user), '2026-11-21', '2027-11-20', 0);
    const drafts = generateLedgerDrafts(
      [
        { name: 'Acme', amount: cents(123_456), startDate: isoDate('2026-11-13'), frequency: 'BW' },
        { name: 'Rental Income', amount: cents(80_000), startDate: isoDate('2026-10-01'), frequency: 'EOM' },
      ],
      [
        { name: 'Car', amount: cents(31_020), day: 15, endDate: isoDate('2027-06-15') },
        { name: 'Insurance', amount: cents(8_880), day: 29, endDate: null },
      ],
      { from: isoDate('2026-11-21'), to: isoDate('2027-11-20') },
    );
    expect(drafts.length).toBeGreaterThan(50);
    expect(ledger.transactions.map((row) => ({ date: row.date, name: row.name, type: row.type, amount: row.amount }))).toEqual(
      drafts.map((draft) => ({ date: draft.date, name: draft.name, type: draft.type, amount: centsToDollars(draft.amount) })),
    );
  });
});
