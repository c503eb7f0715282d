/**
 * Deposits over HTTP on a real database: exact answers, every refused input (and that it stored
 * nothing), and that one user can never see or touch another user's deposits.
 */
import { withId } from '../../src/contract/common.js';
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPOSITS_PATHS, type DepositsInfo, depositsInfoSchema } from '../../src/contract/deposits.js';
import { errorBodySchema } from '../../src/contract/errors.js';
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

// 2026-11-20 is the Friday before the tests' fixed today (Saturday 2026-11-21).
const paycheck = {
  name: 'Paycheck',
  type: 'Direct Deposit',
  day: 'Friday',
  amount: 1000,
  startDate: '2026-11-20',
  frequency: 'BW',
} as const;
const sideJob = { name: 'Side job', type: 'Check', day: 'N/A', amount: 250, startDate: '2026-10-31', frequency: 'EOM' } as const;

/**
 * One deposit of each frequency (issue 12) and its monthly equivalent, rounded half-up to the cent:
 * weekly x 52 / 12, bi-weekly x 26 / 12, twice a month x 2, monthly and end of month x 1. A weekly or
 * bi-weekly deposit's day is its start date's weekday (2026-11-16 is a Monday); the others' is N/A.
 */
const everyFrequency = [
  {
    deposit: { name: 'Wages', type: 'Direct Deposit', day: 'Monday', amount: 612.34, startDate: '2026-11-16', frequency: 'W' },
    // 61,234 cents x 52 / 12 = 265,347.33 cents.
    monthly: 2653.47,
  },
  // 100,000 cents x 26 / 12 = 216,666.67 cents.
  { deposit: paycheck, monthly: 2166.67 },
  {
    deposit: { name: 'Salary', type: 'Direct Deposit', day: 'N/A', amount: 1200.5, startDate: '2026-11-15', frequency: 'SM' },
    monthly: 2401,
  },
  { deposit: { name: 'Lodger', type: 'Check', day: 'N/A', amount: 3000, startDate: '2026-11-10', frequency: 'M' }, monthly: 3000 },
  { deposit: { ...sideJob, amount: 250.1 }, monthly: 250.1 },
] as const;

function depositsOf(response: LightMyRequestResponse): DepositsInfo {
  expect(response.statusCode, response.body).toBe(200);
  return depositsInfoSchema.parse(response.json());
}

function expectNotFound(response: LightMyRequestResponse): void {
  expectNotFoundAs(response, 'That deposit does not exist.');
}

function newSubject(): string {
  return newSubjectFor('deposit-user');
}

function newUser(test: TestApp): UserClient {
  return test.as(newSubject());
}

async function addDeposit(user: UserClient, deposit: object): Promise<DepositsInfo> {
  return depositsOf(await user.post(DEPOSITS_PATHS.add, deposit));
}

const {
  notNumber: AMOUNT_NOT_NUMBER,
  notPositive: AMOUNT_NOT_POSITIVE,
  tooLarge: AMOUNT_TOO_LARGE,
  decimals: AMOUNT_DECIMALS,
} = AMOUNT_MESSAGES;
const BAD_DATE = 'Start Date must be a real date (YYYY-MM-DD).';
const BAD_DAY = 'Day must be a weekday (Monday to Sunday) or N/A.';
const BAD_FREQUENCY = 'Frequency must be W (weekly), BW (bi-weekly), SM (twice a month), M (monthly) or EOM (end of month).';
const BW_FRIDAY = 'Day must be Friday: a bi-weekly deposit is paid on the weekday of its start date (2026-11-20).';
const W_FRIDAY = 'Day must be Friday: a weekly deposit is paid on the weekday of its start date (2026-11-20).';

/** One change to a valid deposit and the one field message it must produce. */
const badDeposits: { label: string; change: Record<string, unknown>; field: string; message: string }[] = [
  { label: 'an unknown type', change: { type: 'Cash' }, field: 'type', message: 'Type must be Direct Deposit or Check.' },
  { label: 'a type in the wrong case', change: { type: 'check' }, field: 'type', message: 'Type must be Direct Deposit or Check.' },
  { label: 'an unknown day', change: { day: 'Funday' }, field: 'day', message: BAD_DAY },
  {
    label: 'an unknown frequency',
    change: { frequency: 'WEEKLY' },
    field: 'frequency',
    message: BAD_FREQUENCY,
  },
  {
    label: 'a missing frequency',
    change: { frequency: undefined },
    field: 'frequency',
    message: BAD_FREQUENCY,
  },
  { label: 'a bi-weekly day that is not the start date weekday', change: { day: 'Monday' }, field: 'day', message: BW_FRIDAY },
  { label: 'a bi-weekly deposit with day N/A', change: { day: 'N/A' }, field: 'day', message: BW_FRIDAY },
  { label: 'a weekly day that is not the start date weekday', change: { frequency: 'W', day: 'Monday' }, field: 'day', message: W_FRIDAY },
  { label: 'a weekly deposit with day N/A', change: { frequency: 'W', day: 'N/A' }, field: 'day', message: W_FRIDAY },
  {
    label: 'a weekly deposit on a Saturday start date with day Friday',
    change: { frequency: 'W', startDate: '2026-11-21', day: 'Friday' },
    field: 'day',
    message: 'Day must be Saturday: a weekly deposit is paid on the weekday of its start date (2026-11-21).',
  },
  // Friday is the start date's weekday, and still not a day these deposits are paid on.
  {
    label: 'a twice-a-month deposit with a weekday',
    change: { frequency: 'SM', day: 'Friday' },
    field: 'day',
    message: 'Day must be N/A for a twice-a-month deposit.',
  },
  {
    label: 'a monthly deposit with a weekday',
    change: { frequency: 'M', day: 'Friday' },
    field: 'day',
    message: 'Day must be N/A for a monthly deposit.',
  },
  { label: 'an expense frequency (Q)', change: { frequency: 'Q', day: 'N/A' }, field: 'frequency', message: BAD_FREQUENCY },
  { label: 'a frequency in the wrong case', change: { frequency: 'sm', day: 'N/A' }, field: 'frequency', message: BAD_FREQUENCY },
  { label: 'a frequency with a trailing space', change: { frequency: 'W ' }, field: 'frequency', message: BAD_FREQUENCY },
  { label: 'a null frequency', change: { frequency: null }, field: 'frequency', message: BAD_FREQUENCY },
  {
    label: 'an end-of-month deposit with a weekday',
    change: { frequency: 'EOM', day: 'Friday' },
    field: 'day',
    message: 'Day must be N/A for an end-of-month deposit.',
  },
  { label: 'amount 0', change: { amount: 0 }, field: 'amount', message: AMOUNT_NOT_POSITIVE },
  { label: 'a negative amount', change: { amount: -5 }, field: 'amount', message: AMOUNT_NOT_POSITIVE },
  { label: 'an amount with three decimals', change: { amount: 1.234 }, field: 'amount', message: AMOUNT_DECIMALS },
  { label: 'an amount over the limit', change: { amount: 100_000_000 }, field: 'amount', message: AMOUNT_TOO_LARGE },
  { label: 'an amount one cent over the limit', change: { amount: 100_000_000.0 + 0.01 }, field: 'amount', message: AMOUNT_TOO_LARGE },
  { label: 'an amount sent as a string', change: { amount: '12' }, field: 'amount', message: AMOUNT_NOT_NUMBER },
  { label: 'an amount sent as "NaN"', change: { amount: 'NaN' }, field: 'amount', message: AMOUNT_NOT_NUMBER },
  { label: 'a null amount', change: { amount: null }, field: 'amount', message: AMOUNT_NOT_NUMBER },
  { label: 'a missing amount', change: { amount: undefined }, field: 'amount', message: 'Amount is required.' },
  {
    label: 'a start date that is a number',
    change: { startDate: 20261120 },
    field: 'startDate',
    message: 'Start Date must be a date (YYYY-MM-DD).',
  },
  { label: 'an empty name', change: { name: '' }, field: 'name', message: 'Name is required.' },
  { label: 'a name of only spaces', change: { name: '   ' }, field: 'name', message: 'Name is required.' },
  { label: 'a 101-character name', change: { name: 'x'.repeat(101) }, field: 'name', message: 'Name must be at most 100 characters.' },
  { label: 'a name that is not text', change: { name: 42 }, field: 'name', message: 'Name is required.' },
];

/** Start dates that are text but not a real date: only the start date is named as the problem. */
const badStartDates = ['2026-02-30', '11/20/2026', '2026-11-20T00:00:00Z', ''];

/** Bodies that are not a deposit object at all: raw strings go out as sent, anything else as JSON. */
const badBodies: { label: string; payload: unknown; message: string; field?: string }[] = [
  { label: 'an array', payload: [paycheck], message: FIELDS_MESSAGE },
  { label: 'a JSON string', payload: '"Paycheck"', message: FIELDS_MESSAGE },
  { label: 'a JSON number', payload: '1000', message: FIELDS_MESSAGE },
  { label: 'null', payload: null, message: FIELDS_MESSAGE },
  {
    label: 'malformed JSON',
    payload: '{bad',
    message: 'The request body is not valid JSON.',
    field: 'The request body is not valid JSON.',
  },
  {
    label: 'NaN, which JSON cannot carry',
    payload: '{"name":"Paycheck","type":"Check","day":"N/A","amount":NaN,"startDate":"2026-10-31","frequency":"EOM"}',
    message: 'The request body is not valid JSON.',
    field: 'The request body is not valid JSON.',
  },
];

describe.each(databaseKinds())('deposits on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test.close());

  describe('happy paths', () => {
    it('answers an empty list and a zero total for a new user', async () => {
      expect(depositsOf(await newUser(test).get(DEPOSITS_PATHS.retrieve))).toEqual({ deposits: [], totalDeposits: 0 });
    });

    it('adds a bi-weekly deposit and counts it as amount x 26 / 12 a month', async () => {
      const user = newUser(test);
      const info = await addDeposit(user, paycheck);
      expect(info).toEqual({ deposits: [{ id: expect.stringMatching(ROW_ID), ...paycheck }], totalDeposits: 2166.67 });
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve))).toEqual(info);
    });

    it('rounds the bi-weekly monthly equivalent half-up to the cent', async () => {
      const user = newUser(test);
      // 3 cents x 26 / 12 = 6.5 cents, which rounds up to 7.
      expect((await addDeposit(user, { ...paycheck, amount: 0.03 })).totalDeposits).toBe(0.07);
      // 1 cent x 26 / 12 = 2.1666... cents, which rounds down to 2; the sum is rounded per deposit.
      expect((await addDeposit(user, { ...paycheck, amount: 0.01 })).totalDeposits).toBe(0.09);
    });

    it('counts an end-of-month deposit at its amount and sums in exact cents', async () => {
      const user = newUser(test);
      await addDeposit(user, sideJob);
      await addDeposit(user, { ...sideJob, name: 'Tips', amount: 0.1 });
      const info = await addDeposit(user, { ...sideJob, name: 'More tips', amount: 0.2 });
      expect(info.totalDeposits).toBe(250.3);
      expect(info.deposits.map((deposit) => deposit.amount)).toEqual([0.2, 250, 0.1]);
    });

    it('adds two end-of-month deposits and a bi-weekly one: the total is exact', async () => {
      const user = newUser(test);
      await addDeposit(user, sideJob);
      await addDeposit(user, { ...sideJob, name: 'Rent from lodger', amount: 400.55 });
      const info = await addDeposit(user, paycheck);
      expect(info.totalDeposits).toBe(2817.22);
      expect(info.deposits).toHaveLength(3);
    });

    it('trims the name and keeps the boundaries: 100 characters, one cent, the largest amount', async () => {
      const user = newUser(test);
      const longName = 'n'.repeat(100);
      await addDeposit(user, { ...sideJob, name: `  ${longName}  `, amount: 0.01 });
      const info = await addDeposit(user, { ...sideJob, name: 'Lottery', amount: 99_999_999.99 });
      expect(info.deposits.map(({ name, amount }) => ({ name, amount }))).toEqual([
        { name: 'Lottery', amount: 99_999_999.99 },
        { name: longName, amount: 0.01 },
      ]);
      expect(info.totalDeposits).toBe(100_000_000);
    });

    it('answers deposits by start date, then name (letter case aside)', async () => {
      const user = newUser(test);
      await addDeposit(user, { ...paycheck, name: 'Alpha', startDate: '2026-12-04' });
      await addDeposit(user, { ...paycheck, name: 'Zed' });
      await addDeposit(user, { ...paycheck, name: 'beta' });
      await addDeposit(user, { ...sideJob, name: 'Zulu', startDate: '2026-01-31' });
      const info = depositsOf(await user.get(DEPOSITS_PATHS.retrieve));
      expect(info.deposits.map((deposit) => `${deposit.startDate} ${deposit.name}`)).toEqual([
        '2026-01-31 Zulu',
        '2026-11-20 beta',
        '2026-11-20 Zed',
        '2026-12-04 Alpha',
      ]);
    });

    it('changes a deposit in place: same id, new values, new total', async () => {
      const user = newUser(test);
      const added = await addDeposit(user, paycheck);
      await addDeposit(user, sideJob);
      const id = added.deposits[0]?.id ?? '';
      const changed = { name: 'Salary', type: 'Check', day: 'N/A', amount: 3000, startDate: '2026-11-30', frequency: 'EOM' } as const;
      const info = depositsOf(await user.put(withId(DEPOSITS_PATHS.one, id), changed));
      expect(info.deposits).toEqual([expect.objectContaining({ name: 'Side job' }), { id, ...changed }]);
      expect(info.totalDeposits).toBe(3250);
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve))).toEqual(info);
    });

    it('removes a deposit and answers what is left', async () => {
      const user = newUser(test);
      const first = await addDeposit(user, paycheck);
      const both = await addDeposit(user, sideJob);
      const paycheckId = first.deposits[0]?.id ?? '';
      const info = depositsOf(await user.delete(withId(DEPOSITS_PATHS.one, paycheckId)));
      expect(info).toEqual({ deposits: both.deposits.filter((deposit) => deposit.id !== paycheckId), totalDeposits: 250 });
      expectNotFound(await user.delete(withId(DEPOSITS_PATHS.one, paycheckId)));
    });
  });

  describe('every frequency: weekly, bi-weekly, twice a month, monthly, end of month', () => {
    it.each(everyFrequency)('adds a $deposit.frequency deposit paid on $deposit.day, $monthly a month', async ({ deposit, monthly }) => {
      const user = newUser(test);
      const info = await addDeposit(user, deposit);
      expect(info).toEqual({ deposits: [{ id: expect.stringMatching(ROW_ID), ...deposit }], totalDeposits: monthly });
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve))).toEqual(info);
    });

    it('adds a weekly deposit whose start date is a Saturday: its day is Saturday', async () => {
      const user = newUser(test);
      const shifts = { name: 'Shifts', type: 'Check', day: 'Saturday', amount: 120, startDate: '2026-11-21', frequency: 'W' } as const;
      // 12,000 cents x 52 / 12 = 52,000 cents.
      expect(await addDeposit(user, shifts)).toEqual({ deposits: [{ id: expect.stringMatching(ROW_ID), ...shifts }], totalDeposits: 520 });
    });

    it('totals one deposit of each frequency exactly', async () => {
      const user = newUser(test);
      for (const { deposit } of everyFrequency) await addDeposit(user, deposit);
      const info = depositsOf(await user.get(DEPOSITS_PATHS.retrieve));
      // 2653.47 + 2166.67 + 2401 + 3000 + 250.10
      expect(info.totalDeposits).toBe(10471.24);
      expect(info.deposits.map(({ name, frequency }) => `${name} ${frequency}`)).toEqual([
        'Side job EOM',
        'Lodger M',
        'Salary SM',
        'Wages W',
        'Paycheck BW',
      ]);
    });

    it('rounds each deposit half-up on its own, then sums the cents', async () => {
      const user = newUser(test);
      const cent = (frequency: string, amount = 0.01) => ({
        name: `${frequency} ${amount}`,
        type: 'Check',
        day: frequency === 'W' ? 'Friday' : 'N/A',
        amount,
        startDate: '2026-11-20',
        frequency,
      });
      // 1 cent weekly is 4.33 cents a month: 4.
      expect((await addDeposit(user, cent('W'))).totalDeposits).toBe(0.04);
      // Two of them are 8, not the 8.67 (9) their unrounded sum would give.
      expect((await addDeposit(user, { ...cent('W'), name: 'W again' })).totalDeposits).toBe(0.08);
      // 2 cents weekly is 8.67 cents: 9.
      expect((await addDeposit(user, cent('W', 0.02))).totalDeposits).toBe(0.17);
      // 1 cent twice a month is 2; monthly and end of month 1 each.
      expect((await addDeposit(user, cent('SM'))).totalDeposits).toBe(0.19);
      expect((await addDeposit(user, cent('M'))).totalDeposits).toBe(0.2);
      expect((await addDeposit(user, cent('EOM'))).totalDeposits).toBe(0.21);
    });

    it('changes one deposit to each frequency in turn: same id, new values, new total', async () => {
      const user = newUser(test);
      const id = (await addDeposit(user, sideJob)).deposits[0]?.id ?? '';
      for (const { deposit, monthly } of everyFrequency) {
        const info = depositsOf(await user.put(withId(DEPOSITS_PATHS.one, id), deposit));
        expect(info).toEqual({ deposits: [{ id, ...deposit }], totalDeposits: monthly });
        expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve))).toEqual(info);
      }
    });
  });

  describe('client-sent ids and owners are not trusted', () => {
    it('ignores an id and owner in an added deposit', async () => {
      const alice = newUser(test);
      const bob = newUser(test);
      const info = await addDeposit(alice, {
        ...paycheck,
        id: 'chosen-by-client',
        owner_iss: 'https://evil.example',
        owner_sub: 'bob',
        ownerSub: 'bob',
      });
      expect(info.deposits).toEqual([{ id: expect.stringMatching(ROW_ID), ...paycheck }]);
      expect(depositsOf(await bob.get(DEPOSITS_PATHS.retrieve)).deposits).toEqual([]);
      expectNotFound(await alice.delete(withId(DEPOSITS_PATHS.one, 'chosen-by-client')));
    });

    it('changes the deposit named by the address, not by an id in the body', async () => {
      const user = newUser(test);
      const first = (await addDeposit(user, paycheck)).deposits[0]?.id ?? '';
      const second = (await addDeposit(user, sideJob)).deposits.find((deposit) => deposit.id !== first)?.id ?? '';
      const info = depositsOf(await user.put(withId(DEPOSITS_PATHS.one, first), { ...paycheck, name: 'Renamed', id: second }));
      expect(info.deposits).toEqual([
        { id: second, ...sideJob },
        { id: first, ...paycheck, name: 'Renamed' },
      ]);
    });
  });

  describe('refused input stores nothing', () => {
    it.each(badDeposits)('refuses $label when adding', async ({ change, field, message }) => {
      const user = newUser(test);
      expectBadRequest(await user.post(DEPOSITS_PATHS.add, { ...paycheck, ...change }), { [field]: message });
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve))).toEqual({ deposits: [], totalDeposits: 0 });
    });

    it.each(badDeposits)('refuses $label when changing, and keeps the deposit as it was', async ({ change, field, message }) => {
      const user = newUser(test);
      const before = await addDeposit(user, paycheck);
      const id = before.deposits[0]?.id ?? '';
      expectBadRequest(await user.put(withId(DEPOSITS_PATHS.one, id), { ...paycheck, ...change }), { [field]: message });
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve))).toEqual(before);
    });

    it.each(badStartDates)('refuses the start date %j, adding or changing, and stores nothing', async (startDate) => {
      const user = newUser(test);
      for (const frequency of ['BW', 'EOM'] as const) {
        const response = await user.post(DEPOSITS_PATHS.add, {
          ...paycheck,
          frequency,
          day: frequency === 'BW' ? 'Friday' : 'N/A',
          startDate,
        });
        expect(response.statusCode, response.body).toBe(400);
        expect(errorBodySchema.parse(response.json()).error).toMatchObject({
          code: 'bad_request',
          message: FIELDS_MESSAGE,
          fields: { startDate: BAD_DATE },
        });
      }
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve)).deposits).toEqual([]);
      const before = await addDeposit(user, paycheck);
      const response = await user.put(withId(DEPOSITS_PATHS.one, before.deposits[0]?.id ?? ''), { ...paycheck, startDate });
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBodySchema.parse(response.json()).error.fields).toMatchObject({ startDate: BAD_DATE });
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve))).toEqual(before);
    });

    it.each(badStartDates)(
      'answers only the start date problem for a bi-weekly start date %j, not a made-up day one',
      async (startDate) => {
        const user = newUser(test);
        const response = await user.post(DEPOSITS_PATHS.add, { ...paycheck, frequency: 'BW', day: 'Friday', startDate });
        expect(response.statusCode, response.body).toBe(400);
        expect(errorBodySchema.parse(response.json()).error.fields).toEqual({ startDate: BAD_DATE });
      },
    );

    it('refuses an amount too large for a double to hold exactly (1e400 parses as Infinity)', async () => {
      const user = newUser(test);
      const raw = JSON.stringify({ ...sideJob, amount: 1 }).replace('"amount":1', '"amount":1e400');
      expectBadRequest(await user.post(DEPOSITS_PATHS.add, raw), { amount: AMOUNT_NOT_NUMBER });
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve)).deposits).toEqual([]);
    });

    it('names every bad field at once', async () => {
      const user = newUser(test);
      const response = await user.post(DEPOSITS_PATHS.add, {
        name: ' ',
        type: 'Cash',
        day: 'Friday',
        amount: 0,
        startDate: '2026-13-01',
        frequency: 'BW',
      });
      expectBadRequest(response, {
        name: 'Name is required.',
        type: 'Type must be Direct Deposit or Check.',
        amount: AMOUNT_NOT_POSITIVE,
        startDate: BAD_DATE,
      });
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve)).deposits).toEqual([]);
    });

    it.each(badBodies)('refuses a body that is $label', async ({ payload, message, field }) => {
      const user = newUser(test);
      const response = await user.post(DEPOSITS_PATHS.add, payload);
      expect(response.statusCode, response.body).toBe(400);
      const body = errorBodySchema.parse(response.json());
      expect(body.error.code).toBe('bad_request');
      expect(body.error.message).toBe(message);
      expect(Object.keys(body.error.fields ?? {})).toEqual(['body']);
      if (field) expect(body.error.fields?.body).toBe(field);
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve)).deposits).toEqual([]);
    });

    it('refuses a request with no body at all', async () => {
      const user = newUser(test);
      const response = await user.post(DEPOSITS_PATHS.add);
      expect(response.statusCode, response.body).toBe(400);
      const body = errorBodySchema.parse(response.json());
      expect(body.error).toMatchObject({ code: 'bad_request', message: FIELDS_MESSAGE, fields: { body: expect.any(String) } });
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve)).deposits).toEqual([]);
    });

    it('refuses a change with no body and keeps the deposit', async () => {
      const user = newUser(test);
      const before = await addDeposit(user, paycheck);
      const response = await user.put(withId(DEPOSITS_PATHS.one, before.deposits[0]?.id ?? ''));
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBodySchema.parse(response.json()).error.fields).toEqual({ body: expect.any(String) });
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve))).toEqual(before);
    });

    it('refuses a body that is not JSON: an unknown media type, or plain text', async () => {
      const subject = newSubject();
      const send = async (contentType: string, payload: string) =>
        test.app.inject({
          method: 'POST',
          url: DEPOSITS_PATHS.add,
          headers: { authorization: `Bearer ${await test.issuer.token(subject)}`, 'content-type': contentType },
          payload,
        });
      expectBadRequest(
        await send('application/xml', '<deposit/>'),
        { body: 'Send Content-Type: application/json.' },
        'The request body must be JSON.',
      );
      // Fastify parses text/plain itself, so the schema sees a string where an object belongs.
      const text = await send('text/plain', JSON.stringify(paycheck));
      expect(text.statusCode, text.body).toBe(400);
      expect(errorBodySchema.parse(text.json()).error).toMatchObject({ code: 'bad_request', fields: { body: expect.any(String) } });
      expect(depositsOf(await test.as(subject).get(DEPOSITS_PATHS.retrieve)).deposits).toEqual([]);
    });

    it('refuses a name with nothing visible, and keeps a visible one holding a bidi override (shown isolated)', async () => {
      const user = newUser(test);
      // Issue 22: a Braille blank and a Hangul filler beside a musical null notehead draw nothing either.
      for (const name of ['\u200b', '\u200b\u200c\u200d', '\u2060\ufeff', '\u202e', '\u00ad\u200b', '\u2800\u2800', '\u3164\u{1d159}']) {
        expectBadRequest(await user.post(DEPOSITS_PATHS.add, { ...paycheck, name }), { name: 'Name must contain a visible character.' });
      }
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve)).deposits).toEqual([]);
      const added = await addDeposit(user, { ...paycheck, name: '\u202eAcme' });
      expect(added.deposits.map((deposit) => deposit.name)).toEqual(['\u202eAcme']);
    });

    // PostgreSQL text cannot hold U+0000: the contract refuses control characters before storage.
    it('refuses a name or id containing U+0000 with 400 on both databases', async () => {
      const user = newUser(test);
      expectBadRequest(await user.post(DEPOSITS_PATHS.add, { ...paycheck, name: 'Pay\u0000check' }), {
        name: 'Name must not contain control characters.',
      });
      // A lone surrogate would be stored differently by each database.
      expectBadRequest(await user.post(DEPOSITS_PATHS.add, { ...paycheck, name: 'Pay\ud800check' }), { name: 'Name must be valid text.' });
      // A real emoji (a surrogate pair) is fine.
      expect((await user.post(DEPOSITS_PATHS.add, { ...paycheck, name: 'Pay 💵' })).statusCode).toBe(200);
      await user.delete(withId(DEPOSITS_PATHS.one, depositsOf(await user.get(DEPOSITS_PATHS.retrieve)).deposits[0]?.id ?? ''));
      const before = await addDeposit(user, paycheck);
      const put = await user.put('/api/deposits/%00', paycheck);
      expect(put.statusCode, put.body).toBe(400);
      expect(errorBodySchema.parse(put.json()).error.fields).toEqual({ id: 'Id is not valid.' });
      const remove = await user.delete('/api/deposits/%00');
      expect(remove.statusCode, remove.body).toBe(400);
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve))).toEqual(before);
    });
  });

  describe('one user cannot reach another user’s deposits', () => {
    it('answers 404 to changing or removing an unknown id', async () => {
      const user = newUser(test);
      const before = await addDeposit(user, paycheck);
      expectNotFound(await user.put(withId(DEPOSITS_PATHS.one, crypto.randomUUID()), sideJob));
      expectNotFound(await user.delete(withId(DEPOSITS_PATHS.one, crypto.randomUUID())));
      expect(depositsOf(await user.get(DEPOSITS_PATHS.retrieve))).toEqual(before);
    });

    it('answers 400 to an id longer than any id we hand out', async () => {
      const response = await newUser(test).delete(withId(DEPOSITS_PATHS.one, 'x'.repeat(65)));
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBodySchema.parse(response.json()).error).toMatchObject({ code: 'bad_request', fields: { id: expect.any(String) } });
    });

    it('hides, and refuses to change or remove, the deposits of someone else', async () => {
      const alice = newUser(test);
      const bob = newUser(test);
      const aliceInfo = await addDeposit(alice, paycheck);
      const aliceId = aliceInfo.deposits[0]?.id ?? '';
      await addDeposit(bob, sideJob);

      const bobInfo = depositsOf(await bob.get(DEPOSITS_PATHS.retrieve));
      expect(bobInfo.deposits.map((deposit) => deposit.name)).toEqual(['Side job']);
      expect(bobInfo.totalDeposits).toBe(250);

      expectNotFound(await bob.put(withId(DEPOSITS_PATHS.one, aliceId), { ...paycheck, name: 'Stolen', amount: 1 }));
      expectNotFound(await bob.delete(withId(DEPOSITS_PATHS.one, aliceId)));

      expect(depositsOf(await alice.get(DEPOSITS_PATHS.retrieve))).toEqual(aliceInfo);
      expect(depositsOf(await bob.get(DEPOSITS_PATHS.retrieve))).toEqual(bobInfo);
    });

    it('knows the user by the token subject: a new token for the same subject sees the same deposits', async () => {
      const subject = newSubject();
      await addDeposit(test.as(subject), paycheck);
      expect(depositsOf(await test.as(subject).get(DEPOSITS_PATHS.retrieve)).deposits).toHaveLength(1);
      expect(depositsOf(await test.as(`${subject}-other`).get(DEPOSITS_PATHS.retrieve)).deposits).toHaveLength(0);
    });
  });
});
