/**
 * The living ledger (issue 11) through the API, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL,
 * with the app's clock fixed at 2026-11-21 (TEST_NOW), so "today" is 2026-11-21: extending a
 * ledger, deposits and expenses flowing into it, deleted occurrences staying deleted, and every
 * row naming its source. Schedules are added through the API, so their ids are the ones the
 * deposits and expenses answers give. Every test signs in as its own user; one app per database.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withId } from '../../src/contract/common.js';
import { DEPOSITS_PATHS, type DepositsInfo, depositsInfoSchema } from '../../src/contract/deposits.js';
import { errorBodySchema } from '../../src/contract/errors.js';
import { EXPENSES_PATHS, type ExpensesInfo, expensesInfoSchema } from '../../src/contract/expenses.js';
import { type Ledger, LEDGER_PATHS, type LedgerTransaction, type RowSourceInfo } from '../../src/contract/ledger.js';
import { expectBadRequest, expectNotFound, newSubject, ROW_ID } from '../support/api-expectations.js';
import { expectConsistent } from '../support/ledger-recomputation.js';
import { databaseKinds } from '../support/test-databases.js';
import { type DepositBody, depositInput, type ExpenseBody, expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';

/** todayIn(TEST_NOW): the first day a schedule change may reach. */
const TODAY = '2026-11-21';

const NO_LEDGER = 'You have no ledger yet: create one first.';

// The schedules most tests start from. Acme is paid every other Friday from 2026-11-06.
const ACME: DepositBody = { name: 'Acme', amount: 2000, startDate: '2026-11-06', frequency: 'BW' };
const RENT: ExpenseBody = { name: 'Rent', amount: 1200, day: 1 };
const PHONE: ExpenseBody = { name: 'Phone', amount: 45, day: 15 };
const GYM: ExpenseBody = { name: 'Gym', amount: 30, day: 25 };

/** Their occurrences from 2026-11-01 to 2027-04-30. */
const OCCURRENCES = {
  acme: [
    '2026-11-06',
    '2026-11-20',
    '2026-12-04',
    '2026-12-18',
    '2027-01-01',
    '2027-01-15',
    '2027-01-29',
    '2027-02-12',
    '2027-02-26',
    '2027-03-12',
    '2027-03-26',
    '2027-04-09',
    '2027-04-23',
  ],
  rent: ['2026-11-01', '2026-12-01', '2027-01-01', '2027-02-01', '2027-03-01', '2027-04-01'],
  phone: ['2026-11-15', '2026-12-15', '2027-01-15', '2027-02-15', '2027-03-15', '2027-04-15'],
  gym: ['2026-11-25', '2026-12-25', '2027-01-25', '2027-02-25', '2027-03-25', '2027-04-25'],
} as const;

function within(dates: readonly string[], from: string, to: string): string[] {
  return dates.filter((date) => date >= from && date <= to);
}

function errorOf(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  return errorBodySchema.parse(response.json()).error;
}

/** A row as stored: everything but the derived balance. Equal means the row did not change at all. */
function kept(row: LedgerTransaction) {
  return { id: row.id, date: row.date, name: row.name, type: row.type, amount: row.amount, status: row.status, source: row.source };
}

/** A row without its id (or balance): what a projection is compared by. */
function shape(row: LedgerTransaction) {
  return { date: row.date, name: row.name, type: row.type, amount: row.amount, status: row.status, source: row.source };
}

function source(kind: RowSourceInfo['kind'], id: string, occurrence: string, edited = false): RowSourceInfo {
  return { kind, id, occurrence, edited };
}

/** The PENDING, unedited rows a schedule generates on these dates, as shape() shows them. */
function generated(kind: RowSourceInfo['kind'], id: string, name: string, amount: number, dates: readonly string[]) {
  return dates.map((date) => ({
    date,
    name,
    type: kind === 'deposit' ? 'C' : 'D',
    amount,
    status: 'PENDING',
    source: source(kind, id, date),
  }));
}

function fromSchedule(ledger: Ledger, id: string): LedgerTransaction[] {
  return ledger.transactions.filter((row) => row.source?.id === id);
}

/** Every row not generated from these schedules, as stored. */
function apartFrom(ledger: Ledger, ids: readonly string[]) {
  return ledger.transactions.filter((row) => !ids.includes(row.source?.id ?? '')).map(kept);
}

function rowAt(ledger: Ledger, name: string, date: string): LedgerTransaction {
  const row = ledger.transactions.find((candidate) => candidate.name === name && candidate.date === date);
  if (!row) throw new Error(`no row ${name} on ${date} in ${JSON.stringify(ledger.transactions)}`);
  return row;
}

/** No occurrence stands in the ledger twice. */
function expectNoDuplicateOccurrences(ledger: Ledger): void {
  const keys = ledger.transactions.flatMap((row) => (row.source ? [`${row.source.id} ${row.source.occurrence}`] : []));
  expect(new Set(keys).size).toBe(keys.length);
}

interface Schedules {
  readonly acme: string;
  readonly rent: string;
  readonly phone: string;
  readonly gym: string;
}

describe.each(databaseKinds())('the living ledger on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test.close());

  async function retrieve(client: UserClient): Promise<Ledger> {
    return ledgerOf(await client.get(LEDGER_PATHS.retrieve));
  }

  async function createLedger(client: UserClient, startDate: string, endDate: string, currentBalance = 1000): Promise<Ledger> {
    return ledgerOf(await client.post(LEDGER_PATHS.create, { ledger: { startDate, endDate, currentBalance } }));
  }

  async function extend(client: UserClient, endDate: string): Promise<Ledger> {
    return ledgerOf(await client.post(LEDGER_PATHS.extend, { endDate }));
  }

  async function addTransaction(client: UserClient, date: string, name: string, type: 'C' | 'D', amount: number): Promise<Ledger> {
    return ledgerOf(await client.post(LEDGER_PATHS.addTransaction, { date, name, type, amount }));
  }

  /** Sends the row as the page holds it, with some fields changed. */
  async function updateRow(client: UserClient, row: LedgerTransaction, changes: Partial<LedgerTransaction>): Promise<Ledger> {
    return ledgerOf(await client.patch(LEDGER_PATHS.updateTransaction, { ...row, ...changes }));
  }

  async function deleteRow(client: UserClient, row: LedgerTransaction): Promise<Ledger> {
    return ledgerOf(await client.delete(withId(LEDGER_PATHS.transaction, row.id)));
  }

  function depositsOf(response: LightMyRequestResponse): DepositsInfo {
    return depositsInfoSchema.parse(okJson(response));
  }

  function expensesOf(response: LightMyRequestResponse): ExpensesInfo {
    return expensesInfoSchema.parse(okJson(response));
  }

  /** Adds a deposit and answers its id, read from the deposits answer (name and amount tell them apart here). */
  async function addDeposit(client: UserClient, deposit: DepositBody): Promise<string> {
    const info = depositsOf(await client.post(DEPOSITS_PATHS.add, depositInput(deposit)));
    const id = info.deposits.find((candidate) => candidate.name === deposit.name && candidate.amount === deposit.amount)?.id;
    if (!id) throw new Error(`deposit ${deposit.name} missing from ${JSON.stringify(info)}`);
    return id;
  }

  async function addExpense(client: UserClient, expense: ExpenseBody): Promise<string> {
    const info = expensesOf(await client.post(EXPENSES_PATHS.add, expenseInput(expense)));
    const id = info.expenses.find((candidate) => candidate.name === expense.name && candidate.amount === expense.amount)?.id;
    if (!id) throw new Error(`expense ${expense.name} missing from ${JSON.stringify(info)}`);
    return id;
  }

  const changeDeposit = (client: UserClient, id: string, deposit: DepositBody) =>
    client.put(withId(DEPOSITS_PATHS.one, id), depositInput(deposit));
  const changeExpense = (client: UserClient, id: string, expense: ExpenseBody) =>
    client.put(withId(EXPENSES_PATHS.one, id), expenseInput(expense));

  /** A user with Acme, Rent, Phone and Gym (added in that order) and no ledger yet. */
  async function userWithSchedules(label: string): Promise<{ subject: string; client: UserClient; ids: Schedules }> {
    const subject = newSubject(label);
    const client = test.as(subject);
    const acme = await addDeposit(client, ACME);
    const rent = await addExpense(client, RENT);
    const phone = await addExpense(client, PHONE);
    const gym = await addExpense(client, GYM);
    return { subject, client, ids: { acme, rent, phone, gym } };
  }

  /** That user with a ledger from 2026-11-01 (before today) to `endDate`, opening at $1,000. */
  async function userWithLedger(label: string, endDate = '2027-02-28') {
    const { subject, client, ids } = await userWithSchedules(label);
    const ledger = await createLedger(client, '2026-11-01', endDate);
    return { subject, client, ids, ledger };
  }

  /** Every row the four schedules generate between the dates, in row order. */
  function projection(ids: Schedules, from: string, to: string) {
    const rows = [
      ...generated('deposit', ids.acme, 'Acme Paycheck', ACME.amount, within(OCCURRENCES.acme, from, to)),
      ...generated('expense', ids.rent, 'Rent', RENT.amount, within(OCCURRENCES.rent, from, to)),
      ...generated('expense', ids.phone, 'Phone', PHONE.amount, within(OCCURRENCES.phone, from, to)),
      ...generated('expense', ids.gym, 'Gym', GYM.amount, within(OCCURRENCES.gym, from, to)),
    ];
    // Date, then credits first; no two of these share a date and a type.
    return rows.sort((a, b) => (a.date === b.date ? (a.type === 'C' ? -1 : 1) : a.date < b.date ? -1 : 1));
  }

  describe('extend-ledger', () => {
    it('appends every occurrence after the old end, up to the new one, and changes no existing row', async () => {
      const { client, ids, ledger: created } = await userWithLedger('extend', '2026-12-31');
      expect(created.transactions.map(shape)).toEqual(projection(ids, '2026-11-01', '2026-12-31'));
      // Some history and some decisions of the user's: all of it must survive the extension.
      await updateRow(client, rowAt(created, 'Rent', '2026-12-01'), { status: 'PAID' });
      await updateRow(client, rowAt(created, 'Acme Paycheck', '2026-11-20'), { status: 'CLEARED' });
      await updateRow(client, rowAt(created, 'Phone', '2026-12-15'), { amount: 52.5, date: '2026-12-16' });
      await deleteRow(client, rowAt(created, 'Gym', '2026-12-25'));
      const before = await addTransaction(client, '2026-12-31', 'Cash gift', 'C', 100);

      const extended = await extend(client, '2027-02-28');

      expect(extended).toMatchObject({ startDate: '2026-11-01', endDate: '2027-02-28', openingBalance: 1000 });
      expect(extended.currentBalance).toBe(before.currentBalance);
      expect(extended.pendingBalance).toBe(before.pendingBalance);
      // Every existing row as it was, balance included: the new rows all come after them.
      const old = extended.transactions.filter((row) => row.date <= '2026-12-31');
      expect(old).toEqual(before.transactions);
      const added = extended.transactions.filter((row) => row.date > '2026-12-31');
      expect(added.map(shape)).toEqual(projection(ids, '2027-01-01', '2027-02-28'));
      expect(new Set(extended.transactions.map((row) => row.id)).size).toBe(extended.transactions.length);
      expectConsistent(extended);
      expect(await retrieve(client)).toEqual(extended);
    });

    it('gives, row for row, the ledger that creating it over the whole range gives', async () => {
      const client = test.as(newSubject('extend-same'));
      const ids = {
        acme: await addDeposit(client, ACME),
        // End of month, the last day moved back to Friday on a weekend (2027-01-31 is a Sunday).
        side: await addDeposit(client, { name: 'Side', amount: 400, startDate: '2026-10-01', frequency: 'EOM' }),
        rent: await addExpense(client, RENT),
        // Two bills with one name on one date: their creation order decides their order.
        insuranceA: await addExpense(client, { name: 'Insurance', amount: 100, day: 31 }),
        insuranceB: await addExpense(client, { name: 'Insurance', amount: 80, day: 31 }),
        // Ends inside the extension.
        loan: await addExpense(client, { name: 'Loan', amount: 250, day: 10, endDate: '2027-02-15' }),
      };
      await createLedger(client, '2026-11-01', '2026-12-31', 321.09);
      await extend(client, '2027-01-31');
      const extended = await extend(client, '2027-04-30');

      const created = await createLedger(client, '2026-11-01', '2027-04-30', 321.09);

      const comparable = (ledger: Ledger) => ledger.transactions.map((row) => ({ ...shape(row), balance: row.balance }));
      expect(comparable(extended)).toEqual(comparable(created));
      expect(extended).toEqual({ ...created, transactions: extended.transactions });
      // The comparison saw every kind of row: both deposits, the tie, the ended loan.
      const months = (id: string) => fromSchedule(created, id).map((row) => row.date);
      expect(months(ids.side)).toEqual(['2026-11-30', '2026-12-31', '2027-01-29', '2027-02-26', '2027-03-31', '2027-04-30']);
      expect(months(ids.loan)).toEqual(['2026-11-10', '2026-12-10', '2027-01-10', '2027-02-10']);
      expect(months(ids.insuranceA)).toEqual(['2026-11-30', '2026-12-31', '2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
      const january = created.transactions.filter((row) => row.date === '2027-01-31').map((row) => row.source?.id);
      expect(january).toEqual([ids.insuranceA, ids.insuranceB]);
      expect(fromSchedule(created, ids.acme)).toHaveLength(OCCURRENCES.acme.length);
      expect(fromSchedule(created, ids.rent)).toHaveLength(OCCURRENCES.rent.length);
    });

    it('refuses an end date on or before the current end, or past five years, with 400 on endDate, changing nothing', async () => {
      const { client } = await userWithLedger('extend-refused', '2026-12-31');
      const before = await test.snapshot();

      for (const endDate of ['2026-12-31', '2026-12-30', '2026-10-01']) {
        expectBadRequest(
          await client.post(LEDGER_PATHS.extend, { endDate }),
          { endDate: "End Date must be after the ledger's current end date, 2026-12-31." },
          'The ledger can only be extended.',
        );
      }
      // Five years from the start date, 2026-11-01, is the latest end.
      for (const endDate of ['2031-11-02', '2040-01-01']) {
        expectBadRequest(
          await client.post(LEDGER_PATHS.extend, { endDate }),
          { endDate: 'A ledger spans at most 5 years: End Date must be on or before 2031-11-01.' },
          'A ledger spans at most five years.',
        );
      }
      expectBadRequest(await client.post(LEDGER_PATHS.extend, {}), { endDate: 'End Date is required.' });
      expectBadRequest(await client.post(LEDGER_PATHS.extend, { endDate: '2027-02-30' }), {
        endDate: 'End Date must be a real date (YYYY-MM-DD).',
      });
      expectBadRequest(await client.post(LEDGER_PATHS.extend, { endDate: 20270228 }), { endDate: 'End Date must be a date (YYYY-MM-DD).' });
      for (const body of ['[1]', '"2027-02-28"', 'null', '{"endDate":']) {
        expect(errorOf(await client.post(LEDGER_PATHS.extend, body), 400).code).toBe('bad_request');
      }
      expect(await test.snapshot()).toBe(before);

      // The very last day allowed is accepted.
      const longest = await extend(client, '2031-11-01');
      expect(longest.endDate).toBe('2031-11-01');
      expect(longest.transactions.at(-1)?.date).toBe('2031-11-01');
    });

    it('answers 404 without a ledger, and does not create one', async () => {
      const { client } = await userWithSchedules('extend-nothing');
      expectNotFound(await client.post(LEDGER_PATHS.extend, { endDate: '2027-02-28' }), NO_LEDGER);
      expect(okJson(await client.get(LEDGER_PATHS.retrieve))).toEqual({ ledger: null });
    });
  });

  describe('schedule changes flow into the ledger', () => {
    it('adds a new deposit’s paydays and a new expense’s due dates from today on, none before, and answers the schedules', async () => {
      const { client, ids, ledger: before } = await userWithLedger('add-schedule');

      const deposits = depositsOf(
        await client.post(DEPOSITS_PATHS.add, depositInput({ name: 'Side', amount: 300, startDate: '2026-11-13', frequency: 'BW' })),
      );
      // The deposits answer of SPEC.md section 7, nothing more: both deposits and the monthly total.
      expect(deposits).toEqual({
        deposits: expect.arrayContaining([
          { id: ids.acme, ...depositInput(ACME) },
          { id: expect.stringMatching(ROW_ID), ...depositInput({ name: 'Side', amount: 300, startDate: '2026-11-13', frequency: 'BW' }) },
        ]),
        totalDeposits: 4983.33,
      });
      expect(deposits.deposits).toHaveLength(2);
      const side = deposits.deposits.find((deposit) => deposit.name === 'Side')?.id ?? '';

      let ledger = await retrieve(client);
      // 2026-11-13 is a payday before today: history, not projected.
      expect(fromSchedule(ledger, side).map(shape)).toEqual(
        generated('deposit', side, 'Side Paycheck', 300, [
          '2026-11-27',
          '2026-12-11',
          '2026-12-25',
          '2027-01-08',
          '2027-01-22',
          '2027-02-05',
          '2027-02-19',
        ]),
      );
      expect(apartFrom(ledger, [side])).toEqual(before.transactions.map(kept));

      const expenses = expensesOf(
        await client.post(EXPENSES_PATHS.add, expenseInput({ name: 'Water', amount: 60, day: 20, endDate: '2027-01-31' })),
      );
      expect(Object.keys(expenses).sort()).toEqual(['expenses', 'totalExpenses']);
      expect(expenses.expenses).toHaveLength(4);
      expect(expenses.totalExpenses).toBe(1335);
      const water = expenses.expenses.find((expense) => expense.name === 'Water');
      expect(water).toEqual({
        id: expect.stringMatching(ROW_ID),
        ...expenseInput({ name: 'Water', amount: 60, day: 20, endDate: '2027-01-31' }),
      });

      const withWater = await retrieve(client);
      // 2026-11-20 is before today; the expense ends before its February due date.
      expect(fromSchedule(withWater, water?.id ?? '').map(shape)).toEqual(
        generated('expense', water?.id ?? '', 'Water', 60, ['2026-12-20', '2027-01-20']),
      );
      expect(apartFrom(withWater, [water?.id ?? ''])).toEqual(ledger.transactions.map(kept));
      expectConsistent(withWater);
      ledger = withWater;
      expectNoDuplicateOccurrences(ledger);
    });

    it('projects from the ledger’s start when it starts after today, and leaves a ledger that ended before today alone', async () => {
      const later = test.as(newSubject('later-ledger'));
      await createLedger(later, '2027-01-01', '2027-03-31');
      const phone = await addExpense(later, PHONE);
      const salary = await addDeposit(later, { name: 'Salary', amount: 3000, startDate: '2026-10-01', frequency: 'EOM' });
      const ledger = await retrieve(later);
      expect(fromSchedule(ledger, phone).map(shape)).toEqual(
        generated('expense', phone, 'Phone', 45, ['2027-01-15', '2027-02-15', '2027-03-15']),
      );
      expect(fromSchedule(ledger, salary).map(shape)).toEqual(
        generated('deposit', salary, 'Salary Paycheck', 3000, ['2027-01-29', '2027-02-26', '2027-03-31']),
      );

      const past = test.as(newSubject('past-ledger'));
      const ended = await createLedger(past, '2026-10-01', '2026-10-31');
      await addExpense(past, PHONE);
      await addDeposit(past, ACME);
      expect(await retrieve(past)).toEqual(ended);
    });

    it('replaces only the future PENDING unedited rows of a changed expense; paid, cleared, past, edited, hand-added and other rows stay', async () => {
      const { client, ids, ledger: created } = await userWithLedger('change-expense', '2027-04-30');
      await updateRow(client, rowAt(created, 'Phone', '2026-12-15'), { status: 'PAID' });
      await updateRow(client, rowAt(created, 'Phone', '2027-01-15'), { status: 'CLEARED' });
      await updateRow(client, rowAt(created, 'Phone', '2027-02-15'), { amount: 50 });
      const before = await addTransaction(client, '2027-03-15', 'Phone case', 'D', 25);

      const answer = expensesOf(await changeExpense(client, ids.phone, { ...PHONE, amount: 60 }));
      expect(answer).toEqual(expensesOf(await client.get(EXPENSES_PATHS.retrieve)));
      expect(answer.expenses.find((expense) => expense.id === ids.phone)).toEqual({
        id: ids.phone,
        ...expenseInput({ ...PHONE, amount: 60 }),
      });
      expect(answer.totalExpenses).toBe(1290);

      const after = await retrieve(client);
      const phoneBefore = fromSchedule(before, ids.phone);
      const phoneAfter = fromSchedule(after, ids.phone);
      // 2026-11-15 is before today (still PENDING), then PAID, CLEARED, edited: all exactly as they were.
      expect(phoneAfter.slice(0, 4).map(kept)).toEqual(phoneBefore.slice(0, 4).map(kept));
      expect(phoneAfter.slice(0, 4).map((row) => [row.date, row.amount, row.status, row.source?.edited])).toEqual([
        ['2026-11-15', 45, 'PENDING', false],
        ['2026-12-15', 45, 'PAID', false],
        ['2027-01-15', 45, 'CLEARED', false],
        ['2027-02-15', 50, 'PENDING', true],
      ]);
      // The rows that followed the schedule are new rows with the new amount.
      expect(phoneAfter.slice(4).map(shape)).toEqual(generated('expense', ids.phone, 'Phone', 60, ['2027-03-15', '2027-04-15']));
      const oldIds = new Set(phoneBefore.map((row) => row.id));
      expect(phoneAfter.slice(4).every((row) => !oldIds.has(row.id))).toBe(true);
      expect(apartFrom(after, [ids.phone])).toEqual(apartFrom(before, [ids.phone]));
      expect(after).toMatchObject({ openingBalance: 1000, currentBalance: 955, pendingBalance: 910 });
      expectConsistent(after);
      expectNoDuplicateOccurrences(after);
    });

    it('a bill moved to another day keeps a paid month at one row and a skipped month skipped', async () => {
      const { client, ids, ledger: created } = await userWithLedger('move-due-day', '2027-03-31');
      await updateRow(client, rowAt(created, 'Phone', '2026-12-15'), { status: 'PAID' });
      await deleteRow(client, rowAt(await retrieve(client), 'Phone', '2027-01-15'));

      await changeExpense(client, ids.phone, { ...PHONE, day: 20 }).then(okJson);
      const after = await retrieve(client);
      // November's is before today; December's was paid; January was skipped: only February and March move.
      expect(fromSchedule(after, ids.phone).map((row) => `${row.date} ${row.status}`)).toEqual([
        '2026-11-15 PENDING',
        '2026-12-15 PAID',
        '2027-02-20 PENDING',
        '2027-03-20 PENDING',
      ]);
      expectNoDuplicateOccurrences(after);
      expectConsistent(after);
    });

    it('deleting a schedule with PAID and CLEARED rows removes only its future unpaid unedited rows', async () => {
      const { client, ids, ledger: created } = await userWithLedger('delete-schedule');
      await updateRow(client, rowAt(created, 'Rent', '2026-12-01'), { status: 'PAID' });
      await updateRow(client, rowAt(created, 'Rent', '2027-01-01'), { name: 'Rent (January)' });
      await updateRow(client, rowAt(created, 'Acme Paycheck', '2026-12-04'), { status: 'PAID' });
      const before = await updateRow(client, rowAt(created, 'Acme Paycheck', '2026-12-18'), { status: 'CLEARED' });

      const expenses = expensesOf(await client.delete(withId(EXPENSES_PATHS.one, ids.rent)));
      expect(expenses.expenses.map((expense) => expense.id).sort()).toEqual([ids.phone, ids.gym].sort());
      expect(expenses.totalExpenses).toBe(75);
      const deposits = depositsOf(await client.delete(withId(DEPOSITS_PATHS.one, ids.acme)));
      expect(deposits).toEqual({ deposits: [], totalDeposits: 0 });

      const after = await retrieve(client);
      // Before today, paid, edited: they stay, still naming the schedule that is gone.
      const rentBefore = fromSchedule(before, ids.rent);
      expect(fromSchedule(after, ids.rent).map(kept)).toEqual(rentBefore.filter((row) => row.date !== '2027-02-01').map(kept));
      expect(fromSchedule(after, ids.rent).map((row) => `${row.date} ${row.name} ${row.status}`)).toEqual([
        '2026-11-01 Rent PENDING',
        '2026-12-01 Rent PAID',
        '2027-01-01 Rent (January) PENDING',
      ]);
      expect(fromSchedule(after, ids.acme).map((row) => `${row.date} ${row.status}`)).toEqual([
        '2026-11-06 PENDING',
        '2026-11-20 PENDING',
        '2026-12-04 PAID',
        '2026-12-18 CLEARED',
      ]);
      expect(fromSchedule(after, ids.acme).map(kept)).toEqual(fromSchedule(before, ids.acme).slice(0, 4).map(kept));
      expect(apartFrom(after, [ids.rent, ids.acme])).toEqual(apartFrom(before, [ids.rent, ids.acme]));
      expectConsistent(after);
    });

    it('a deposit whose frequency and start date both change gets exactly its new paydays from today on', async () => {
      const { client, ids, ledger: created } = await userWithLedger('deposit-to-eom');
      const before = await updateRow(client, rowAt(created, 'Acme Paycheck', '2026-12-04'), { status: 'PAID' });
      const monthly: DepositBody = { ...ACME, amount: 4100, frequency: 'EOM', startDate: '2026-12-10' };

      const answer = depositsOf(await changeDeposit(client, ids.acme, monthly));
      expect(answer).toEqual({ deposits: [{ id: ids.acme, ...depositInput(monthly), day: 'N/A' }], totalDeposits: 4100 });

      const after = await retrieve(client);
      const acme = fromSchedule(after, ids.acme);
      // The old paydays before today and the paid one stay; every old future unpaid one is gone.
      expect(acme.slice(0, 3).map(kept)).toEqual(fromSchedule(before, ids.acme).slice(0, 3).map(kept));
      expect(acme.slice(0, 3).map((row) => `${row.date} ${row.amount} ${row.status}`)).toEqual([
        '2026-11-06 2000 PENDING',
        '2026-11-20 2000 PENDING',
        '2026-12-04 2000 PAID',
      ]);
      // 2027-01-31 and 2027-02-28 are Sundays: paid the Friday before.
      expect(acme.slice(3).map(shape)).toEqual(
        generated('deposit', ids.acme, 'Acme Paycheck', 4100, ['2026-12-31', '2027-01-29', '2027-02-26']),
      );
      expect(apartFrom(after, [ids.acme])).toEqual(apartFrom(before, [ids.acme]));
      expectConsistent(after);
    });

    it('an unchanged PUT of a deposit or an expense changes no row', async () => {
      const { client, ids } = await userWithLedger('unchanged');
      const before = await test.snapshot();
      expect(depositsOf(await changeDeposit(client, ids.acme, ACME))).toEqual(depositsOf(await client.get(DEPOSITS_PATHS.retrieve)));
      expect(expensesOf(await changeExpense(client, ids.rent, RENT))).toEqual(expensesOf(await client.get(EXPENSES_PATHS.retrieve)));
      // Same rows, same ids, same versions, same sequence counter.
      expect(await test.snapshot()).toBe(before);
    });

    it('a refused deposit or expense call changes nothing in the ledger', async () => {
      const { client, ids } = await userWithLedger('refused');
      const other = await userWithSchedules('refused-other');
      const before = await test.snapshot();
      const unknown = '00000000-0000-7000-8000-000000000000';

      expectNotFound(await changeExpense(client, unknown, RENT), 'That expense does not exist.');
      expectNotFound(await changeDeposit(client, unknown, ACME), 'That deposit does not exist.');
      expectNotFound(await client.delete(withId(EXPENSES_PATHS.one, unknown)), 'That expense does not exist.');
      expectNotFound(await client.delete(withId(DEPOSITS_PATHS.one, unknown)), 'That deposit does not exist.');
      // Another user's schedule is as unknown as a missing one, and their data stays too.
      expectNotFound(await changeExpense(client, other.ids.rent, { ...RENT, amount: 1 }), 'That expense does not exist.');
      expectNotFound(await client.delete(withId(DEPOSITS_PATHS.one, other.ids.acme)), 'That deposit does not exist.');
      expectBadRequest(await changeExpense(client, ids.rent, { ...RENT, amount: -5 }), { amount: 'Amount must be greater than 0.' });
      const badStart = { ...depositInput(ACME), startDate: '2026-02-30' };
      expect(errorOf(await client.put(withId(DEPOSITS_PATHS.one, ids.acme), badStart), 400).fields).toHaveProperty('startDate');
      expect(errorOf(await client.post(EXPENSES_PATHS.add, { ...expenseInput(PHONE), day: 32 }), 400).fields).toHaveProperty('day');
      expect(errorOf(await client.post(DEPOSITS_PATHS.add, { ...depositInput(ACME), day: 'Monday' }), 400).fields).toHaveProperty('day');

      expect(await test.snapshot()).toBe(before);
    });
  });

  describe('two schedule changes of one user at the same time', () => {
    /** Each schedule stands in the ledger exactly once per occurrence from today on, at its stored amount. */
    async function expectFollowsSchedules(client: UserClient, ledger: Ledger, expected: Record<string, readonly string[]>) {
      const deposits = depositsOf(await client.get(DEPOSITS_PATHS.retrieve)).deposits;
      const expenses = expensesOf(await client.get(EXPENSES_PATHS.retrieve)).expenses;
      expect([...deposits, ...expenses].map((schedule) => schedule.id).sort()).toEqual(Object.keys(expected).sort());
      for (const [id, dates] of Object.entries(expected)) {
        const deposit = deposits.find((candidate) => candidate.id === id);
        const expense = expenses.find((candidate) => candidate.id === id);
        const amount = deposit?.amount ?? expense?.amount;
        const name = deposit ? `${deposit.name} Paycheck` : expense?.name;
        const future = fromSchedule(ledger, id).filter((row) => row.date >= TODAY);
        expect(future.map(shape), name).toEqual(generated(deposit ? 'deposit' : 'expense', id, name ?? '', amount ?? 0, dates));
      }
      expectNoDuplicateOccurrences(ledger);
      expectConsistent(ledger);
    }

    it('ends with one row per occurrence of each schedule from today on: nothing doubled, nothing lost', async () => {
      const { client, ids, ledger: created } = await userWithLedger('concurrent');
      const future = (dates: readonly string[]) => within(dates, TODAY, '2027-02-28');

      const first = await Promise.all([
        changeExpense(client, ids.rent, { ...RENT, amount: 1300 }),
        changeExpense(client, ids.phone, { ...PHONE, amount: 50 }),
      ]);
      const side: DepositBody = { name: 'Side', amount: 300, startDate: '2026-11-13', frequency: 'BW' };
      const second = await Promise.all([
        client.post(DEPOSITS_PATHS.add, depositInput(side)),
        changeExpense(client, ids.gym, { ...GYM, amount: 35 }),
        changeExpense(client, ids.rent, { ...RENT, amount: 1350 }),
      ]);
      const third = await Promise.all([
        client.delete(withId(EXPENSES_PATHS.one, ids.phone)),
        changeDeposit(client, ids.acme, { ...ACME, amount: 2100 }),
        client.post(EXPENSES_PATHS.add, expenseInput({ name: 'Water', amount: 60, day: 20 })),
      ]);
      // The same expense changed five times at once: whichever commits last, the ledger follows it.
      const fourth = await Promise.all(
        [1301, 1302, 1303, 1304, 1305].map((amount) => changeExpense(client, ids.rent, { ...RENT, amount })),
      );
      for (const response of [...first, ...second, ...third, ...fourth]) expect(response.statusCode, response.body).toBe(200);

      const deposits = depositsOf(await client.get(DEPOSITS_PATHS.retrieve)).deposits;
      const expenses = expensesOf(await client.get(EXPENSES_PATHS.retrieve)).expenses;
      const sideId = deposits.find((deposit) => deposit.name === 'Side')?.id ?? '';
      const waterId = expenses.find((expense) => expense.name === 'Water')?.id ?? '';
      const ledger = await retrieve(client);
      await expectFollowsSchedules(client, ledger, {
        [ids.acme]: future(OCCURRENCES.acme),
        [ids.rent]: future(OCCURRENCES.rent),
        [ids.gym]: future(OCCURRENCES.gym),
        [sideId]: ['2026-11-27', '2026-12-11', '2026-12-25', '2027-01-08', '2027-01-22', '2027-02-05', '2027-02-19'],
        [waterId]: ['2026-12-20', '2027-01-20', '2027-02-20'],
      });
      // The deleted phone bill keeps only its row before today; the past stays as it was created.
      expect(fromSchedule(ledger, ids.phone).map(kept)).toEqual([kept(rowAt(created, 'Phone', '2026-11-15'))]);
      expect(ledger.transactions.filter((row) => row.date < TODAY).map(kept)).toEqual(
        created.transactions.filter((row) => row.date < TODAY).map(kept),
      );
    });

    it('brings a schedule change racing the first create-ledger into the new ledger', async () => {
      const side: DepositBody = { name: 'Side', amount: 300, startDate: '2026-11-13', frequency: 'BW' };
      const sideDates = ['2026-11-13', '2026-11-27', '2026-12-11', '2026-12-25', '2027-01-08', '2027-01-22', '2027-02-05', '2027-02-19'];
      // Several users at once, so that on PostgreSQL both orders are likely to happen.
      await Promise.all(
        Array.from({ length: 4 }, async (_, index) => {
          const client = test.as(newSubject(`race-create-${index}`));
          const rent = await addExpense(client, RENT);
          const [created, added, changed] = await Promise.all([
            client.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2027-02-28', currentBalance: 0 } }),
            client.post(DEPOSITS_PATHS.add, depositInput(side)),
            changeExpense(client, rent, { ...RENT, amount: 1300 }),
          ]);
          ledgerOf(created);
          for (const response of [added, changed]) expect(response.statusCode, response.body).toBe(200);
          const sideId = depositsOf(added).deposits.find((deposit) => deposit.name === 'Side')?.id ?? '';

          const ledger = await retrieve(client);
          await expectFollowsSchedules(client, ledger, {
            [rent]: within(OCCURRENCES.rent, TODAY, '2027-02-28'),
            [sideId]: within(sideDates, TODAY, '2027-02-28'),
          });
          // Before today: what creation made, from whichever schedules it saw.
          expect(
            fromSchedule(ledger, sideId)
              .filter((row) => row.date < TODAY)
              .map((row) => row.date),
          ).toEqual(expect.toBeOneOf([[], ['2026-11-13']]));
          expect(
            fromSchedule(ledger, rent)
              .filter((row) => row.date < TODAY)
              .map((row) => row.date),
          ).toEqual(['2026-11-01']);
        }),
      );
    });

    it('brings schedule changes racing an extension, and a skip racing a change, to one consistent ledger', async () => {
      await Promise.all(
        Array.from({ length: 4 }, async (_, index) => {
          const { client, ids, ledger: created } = await userWithLedger(`race-extend-${index}`, '2026-12-31');
          const water: ExpenseBody = { name: 'Water', amount: 60, day: 20 };
          const [extended, added, changed, skipped, phoneChanged] = await Promise.all([
            client.post(LEDGER_PATHS.extend, { endDate: '2027-02-28' }),
            client.post(EXPENSES_PATHS.add, expenseInput(water)),
            changeExpense(client, ids.rent, { ...RENT, amount: 1300 }),
            client.delete(withId(LEDGER_PATHS.transaction, rowAt(created, 'Phone', '2026-12-15').id)),
            changeExpense(client, ids.phone, { ...PHONE, amount: 50 }),
          ]);
          ledgerOf(extended);
          for (const response of [added, changed, phoneChanged]) expect(response.statusCode, response.body).toBe(200);
          const waterId = expensesOf(added).expenses.find((expense) => expense.name === 'Water')?.id ?? '';

          const ledger = await retrieve(client);
          expect(ledger.endDate).toBe('2027-02-28');
          // Deleted first, the occurrence stays skipped; changed first, the row it named was replaced (404).
          const phoneDates = within(OCCURRENCES.phone, TODAY, '2027-02-28');
          if (skipped.statusCode === 200) phoneDates.splice(phoneDates.indexOf('2026-12-15'), 1);
          else expectNotFound(skipped, 'No such transaction in your ledger.');
          await expectFollowsSchedules(client, ledger, {
            [ids.acme]: within(OCCURRENCES.acme, TODAY, '2027-02-28'),
            [ids.rent]: within(OCCURRENCES.rent, TODAY, '2027-02-28'),
            [ids.phone]: phoneDates,
            [ids.gym]: within(OCCURRENCES.gym, TODAY, '2027-02-28'),
            [waterId]: ['2026-12-20', '2027-01-20', '2027-02-20'],
          });
        }),
      );
    });
  });

  describe('skipping an occurrence', () => {
    it('sticks: neither a schedule change nor an extension brings a deleted generated row back', async () => {
      const { subject, client, ids, ledger: created } = await userWithLedger('skip', '2027-02-28');
      await deleteRow(client, rowAt(created, 'Phone', '2027-01-15'));
      // An edited row, deleted: skipped as well.
      const gym = await updateRow(client, rowAt(created, 'Gym', '2026-12-25'), { amount: 31 });
      await deleteRow(client, rowAt(gym, 'Gym', '2026-12-25'));
      // A row added by hand is just deleted: nothing to skip.
      const withCoffee = await addTransaction(client, '2026-12-02', 'Coffee', 'D', 4.5);
      const before = await deleteRow(client, rowAt(withCoffee, 'Coffee', '2026-12-02'));
      expect(before.transactions.map(kept)).toEqual(
        created.transactions.filter((row) => !['Phone 2027-01-15', 'Gym 2026-12-25'].includes(`${row.name} ${row.date}`)).map(kept),
      );
      const skipped = await withLedgerTables(test.app.database.db)
        .selectFrom('ledger_skipped_occurrences')
        .select(['source_kind', 'source_id', 'occurrence'])
        .where('owner_sub', '=', subject)
        .orderBy('occurrence')
        .execute();
      expect(skipped).toEqual([
        { source_kind: 'expense', source_id: ids.gym, occurrence: '2026-12-25' },
        { source_kind: 'expense', source_id: ids.phone, occurrence: '2027-01-15' },
      ]);

      await changeExpense(client, ids.phone, { ...PHONE, amount: 50 });
      await changeExpense(client, ids.gym, { ...GYM, amount: 35 });
      let ledger = await retrieve(client);
      expect(fromSchedule(ledger, ids.phone).map((row) => `${row.date} ${row.amount}`)).toEqual([
        '2026-11-15 45',
        '2026-12-15 50',
        '2027-02-15 50',
      ]);
      expect(fromSchedule(ledger, ids.gym).map((row) => `${row.date} ${row.amount}`)).toEqual([
        '2026-11-25 35',
        '2027-01-25 35',
        '2027-02-25 35',
      ]);

      ledger = await extend(client, '2027-04-30');
      expect(fromSchedule(ledger, ids.phone).map((row) => `${row.date} ${row.amount}`)).toEqual([
        '2026-11-15 45',
        '2026-12-15 50',
        '2027-02-15 50',
        '2027-03-15 50',
        '2027-04-15 50',
      ]);
      // Back to the old amount: still skipped.
      expensesOf(await changeExpense(client, ids.phone, PHONE));
      ledger = await retrieve(client);
      expect(fromSchedule(ledger, ids.phone).map((row) => row.date)).not.toContain('2027-01-15');
      expect(fromSchedule(ledger, ids.gym).map((row) => row.date)).not.toContain('2026-12-25');
      expectNoDuplicateOccurrences(ledger);
    });

    it('refuses to delete a PAID or CLEARED row with 409, changing nothing', async () => {
      const { client, ledger: created } = await userWithLedger('skip-paid');
      await updateRow(client, rowAt(created, 'Rent', '2026-12-01'), { status: 'PAID' });
      const before = await updateRow(client, rowAt(created, 'Phone', '2026-12-15'), { status: 'CLEARED' });
      const snapshot = await test.snapshot();
      for (const [row, status] of [
        [rowAt(before, 'Rent', '2026-12-01'), 'PAID'],
        [rowAt(before, 'Phone', '2026-12-15'), 'CLEARED'],
      ] as const) {
        expect(errorOf(await client.delete(withId(LEDGER_PATHS.transaction, row.id)), 409)).toEqual({
          code: 'conflict',
          message: `A ${status} transaction cannot be deleted: only PENDING transactions can.`,
        });
      }
      expect(await test.snapshot()).toBe(snapshot);
    });

    it('is forgotten when the ledger is replaced: a new ledger starts with no skipped occurrences', async () => {
      const { subject, client, ids, ledger: created } = await userWithLedger('skip-replace');
      await deleteRow(client, rowAt(created, 'Phone', '2027-01-15'));
      const replaced = await createLedger(client, '2026-11-01', '2027-02-28');
      expect(replaced.transactions.map(shape)).toEqual(projection(ids, '2026-11-01', '2027-02-28'));
      expect(
        await withLedgerTables(test.app.database.db)
          .selectFrom('ledger_skipped_occurrences')
          .selectAll()
          .where('owner_sub', '=', subject)
          .execute(),
      ).toEqual([]);
      await changeExpense(client, ids.phone, { ...PHONE, amount: 50 });
      expect(fromSchedule(await retrieve(client), ids.phone).map((row) => `${row.date} ${row.amount}`)).toEqual([
        '2026-11-15 45',
        '2026-12-15 50',
        '2027-01-15 50',
        '2027-02-15 50',
      ]);
    });
  });

  describe('sources', () => {
    it('names the schedule and occurrence of every generated row, null for a row added by hand', async () => {
      const { client, ids } = await userWithLedger('sources');
      const ledger = await addTransaction(client, '2026-12-02', 'Coffee', 'D', 4.5);
      const expected = new Map([
        ['Acme Paycheck', { kind: 'deposit', id: ids.acme }],
        ['Rent', { kind: 'expense', id: ids.rent }],
        ['Phone', { kind: 'expense', id: ids.phone }],
        ['Gym', { kind: 'expense', id: ids.gym }],
      ]);
      for (const row of ledger.transactions) {
        const schedule = expected.get(row.name);
        expect(row.source).toEqual(schedule ? { ...schedule, occurrence: row.date, edited: false } : null);
      }
      expect(ledger.transactions.filter((row) => row.source === null).map((row) => row.name)).toEqual(['Coffee']);
      expect(ledger.transactions).toHaveLength(22);
    });

    it('marks a row edited when its name, date or amount changes, not on a status move; a schedule change then leaves it alone', async () => {
      const { client, ids, ledger: created } = await userWithLedger('edited', '2027-03-31');
      let ledger = await updateRow(client, rowAt(created, 'Gym', '2026-12-25'), { name: 'Gym (December)' });
      expect(rowAt(ledger, 'Gym (December)', '2026-12-25').source).toEqual(source('expense', ids.gym, '2026-12-25', true));
      ledger = await updateRow(client, rowAt(ledger, 'Gym', '2027-01-25'), { date: '2027-01-27' });
      expect(rowAt(ledger, 'Gym', '2027-01-27').source).toEqual(source('expense', ids.gym, '2027-01-25', true));
      ledger = await updateRow(client, rowAt(ledger, 'Gym', '2027-02-25'), { amount: 40 });
      expect(rowAt(ledger, 'Gym', '2027-02-25').source).toEqual(source('expense', ids.gym, '2027-02-25', true));

      // Status moves alone: PENDING to PAID, PAID to CLEARED, PENDING to CLEARED.
      ledger = await updateRow(client, rowAt(ledger, 'Rent', '2026-12-01'), { status: 'PAID' });
      ledger = await updateRow(client, rowAt(ledger, 'Rent', '2026-12-01'), { status: 'CLEARED' });
      ledger = await updateRow(client, rowAt(ledger, 'Rent', '2027-01-01'), { status: 'CLEARED' });
      expect(rowAt(ledger, 'Rent', '2026-12-01').source).toEqual(source('expense', ids.rent, '2026-12-01'));
      expect(rowAt(ledger, 'Rent', '2027-01-01').source).toEqual(source('expense', ids.rent, '2027-01-01'));
      // An update that changes nothing marks nothing either.
      ledger = await updateRow(client, rowAt(ledger, 'Rent', '2027-02-01'), {});
      expect(rowAt(ledger, 'Rent', '2027-02-01').source).toEqual(source('expense', ids.rent, '2027-02-01'));
      // A row added by hand stays without a source when edited.
      ledger = await addTransaction(client, '2026-12-02', 'Coffee', 'D', 4.5);
      ledger = await updateRow(client, rowAt(ledger, 'Coffee', '2026-12-02'), { amount: 5 });
      expect(rowAt(ledger, 'Coffee', '2026-12-02').source).toBeNull();
      const before = ledger;

      await changeExpense(client, ids.gym, { ...GYM, amount: 35 });
      await changeExpense(client, ids.rent, { ...RENT, amount: 1250 });
      const after = await retrieve(client);
      const gymAfter = fromSchedule(after, ids.gym);
      const edited = (row: LedgerTransaction) => row.source?.edited === true;
      // The three edited rows stay exactly as they were; the two that still follow Gym take the new amount.
      expect(gymAfter.filter(edited).map(kept)).toEqual(fromSchedule(before, ids.gym).filter(edited).map(kept));
      expect(gymAfter.filter(edited)).toHaveLength(3);
      expect(gymAfter.filter((row) => !edited(row)).map(shape)).toEqual(
        generated('expense', ids.gym, 'Gym', 35, ['2026-11-25', '2027-03-25']),
      );
      // The status moves did not detach the rows: Rent's cleared rows stay, its pending ones follow.
      expect(fromSchedule(after, ids.rent).map((row) => `${row.date} ${row.amount} ${row.status}`)).toEqual([
        '2026-11-01 1200 PENDING',
        '2026-12-01 1200 CLEARED',
        '2027-01-01 1200 CLEARED',
        '2027-02-01 1250 PENDING',
        '2027-03-01 1250 PENDING',
      ]);
      expect(apartFrom(after, [ids.gym, ids.rent])).toEqual(apartFrom(before, [ids.gym, ids.rent]));
      expectConsistent(after);
    });
  });
});
