/**
 * Expenses over HTTP on a real database: exact answers, end dates against the app's fixed today
 * (Saturday 2026-11-21), every refused input (and that it stored nothing), and that one user can
 * never see or touch another user's expenses.
 */
import { withId } from '../../src/contract/common.js';
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/errors.js';
import { EXPENSES_PATHS, type ExpensesInfo, expensesInfoSchema } from '../../src/contract/expenses.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';
import {
  AMOUNT_MESSAGES,
  expectBadRequest,
  expectNotFound as expectNotFoundAs,
  FIELDS_MESSAGE,
  newSubject as newSubjectFor,
  ROW_ID,
} from '../support/api-expectations.js';

const rent = { name: 'Rent', type: 'Housing', day: 1, amount: 1500, endDate: null } as const;
const phone = { name: 'Phone', type: 'Utilities', day: 15, amount: 45.99, endDate: '2027-06-30' } as const;

/** How the API answers an expense sent without a frequency or start date: monthly, with none. */
function monthly<T extends object>(expense: T): T & { frequency: 'M'; startDate: null } {
  return { ...expense, frequency: 'M', startDate: null };
}

function expensesOf(response: LightMyRequestResponse): ExpensesInfo {
  expect(response.statusCode, response.body).toBe(200);
  return expensesInfoSchema.parse(response.json());
}

function expectNotFound(response: LightMyRequestResponse): void {
  expectNotFoundAs(response, 'That expense does not exist.');
}

function newSubject(): string {
  return newSubjectFor('expense-user');
}

function newUser(test: TestApp): UserClient {
  return test.as(newSubject());
}

async function addExpense(user: UserClient, expense: object): Promise<ExpensesInfo> {
  return expensesOf(await user.post(EXPENSES_PATHS.add, expense));
}

const DAY = 'Day must be a whole number from 1 to 31.';
const BAD_FREQUENCY = 'Frequency must be M (monthly), W (weekly), BW (every 2 weeks), Q (every 3 months) or Y (yearly).';
const START_DATE_NOT_REAL = 'Start Date must be a real date (YYYY-MM-DD).';
const END_BEFORE_START = 'End Date must be on or after Start Date.';
const startDateRequired = (bill: string) => `Start Date is required for ${bill} bill: it is the first due date.`;
const {
  notNumber: AMOUNT_NOT_NUMBER,
  notPositive: AMOUNT_NOT_POSITIVE,
  tooLarge: AMOUNT_TOO_LARGE,
  decimals: AMOUNT_DECIMALS,
} = AMOUNT_MESSAGES;
const END_DATE_NOT_REAL = 'End Date must be a real date (YYYY-MM-DD) or empty.';
const END_DATE_NOT_TEXT = 'End Date must be a date (YYYY-MM-DD) or empty.';

/** One change to a valid expense and the one field message it must produce. */
const badExpenses: { label: string; change: Record<string, unknown>; field: string; message: string }[] = [
  { label: 'day 0', change: { day: 0 }, field: 'day', message: DAY },
  { label: 'day 32', change: { day: 32 }, field: 'day', message: DAY },
  { label: 'day 1.5', change: { day: 1.5 }, field: 'day', message: DAY },
  { label: 'a negative day', change: { day: -1 }, field: 'day', message: DAY },
  { label: 'a day sent as a string', change: { day: '5' }, field: 'day', message: DAY },
  { label: 'a null day', change: { day: null }, field: 'day', message: DAY },
  { label: 'a missing day', change: { day: undefined }, field: 'day', message: 'Day is required.' },
  { label: 'amount 0', change: { amount: 0 }, field: 'amount', message: AMOUNT_NOT_POSITIVE },
  { label: 'a negative amount', change: { amount: -5 }, field: 'amount', message: AMOUNT_NOT_POSITIVE },
  { label: 'an amount with three decimals', change: { amount: 1.234 }, field: 'amount', message: AMOUNT_DECIMALS },
  { label: 'an amount over the limit', change: { amount: 100_000_000 }, field: 'amount', message: AMOUNT_TOO_LARGE },
  { label: 'an amount sent as a string', change: { amount: '12' }, field: 'amount', message: AMOUNT_NOT_NUMBER },
  { label: 'an amount sent as "NaN"', change: { amount: 'NaN' }, field: 'amount', message: AMOUNT_NOT_NUMBER },
  { label: 'a null amount', change: { amount: null }, field: 'amount', message: AMOUNT_NOT_NUMBER },
  { label: 'a missing amount', change: { amount: undefined }, field: 'amount', message: 'Amount is required.' },
  { label: 'an empty name', change: { name: '' }, field: 'name', message: 'Name is required.' },
  { label: 'a name of only spaces', change: { name: ' \t ' }, field: 'name', message: 'Name is required.' },
  { label: 'a 101-character name', change: { name: 'x'.repeat(101) }, field: 'name', message: 'Name must be at most 100 characters.' },
  { label: 'a missing name', change: { name: undefined }, field: 'name', message: 'Name is required.' },
  { label: 'an empty type', change: { type: '' }, field: 'type', message: 'Type is required.' },
  { label: 'a type of only spaces', change: { type: '   ' }, field: 'type', message: 'Type is required.' },
  { label: 'a 51-character type', change: { type: 't'.repeat(51) }, field: 'type', message: 'Type must be at most 50 characters.' },
  { label: 'an impossible end date', change: { endDate: '2026-02-30' }, field: 'endDate', message: END_DATE_NOT_REAL },
  { label: 'an end date in another format', change: { endDate: '12/31/2026' }, field: 'endDate', message: END_DATE_NOT_REAL },
  { label: 'an end date of only spaces', change: { endDate: ' ' }, field: 'endDate', message: END_DATE_NOT_REAL },
  { label: 'an end date that is a number', change: { endDate: 20261231 }, field: 'endDate', message: END_DATE_NOT_TEXT },
  { label: 'an end date that is false', change: { endDate: false }, field: 'endDate', message: END_DATE_NOT_TEXT },
  // Frequencies and start dates (issue 12).
  { label: 'a weekly bill without a start date', change: { frequency: 'W' }, field: 'startDate', message: startDateRequired('a weekly') },
  {
    label: 'an every-2-weeks bill without a start date',
    change: { frequency: 'BW', day: undefined },
    field: 'startDate',
    message: startDateRequired('an every-2-weeks'),
  },
  {
    label: 'an every-3-months bill with a null start date',
    change: { frequency: 'Q', startDate: null },
    field: 'startDate',
    message: startDateRequired('an every-3-months'),
  },
  {
    label: 'a yearly bill with an empty start date',
    change: { frequency: 'Y', startDate: '' },
    field: 'startDate',
    message: startDateRequired('a yearly'),
  },
  {
    label: 'a monthly bill with a start date and no day',
    change: { frequency: 'M', startDate: '2026-12-15', day: undefined },
    field: 'day',
    message: 'Day is required.',
  },
  {
    label: 'an every-3-months bill whose day is not its start date day',
    change: { frequency: 'Q', startDate: '2026-12-14' },
    field: 'day',
    message: 'Day must be 14, the day of the Start Date, or left out.',
  },
  {
    label: 'a weekly bill whose day is not its start date day',
    change: { frequency: 'W', startDate: '2026-11-30', day: 31 },
    field: 'day',
    message: 'Day must be 30, the day of the Start Date, or left out.',
  },
  {
    label: 'a yearly bill ending before it starts',
    change: { frequency: 'Y', startDate: '2027-07-15' },
    field: 'endDate',
    message: END_BEFORE_START,
  },
  {
    label: 'a monthly bill ending before its start date',
    change: { startDate: '2027-07-01' },
    field: 'endDate',
    message: END_BEFORE_START,
  },
  // A date that is not real has no day of the month and no order: only it is named, never a made-up
  // day (the 30th of '2026-02-30', the 26th of '12/15/2026') or an end date before it.
  {
    label: 'an impossible start date',
    change: { frequency: 'Q', startDate: '2026-02-30' },
    field: 'startDate',
    message: START_DATE_NOT_REAL,
  },
  {
    label: 'a start date in another format',
    change: { frequency: 'Y', startDate: '12/15/2026' },
    field: 'startDate',
    message: START_DATE_NOT_REAL,
  },
  {
    label: 'a monthly bill with an impossible start date',
    change: { startDate: '2026-13-15' },
    field: 'startDate',
    message: START_DATE_NOT_REAL,
  },
  {
    label: 'a monthly bill whose start date is not real and sorts after its end date',
    change: { startDate: '2027-13-01' },
    field: 'startDate',
    message: START_DATE_NOT_REAL,
  },
  {
    label: 'an end date that is not a real date, before the start date',
    change: { frequency: 'Y', startDate: '2026-12-15', endDate: '2026-02-30' },
    field: 'endDate',
    message: END_DATE_NOT_REAL,
  },
  {
    label: 'a start date that is a number',
    change: { frequency: 'W', startDate: 20261215 },
    field: 'startDate',
    message: 'Start Date must be a date (YYYY-MM-DD) or empty.',
  },
  { label: 'a deposit frequency (SM)', change: { frequency: 'SM' }, field: 'frequency', message: BAD_FREQUENCY },
  {
    label: 'a frequency in the wrong case',
    change: { frequency: 'q', startDate: '2026-12-15' },
    field: 'frequency',
    message: BAD_FREQUENCY,
  },
  { label: 'a frequency spelled out', change: { frequency: 'MONTHLY' }, field: 'frequency', message: BAD_FREQUENCY },
  { label: 'a null frequency', change: { frequency: null }, field: 'frequency', message: BAD_FREQUENCY },
];

/**
 * A bill of each frequency (issue 12), as sent and as answered, with its monthly equivalent rounded
 * half-up to the cent: weekly x 52 / 12, every 2 weeks x 26 / 12, every 3 months / 3, yearly / 12.
 * A bill that is not monthly needs its start date, and its day is that date's day of the month.
 */
const everyFrequency = [
  { label: 'a monthly bill without a start date', sent: rent, answer: monthly(rent), total: 1500 },
  {
    label: 'a monthly bill with a start date',
    sent: { ...rent, frequency: 'M', startDate: '2026-12-01' },
    answer: { ...rent, frequency: 'M', startDate: '2026-12-01' },
    total: 1500,
  },
  {
    label: 'a weekly bill',
    sent: { name: 'Lunch', type: 'Food', frequency: 'W', startDate: '2026-11-23', amount: 20, endDate: null },
    answer: { name: 'Lunch', type: 'Food', frequency: 'W', startDate: '2026-11-23', day: 23, amount: 20, endDate: null },
    // 2,000 cents x 52 / 12 = 8,666.67 cents.
    total: 86.67,
  },
  {
    label: 'an every-2-weeks bill',
    sent: { name: 'Cleaner', type: 'Home', frequency: 'BW', startDate: '2026-11-27', amount: 75, endDate: '2027-11-26' },
    answer: { name: 'Cleaner', type: 'Home', frequency: 'BW', startDate: '2026-11-27', day: 27, amount: 75, endDate: '2027-11-26' },
    // 7,500 cents x 26 / 12 = 16,250 cents.
    total: 162.5,
  },
  {
    label: 'an every-3-months bill',
    sent: { name: 'Insurance', type: 'Insurance', frequency: 'Q', startDate: '2026-12-31', amount: 100, endDate: null },
    answer: { name: 'Insurance', type: 'Insurance', frequency: 'Q', startDate: '2026-12-31', day: 31, amount: 100, endDate: null },
    // 10,000 cents / 3 = 3,333.33 cents.
    total: 33.33,
  },
  {
    label: 'a yearly bill',
    sent: { name: 'Registration', type: 'Car', frequency: 'Y', startDate: '2028-02-29', amount: 1200, endDate: null },
    answer: { name: 'Registration', type: 'Car', frequency: 'Y', startDate: '2028-02-29', day: 29, amount: 1200, endDate: null },
    total: 100,
  },
  {
    label: 'a weekly bill sent with its start date day',
    sent: { name: 'Lunch', type: 'Food', frequency: 'W', startDate: '2026-11-23', day: 23, amount: 20, endDate: '2026-11-23' },
    answer: { name: 'Lunch', type: 'Food', frequency: 'W', startDate: '2026-11-23', day: 23, amount: 20, endDate: '2026-11-23' },
    total: 86.67,
  },
] as const;

/** Bodies that are not an expense object at all: raw strings go out as sent, anything else as JSON. */
const badBodies: { label: string; payload: unknown; message: string }[] = [
  { label: 'an array', payload: [rent], message: FIELDS_MESSAGE },
  { label: 'a JSON string', payload: '"Rent"', message: FIELDS_MESSAGE },
  { label: 'a JSON boolean', payload: 'true', message: FIELDS_MESSAGE },
  { label: 'null', payload: null, message: FIELDS_MESSAGE },
  { label: 'malformed JSON', payload: '{bad', message: 'The request body is not valid JSON.' },
  {
    label: 'NaN, which JSON cannot carry',
    payload: '{"name":"Rent","type":"Housing","day":1,"amount":NaN}',
    message: 'The request body is not valid JSON.',
  },
];

describe.each(databaseKinds())('expenses on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test.close());

  describe('happy paths', () => {
    it('answers an empty list and a zero total for a new user', async () => {
      expect(expensesOf(await newUser(test).get(EXPENSES_PATHS.retrieve))).toEqual({ expenses: [], totalExpenses: 0 });
    });

    it('adds an expense and answers the full list', async () => {
      const user = newUser(test);
      const info = await addExpense(user, rent);
      expect(info).toEqual({ expenses: [{ id: expect.stringMatching(ROW_ID), ...monthly(rent) }], totalExpenses: 1500 });
      const both = await addExpense(user, phone);
      expect(both).toEqual({
        expenses: [info.expenses[0], { id: expect.stringMatching(ROW_ID), ...monthly(phone) }],
        totalExpenses: 1545.99,
      });
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve))).toEqual(both);
    });

    it('adds in exact cents: 0.10 + 0.20 is 0.3', async () => {
      const user = newUser(test);
      await addExpense(user, { ...rent, name: 'Ten cents', amount: 0.1 });
      const info = await addExpense(user, { ...rent, name: 'Twenty cents', amount: 0.2 });
      expect(info.totalExpenses).toBe(0.3);
    });

    it('keeps the boundaries: day 31, a 100-character name, a 50-character type, one cent, the largest amount', async () => {
      const user = newUser(test);
      const longName = 'n'.repeat(100);
      const longType = 't'.repeat(50);
      await addExpense(user, { name: ` ${longName} `, type: ` ${longType} `, day: 31, amount: 0.01 });
      const info = await addExpense(user, { ...rent, amount: 99_999_999.99 });
      expect(info.expenses).toEqual([
        { id: expect.stringMatching(ROW_ID), ...monthly(rent), amount: 99_999_999.99 },
        { id: expect.stringMatching(ROW_ID), ...monthly({ name: longName, type: longType, day: 31, amount: 0.01, endDate: null }) },
      ]);
      expect(info.totalExpenses).toBe(100_000_000);
    });

    it('answers expenses by day of the month, then name (letter case aside)', async () => {
      const user = newUser(test);
      await addExpense(user, { ...rent, name: 'water', day: 15 });
      await addExpense(user, { ...rent, name: 'Rent', day: 1 });
      await addExpense(user, { ...rent, name: 'Alpha', day: 31 });
      await addExpense(user, { ...rent, name: 'gym', day: 1 });
      await addExpense(user, { ...rent, name: 'Zed', day: 2 });
      const info = expensesOf(await user.get(EXPENSES_PATHS.retrieve));
      expect(info.expenses.map((expense) => `${expense.day} ${expense.name}`)).toEqual([
        '1 gym',
        '1 Rent',
        '2 Zed',
        '15 water',
        '31 Alpha',
      ]);
    });

    it('changes an expense in place: same id, new values, new total', async () => {
      const user = newUser(test);
      const id = (await addExpense(user, rent)).expenses[0]?.id ?? '';
      await addExpense(user, phone);
      const changed = { name: 'Mortgage', type: 'Housing', day: 28, amount: 1750.25, endDate: '2040-12-31' };
      const info = expensesOf(await user.put(withId(EXPENSES_PATHS.one, id), changed));
      expect(info.expenses).toEqual([expect.objectContaining({ name: 'Phone' }), { id, ...monthly(changed) }]);
      expect(info.totalExpenses).toBe(1796.24);
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve))).toEqual(info);
    });

    it('removes an expense and answers what is left', async () => {
      const user = newUser(test);
      const id = (await addExpense(user, rent)).expenses[0]?.id ?? '';
      await addExpense(user, phone);
      const info = expensesOf(await user.delete(withId(EXPENSES_PATHS.one, id)));
      expect(info).toEqual({ expenses: [{ id: expect.stringMatching(ROW_ID), ...monthly(phone) }], totalExpenses: 45.99 });
      expectNotFound(await user.delete(withId(EXPENSES_PATHS.one, id)));
    });
  });

  describe('end dates', () => {
    it.each([
      { label: 'an empty end date', endDate: '' },
      { label: 'a null end date', endDate: null },
      { label: 'no end date key', endDate: undefined },
    ])('stores $label as no end', async ({ endDate }) => {
      const user = newUser(test);
      const info = await addExpense(user, { name: 'Rent', type: 'Housing', day: 1, amount: 1500, endDate });
      expect(info).toEqual({ expenses: [{ id: expect.stringMatching(ROW_ID), ...monthly(rent), endDate: null }], totalExpenses: 1500 });
    });

    it('lists an ended expense but leaves it out of the total; one ending today still counts', async () => {
      const user = newUser(test);
      await addExpense(user, { ...rent, name: 'Ended yesterday', amount: 100, endDate: '2026-11-20' });
      await addExpense(user, { ...rent, name: 'Ended last year', amount: 200, endDate: '2025-01-31' });
      await addExpense(user, { ...rent, name: 'Ends today', amount: 10.5, endDate: '2026-11-21' });
      const info = await addExpense(user, { ...rent, name: 'Ends tomorrow', amount: 0.25, endDate: '2026-11-22' });
      expect(info.expenses.map((expense) => `${expense.name} ${expense.endDate}`)).toEqual([
        'Ended last year 2025-01-31',
        'Ended yesterday 2026-11-20',
        'Ends today 2026-11-21',
        'Ends tomorrow 2026-11-22',
      ]);
      expect(info.totalExpenses).toBe(10.75);
    });

    it('counts an expense again when a change removes its past end date, and not when a change ends it', async () => {
      const user = newUser(test);
      const id = (await addExpense(user, { ...rent, endDate: '2026-01-31' })).expenses[0]?.id ?? '';
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve)).totalExpenses).toBe(0);
      expect(expensesOf(await user.put(withId(EXPENSES_PATHS.one, id), { ...rent, endDate: '' })).totalExpenses).toBe(1500);
      const ended = expensesOf(await user.put(withId(EXPENSES_PATHS.one, id), { ...rent, endDate: '2026-11-01' }));
      expect(ended).toEqual({ expenses: [{ id, ...monthly(rent), endDate: '2026-11-01' }], totalExpenses: 0 });
    });
  });

  describe('every frequency: monthly, weekly, every 2 weeks, every 3 months, yearly', () => {
    it.each(everyFrequency)('adds $label', async ({ sent, answer, total }) => {
      const user = newUser(test);
      const info = await addExpense(user, sent);
      expect(info).toEqual({ expenses: [{ id: expect.stringMatching(ROW_ID), ...answer }], totalExpenses: total });
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve))).toEqual(info);
    });

    it('names a missing Day or Start Date together with the other fields that need attention, storing nothing', async () => {
      const user = newUser(test);
      expectBadRequest(await user.post(EXPENSES_PATHS.add, { name: '', type: 'Bills', frequency: 'Y', amount: 0, endDate: null }), {
        name: 'Name is required.',
        startDate: 'Start Date is required for a yearly bill: it is the first due date.',
        amount: 'Amount must be greater than 0.',
      });
      expectBadRequest(await user.post(EXPENSES_PATHS.add, { name: 'Rent', type: '', amount: 1200 }), {
        type: 'Type is required.',
        day: 'Day is required.',
      });
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve))).toEqual({ expenses: [], totalExpenses: 0 });
    });

    it('changes one expense to each frequency in turn, and back to monthly with no start date', async () => {
      const user = newUser(test);
      const id = (await addExpense(user, phone)).expenses[0]?.id ?? '';
      for (const { sent, answer, total } of everyFrequency) {
        const info = expensesOf(await user.put(withId(EXPENSES_PATHS.one, id), sent));
        expect(info).toEqual({ expenses: [{ id, ...answer }], totalExpenses: total });
        expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve))).toEqual(info);
      }
      const back = expensesOf(await user.put(withId(EXPENSES_PATHS.one, id), phone));
      expect(back).toEqual({ expenses: [{ id, ...monthly(phone) }], totalExpenses: 45.99 });
    });

    it('totals the monthly equivalents of the bills that have not ended, and lists them by day', async () => {
      const user = newUser(test);
      for (const { sent } of everyFrequency.slice(0, 6)) await addExpense(user, sent);
      await addExpense(user, {
        name: 'Ended yearly',
        type: 'Club',
        frequency: 'Y',
        startDate: '2025-03-02',
        amount: 999,
        endDate: '2026-11-20',
      });
      const info = await addExpense(user, {
        name: 'Ends today',
        type: 'Club',
        frequency: 'Q',
        startDate: '2026-08-21',
        amount: 30,
        endDate: '2026-11-21',
      });
      // 1500 + 1500 + 86.67 + 162.50 + 33.33 + 100 + 10 (ends today); the ended one is left out.
      expect(info.totalExpenses).toBe(3392.5);
      expect(info.expenses.map(({ day, name, frequency }) => `${day} ${name} ${frequency}`)).toEqual([
        '1 Rent M',
        '1 Rent M',
        '2 Ended yearly Y',
        '21 Ends today Q',
        '23 Lunch W',
        '27 Cleaner BW',
        '29 Registration Y',
        '31 Insurance Q',
      ]);
    });

    it('rounds each bill half-up on its own, then sums the cents', async () => {
      const user = newUser(test);
      const bill = (frequency: string, amount: number) => ({
        name: `${frequency} ${amount}`,
        type: 'Test',
        frequency,
        startDate: '2026-12-05',
        amount,
      });
      // 1 cent every 3 months is 0.33 cents a month: 0.
      expect((await addExpense(user, bill('Q', 0.01))).totalExpenses).toBe(0);
      // Two of them are still 0, not the 0.67 (1) their unrounded sum would give.
      expect((await addExpense(user, { ...bill('Q', 0.01), name: 'Q again' })).totalExpenses).toBe(0);
      // 2 cents every 3 months is 0.67 cents: 1.
      expect((await addExpense(user, bill('Q', 0.02))).totalExpenses).toBe(0.01);
      // 6 cents a year is exactly half a cent a month: up to 1. 5 cents a year is 0.42: 0.
      expect((await addExpense(user, bill('Y', 0.06))).totalExpenses).toBe(0.02);
      expect((await addExpense(user, bill('Y', 0.05))).totalExpenses).toBe(0.02);
      // 3 cents every 2 weeks is 6.5 cents: 7. 1 cent weekly is 4.33 cents: 4.
      expect((await addExpense(user, bill('BW', 0.03))).totalExpenses).toBe(0.09);
      expect((await addExpense(user, bill('W', 0.01))).totalExpenses).toBe(0.13);
    });
  });

  describe('client-sent ids and owners are not trusted', () => {
    it('ignores an id and owner in an added expense', async () => {
      const alice = newUser(test);
      const bob = newUser(test);
      const info = await addExpense(alice, {
        ...rent,
        id: 'chosen-by-client',
        owner_iss: 'https://evil.example',
        owner_sub: 'bob',
        created_at: '1999-01-01',
      });
      expect(info.expenses).toEqual([{ id: expect.stringMatching(ROW_ID), ...monthly(rent) }]);
      expect(expensesOf(await bob.get(EXPENSES_PATHS.retrieve)).expenses).toEqual([]);
      expectNotFound(await alice.delete(withId(EXPENSES_PATHS.one, 'chosen-by-client')));
    });

    it('changes the expense named by the address, not by an id in the body', async () => {
      const user = newUser(test);
      const first = (await addExpense(user, rent)).expenses[0]?.id ?? '';
      const second = (await addExpense(user, phone)).expenses.find((expense) => expense.id !== first)?.id ?? '';
      const info = expensesOf(await user.put(withId(EXPENSES_PATHS.one, first), { ...rent, name: 'Renamed', id: second }));
      expect(info.expenses).toEqual([
        { id: first, ...monthly(rent), name: 'Renamed' },
        { id: second, ...monthly(phone) },
      ]);
    });
  });

  describe('refused input stores nothing', () => {
    it.each(badExpenses)('refuses $label when adding', async ({ change, field, message }) => {
      const user = newUser(test);
      expectBadRequest(await user.post(EXPENSES_PATHS.add, { ...phone, ...change }), { [field]: message });
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve))).toEqual({ expenses: [], totalExpenses: 0 });
    });

    it.each(badExpenses)('refuses $label when changing, and keeps the expense as it was', async ({ change, field, message }) => {
      const user = newUser(test);
      const before = await addExpense(user, phone);
      const id = before.expenses[0]?.id ?? '';
      expectBadRequest(await user.put(withId(EXPENSES_PATHS.one, id), { ...phone, ...change }), { [field]: message });
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve))).toEqual(before);
    });

    it('refuses an amount that parses as Infinity (1e400)', async () => {
      const user = newUser(test);
      const raw = JSON.stringify({ ...rent, amount: 1 }).replace('"amount":1', '"amount":1e400');
      expectBadRequest(await user.post(EXPENSES_PATHS.add, raw), { amount: AMOUNT_NOT_NUMBER });
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve)).expenses).toEqual([]);
    });

    it('names every bad field at once', async () => {
      const user = newUser(test);
      const response = await user.post(EXPENSES_PATHS.add, {
        name: '',
        type: 'x'.repeat(51),
        day: 0,
        amount: 1.001,
        endDate: '2026-13-01',
      });
      expectBadRequest(response, {
        name: 'Name is required.',
        type: 'Type must be at most 50 characters.',
        day: DAY,
        amount: AMOUNT_DECIMALS,
        endDate: END_DATE_NOT_REAL,
      });
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve)).expenses).toEqual([]);
    });

    it.each(badBodies)('refuses a body that is $label', async ({ payload, message }) => {
      const user = newUser(test);
      const response = await user.post(EXPENSES_PATHS.add, payload);
      expect(response.statusCode, response.body).toBe(400);
      const body = errorBodySchema.parse(response.json());
      expect(body.error).toMatchObject({ code: 'bad_request', message, fields: { body: expect.any(String) } });
      expect(Object.keys(body.error.fields ?? {})).toEqual(['body']);
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve)).expenses).toEqual([]);
    });

    it('refuses a request with no body at all, adding or changing', async () => {
      const user = newUser(test);
      const added = await user.post(EXPENSES_PATHS.add);
      expect(added.statusCode, added.body).toBe(400);
      expect(errorBodySchema.parse(added.json()).error).toMatchObject({
        code: 'bad_request',
        message: FIELDS_MESSAGE,
        fields: { body: expect.any(String) },
      });
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve)).expenses).toEqual([]);

      const before = await addExpense(user, rent);
      const changed = await user.put(withId(EXPENSES_PATHS.one, before.expenses[0]?.id ?? ''));
      expect(changed.statusCode, changed.body).toBe(400);
      expect(errorBodySchema.parse(changed.json()).error.fields).toEqual({ body: expect.any(String) });
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve))).toEqual(before);
    });

    // PostgreSQL text cannot hold U+0000: the contract refuses control characters before storage.
    it('refuses a name, type or id containing U+0000 with 400 on both databases', async () => {
      const user = newUser(test);
      for (const field of ['name', 'type'] as const) {
        const response = await user.post(EXPENSES_PATHS.add, { ...rent, [field]: 'Ho\u0000me' });
        expect(response.statusCode, response.body).toBe(400);
        expect(errorBodySchema.parse(response.json()).error.fields).toEqual({
          [field]: `${field === 'name' ? 'Name' : 'Type'} must not contain control characters.`,
        });
      }
      const before = await addExpense(user, rent);
      const put = await user.put('/api/expenses/%00', rent);
      expect(put.statusCode, put.body).toBe(400);
      expect(errorBodySchema.parse(put.json()).error.fields).toEqual({ id: 'Id is not valid.' });
      expect((await user.delete('/api/expenses/%00')).statusCode).toBe(400);
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve))).toEqual(before);
    });
  });

  describe('one user cannot reach another user’s expenses', () => {
    it('answers 404 to changing or removing an unknown id', async () => {
      const user = newUser(test);
      const before = await addExpense(user, rent);
      expectNotFound(await user.put(withId(EXPENSES_PATHS.one, crypto.randomUUID()), phone));
      expectNotFound(await user.delete(withId(EXPENSES_PATHS.one, crypto.randomUUID())));
      expect(expensesOf(await user.get(EXPENSES_PATHS.retrieve))).toEqual(before);
    });

    it('hides, and refuses to change or remove, the expenses of someone else', async () => {
      const alice = newUser(test);
      const bob = newUser(test);
      const aliceInfo = await addExpense(alice, rent);
      const aliceId = aliceInfo.expenses[0]?.id ?? '';
      await addExpense(bob, phone);

      const bobInfo = expensesOf(await bob.get(EXPENSES_PATHS.retrieve));
      expect(bobInfo).toEqual({ expenses: [{ id: expect.stringMatching(ROW_ID), ...monthly(phone) }], totalExpenses: 45.99 });

      expectNotFound(await bob.put(withId(EXPENSES_PATHS.one, aliceId), { ...rent, name: 'Stolen', amount: 1 }));
      expectNotFound(await bob.delete(withId(EXPENSES_PATHS.one, aliceId)));

      expect(expensesOf(await alice.get(EXPENSES_PATHS.retrieve))).toEqual(aliceInfo);
      expect(expensesOf(await bob.get(EXPENSES_PATHS.retrieve))).toEqual(bobInfo);
    });
  });
});

describe.each(databaseKinds())('expense totals follow the app clock on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    // Just after midnight on Sunday 2026-11-22: yesterday's end date has now passed.
    test = await startTestApp(kind, { now: () => new Date(2026, 10, 22, 0, 30, 0) });
  });
  afterAll(() => test.close());

  it('leaves out an expense that ended yesterday by the app clock', async () => {
    const user = newUser(test);
    await addExpense(user, { ...rent, name: 'Ended yesterday', endDate: '2026-11-21' });
    const info = await addExpense(user, { ...rent, name: 'Ends today', amount: 20, endDate: '2026-11-22' });
    expect(info.totalExpenses).toBe(20);
  });
});
