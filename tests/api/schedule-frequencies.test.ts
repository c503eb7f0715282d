/**
 * The schedules people have (issue 12) beyond single calls, on SQLite and (with TEST_POSTGRES_URL)
 * PostgreSQL: the rows a new ledger gets from deposits and bills of every frequency, on their exact
 * dates (paydays of SM, M and EOM moved to the Friday before a weekend, W and BW on their weekday,
 * bills on their date whatever the weekday, a yearly bill of Feb 29 on Feb 28 in other years), and
 * the upgrade of a database holding expenses stored before expenses had a frequency.
 * The single calls, and every refusal, are in deposits.test.ts and expenses.test.ts.
 */
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { DEPOSITS_PATHS, depositsInfoSchema } from '../../src/contract/deposits.js';
import type { depositInputSchema } from '../../src/contract/deposit-input.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import type { ExpenseInput } from '../../src/contract/expense-input.js';
import { type Ledger, LEDGER_PATHS, ledgerInfoSchema, type LedgerTransaction } from '../../src/contract/ledger.js';
import { todayIn } from '../../src/domain/calendar-date.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrateToLatest, migrations } from '../../src/server/db/migrations.js';
import { depositRepository } from '../../src/server/deposits/deposit-repository.js';
import { expensesAnswer } from '../../src/server/expenses/expense-payloads.js';
import { expenseRepository } from '../../src/server/expenses/expense-repository.js';
import { newSubject } from '../support/api-expectations.js';
import { migratorOf, openRawDatabase } from '../support/raw-database.js';
import { startTestApp, TEST_NOW, type TestApp, type UserClient } from '../support/test-app.js';
import { createTestDatabase, databaseKinds } from '../support/test-databases.js';
import type { ReleasedSchema } from '../support/released-schema.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';

function ledgerOf(response: LightMyRequestResponse): Ledger {
  expect(response.statusCode, response.body).toBe(200);
  const { ledger } = ledgerInfoSchema.parse(response.json());
  if (!ledger) throw new Error('expected a ledger in the answer');
  return ledger;
}

/** Adds a deposit and answers its id (the one deposit of that name). */
async function addDeposit(user: UserClient, deposit: z.input<typeof depositInputSchema>): Promise<string> {
  const response = await user.post(DEPOSITS_PATHS.add, deposit);
  expect(response.statusCode, response.body).toBe(200);
  const added = depositsInfoSchema.parse(response.json()).deposits.find(({ name }) => name === deposit.name);
  if (!added) throw new Error(`no deposit ${deposit.name} in ${response.body}`);
  return added.id;
}

/** Adds an expense and answers its id (the one expense of that name). */
async function addExpense(user: UserClient, expense: ExpenseInput): Promise<string> {
  const response = await user.post(EXPENSES_PATHS.add, expense);
  expect(response.statusCode, response.body).toBe(200);
  const added = expensesInfoSchema.parse(response.json()).expenses.find(({ name }) => name === expense.name);
  if (!added) throw new Error(`no expense ${expense.name} in ${response.body}`);
  return added.id;
}

/** A row as one line: date, type, name, amount. */
function line(row: LedgerTransaction): string {
  return `${row.date} ${row.type} ${row.name} ${row.amount}`;
}

/** Every row stands for its schedule's occurrence on the row's own date, unedited. */
function expectSources(ledger: Ledger, ids: Readonly<Record<string, string>>): void {
  for (const row of ledger.transactions) {
    const schedule = row.name.replace(/ Paycheck$/, '');
    expect(row.source, line(row)).toEqual({
      kind: row.type === 'C' ? 'deposit' : 'expense',
      id: ids[schedule],
      occurrence: row.date,
      edited: false,
    });
  }
}

describe.each(databaseKinds())('a new ledger from schedules of every frequency on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test.close());

  it('puts twice-a-month and monthly paydays and every-3-months and yearly bills on their exact dates', async () => {
    const user = test.as(newSubject('frequencies-user'));
    const ids = {
      // The 15th and the last day; 2026-11-15, 2027-01-31 and 2027-02-28 are Sundays.
      Acme: await addDeposit(user, {
        name: 'Acme',
        type: 'Direct Deposit',
        day: 'N/A',
        amount: 1000,
        startDate: '2026-11-01',
        frequency: 'SM',
      }),
      // The 13th: 2026-12-13 is a Sunday, 2027-02-13 and 2027-03-13 are Saturdays.
      Lodger: await addDeposit(user, { name: 'Lodger', type: 'Check', day: 'N/A', amount: 600, startDate: '2026-11-13', frequency: 'M' }),
      // From 2026-08-31, every 3 months: 2026-11-30, then 2027-02-28 (a Sunday, the month's last day).
      Insurance: await addExpense(user, { name: 'Insurance', type: 'Car', frequency: 'Q', startDate: '2026-08-31', amount: 300 }),
      // Every Feb 29, so Feb 28 (a Sunday) in 2027.
      Registration: await addExpense(user, { name: 'Registration', type: 'Car', frequency: 'Y', startDate: '2024-02-29', amount: 120 }),
    };

    const ledger = ledgerOf(
      await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2027-03-31', currentBalance: 0 } }),
    );
    expect(ledger.transactions.map(line)).toEqual([
      '2026-11-13 C Acme Paycheck 1000', // the 15th, a Sunday: the Friday before
      '2026-11-13 C Lodger Paycheck 600',
      '2026-11-30 C Acme Paycheck 1000',
      '2026-11-30 D Insurance 300',
      '2026-12-11 C Lodger Paycheck 600', // the 13th, a Sunday
      '2026-12-15 C Acme Paycheck 1000',
      '2026-12-31 C Acme Paycheck 1000',
      '2027-01-13 C Lodger Paycheck 600',
      '2027-01-15 C Acme Paycheck 1000',
      '2027-01-29 C Acme Paycheck 1000', // the 31st, a Sunday
      '2027-02-12 C Lodger Paycheck 600', // the 13th, a Saturday
      '2027-02-15 C Acme Paycheck 1000',
      '2027-02-26 C Acme Paycheck 1000', // the 28th, a Sunday
      '2027-02-28 D Insurance 300', // a bill falls due on its date, a Sunday too
      '2027-02-28 D Registration 120', // Feb 29 in a year without one
      '2027-03-12 C Lodger Paycheck 600', // the 13th, a Saturday
      '2027-03-15 C Acme Paycheck 1000',
      '2027-03-31 C Acme Paycheck 1000',
    ]);
    expectSources(ledger, ids);

    // Extended over a leap year: the yearly bill is back on Feb 29, the every-3-months one too.
    const extended = ledgerOf(await user.post(LEDGER_PATHS.extend, { endDate: '2028-03-31' }));
    const datesOf = (id: string) => extended.transactions.filter((row) => row.source?.id === id).map((row) => row.date);
    expect(datesOf(ids.Registration)).toEqual(['2027-02-28', '2028-02-29']);
    expect(datesOf(ids.Insurance)).toEqual(['2026-11-30', '2027-02-28', '2027-05-31', '2027-08-31', '2027-11-30', '2028-02-29']);
    expectSources(extended, ids);
  });

  it('keeps the weekday of weekly paydays, moves end-of-month ones, and puts weekly, every-2-weeks and monthly bills on their dates', async () => {
    const user = test.as(newSubject('frequencies-user'));
    const ids = {
      // Saturdays from 2026-11-21: a weekly deposit keeps its weekday, weekend or not.
      Shifts: await addDeposit(user, {
        name: 'Shifts',
        type: 'Check',
        day: 'Saturday',
        amount: 200,
        startDate: '2026-11-21',
        frequency: 'W',
      }),
      Pension: await addDeposit(user, {
        name: 'Pension',
        type: 'Check',
        day: 'N/A',
        amount: 500,
        startDate: '2026-10-31',
        frequency: 'EOM',
      }),
      // Sundays, every 2 weeks from 2026-11-29 (before the ledger starts).
      Cleaner: await addExpense(user, { name: 'Cleaner', type: 'Home', frequency: 'BW', startDate: '2026-11-29', amount: 75 }),
      // Saturdays from 2027-01-16.
      Lunch: await addExpense(user, { name: 'Lunch', type: 'Food', frequency: 'W', startDate: '2027-01-16', amount: 20 }),
      // The 5th, from the start date's month on: not 2026-12-05.
      Gym: await addExpense(user, { name: 'Gym', type: 'Health', frequency: 'M', day: 5, startDate: '2027-01-05', amount: 40 }),
    };

    const ledger = ledgerOf(
      await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-12-01', endDate: '2027-01-31', currentBalance: 0 } }),
    );
    expect(ledger.transactions.map(line)).toEqual([
      '2026-12-05 C Shifts Paycheck 200',
      '2026-12-12 C Shifts Paycheck 200',
      '2026-12-13 D Cleaner 75',
      '2026-12-19 C Shifts Paycheck 200',
      '2026-12-26 C Shifts Paycheck 200',
      '2026-12-27 D Cleaner 75',
      '2026-12-31 C Pension Paycheck 500',
      '2027-01-02 C Shifts Paycheck 200',
      '2027-01-05 D Gym 40',
      '2027-01-09 C Shifts Paycheck 200',
      '2027-01-10 D Cleaner 75',
      '2027-01-16 C Shifts Paycheck 200',
      '2027-01-16 D Lunch 20',
      '2027-01-23 C Shifts Paycheck 200',
      '2027-01-23 D Lunch 20',
      '2027-01-24 D Cleaner 75',
      '2027-01-29 C Pension Paycheck 500', // the 31st, a Sunday
      '2027-01-30 C Shifts Paycheck 200',
      '2027-01-30 D Lunch 20',
    ]);
    expectSources(ledger, ids);
  });
});

/** Expenses at version 0003 are still as 0001 made them: no frequency, no start date. */
type Version0003 = Pick<ReleasedSchema, 'deposits' | 'expenses'>;

const BEFORE_FREQUENCIES = ['0001_initial', '0002_drop_ledger_rows_owner_index', '0003_living_ledger'];

describe.each(databaseKinds())('expenses stored before frequencies, upgraded on %s', (kind) => {
  it('reads every stored expense back as monthly with no start date, and every deposit as it was', async () => {
    expect(Object.keys(migrations).sort().slice(0, 3)).toEqual(BEFORE_FREQUENCIES);
    const database = await createTestDatabase(kind);
    try {
      const owner = { issuer: 'https://issuer.example', subject: `upgrade-${crypto.randomUUID()}` };
      const ownerColumns = { owner_iss: owner.issuer, owner_sub: owner.subject };
      const ids = { rent: crypto.randomUUID(), gym: crypto.randomUUID(), paycheck: crypto.randomUUID(), side: crypto.randomUUID() };
      const raw = openRawDatabase(kind, database.url);
      let depositsBefore: unknown[];
      try {
        const earlier = await (await migratorOf(raw, kind, BEFORE_FREQUENCIES)).migrateToLatest();
        expect(earlier.error).toBeUndefined();
        expect(earlier.results?.map((result) => result.migrationName)).toEqual(BEFORE_FREQUENCIES);
        const db = raw as unknown as Kysely<Version0003>;
        await db
          .insertInto('expenses')
          .values([
            {
              id: ids.rent,
              ...ownerColumns,
              name: 'Rent',
              type: 'Housing',
              day: 31,
              amount_cents: 150000,
              end_date: null,
              created_at: '2026-10-01T00:00:01.000Z',
            },
            {
              id: ids.gym,
              ...ownerColumns,
              name: 'Gym',
              type: 'Health',
              day: 5,
              amount_cents: 4599,
              end_date: '2027-06-30',
              created_at: '2026-10-01T00:00:02.000Z',
            },
          ])
          .execute();
        await db
          .insertInto('deposits')
          .values([
            {
              id: ids.paycheck,
              ...ownerColumns,
              name: 'Paycheck',
              type: 'Direct Deposit',
              day: 'Friday',
              amount_cents: 100000,
              start_date: '2026-11-20',
              frequency: 'BW',
              created_at: '2026-10-01T00:00:03.000Z',
            },
            {
              id: ids.side,
              ...ownerColumns,
              name: 'Side job',
              type: 'Check',
              day: 'N/A',
              amount_cents: 25000,
              start_date: '2026-10-31',
              frequency: 'EOM',
              created_at: '2026-10-01T00:00:04.000Z',
            },
          ])
          .execute();
        depositsBefore = await db.selectFrom('deposits').selectAll().orderBy('id').execute();

        await migrateToLatest(raw, kind);

        // The stored rows themselves: every expense monthly with no start date, nothing else touched.
        const expensesAfter = await sql<Record<string, unknown>>`
          select id, name, type, day, amount_cents, end_date, frequency, start_date from expenses order by created_at`.execute(raw);
        expect(expensesAfter.rows.map((row) => ({ ...row, amount_cents: Number(row.amount_cents) }))).toEqual([
          {
            id: ids.rent,
            name: 'Rent',
            type: 'Housing',
            day: 31,
            amount_cents: 150000,
            end_date: null,
            frequency: 'M',
            start_date: null,
          },
          {
            id: ids.gym,
            name: 'Gym',
            type: 'Health',
            day: 5,
            amount_cents: 4599,
            end_date: '2027-06-30',
            frequency: 'M',
            start_date: null,
          },
        ]);
        // Every column they had, as it was; accounts (migration 0008) only add the account they are in.
        const depositsAfter = await sql<Record<string, unknown>>`select * from deposits order by id`.execute(raw);
        expect(depositsAfter.rows.map(({ account_id: accountId, ...deposit }) => (accountId === null ? null : deposit))).toEqual(
          depositsBefore,
        );
      } finally {
        await raw.destroy();
      }

      // As the app reads them (openDatabase finds nothing left to migrate).
      const open = await openDatabase(
        kind === 'sqlite' ? { kind, file: database.url.slice('sqlite:'.length) } : { kind, url: database.url },
      );
      try {
        const expenses = await expenseRepository(open.db).list(owner);
        expect(expensesAnswer({ schedules: expenses, manyAccounts: false }, todayIn(TEST_NOW))).toEqual({
          expenses: [
            { id: ids.gym, name: 'Gym', type: 'Health', frequency: 'M', day: 5, amount: 45.99, startDate: null, endDate: '2027-06-30' },
            { id: ids.rent, name: 'Rent', type: 'Housing', frequency: 'M', day: 31, amount: 1500, startDate: null, endDate: null },
          ],
          totalExpenses: 1545.99,
        });
        // Both in the owner's primary account, which the accounts' migration (0008) made for them.
        const [primary] = await withLedgerTables(open.db)
          .selectFrom('accounts')
          .select('id')
          .where('owner_sub', '=', owner.subject)
          .execute();
        const accountId = primary?.id;
        expect(accountId).toEqual(expect.any(String));
        expect(await depositRepository(open.db).list(owner)).toEqual([
          {
            id: ids.side,
            name: 'Side job',
            type: 'Check',
            day: 'N/A',
            amount: 25000,
            startDate: '2026-10-31',
            frequency: 'EOM',
            accountId,
          },
          {
            accountId,
            id: ids.paycheck,
            name: 'Paycheck',
            type: 'Direct Deposit',
            day: 'Friday',
            amount: 100000,
            startDate: '2026-11-20',
            frequency: 'BW',
          },
        ]);
      } finally {
        await open.close();
      }
    } finally {
      await database.drop();
    }
  });
});
