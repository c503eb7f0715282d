/**
 * Each user's own today (issue 26 item 1, decision 0047), on SQLite and (with TEST_POSTGRES_URL)
 * PostgreSQL. A server in UTC at one fixed instant, 2026-11-21 10:30 UTC: for a user in
 * Pacific/Kiritimati (UTC+14) it is already Sun, Nov 22 (00:30), for one in Pacific/Niue (UTC-11)
 * still Fri, Nov 20 (23:30). Both build the same ledger through the API; their answers differ
 * exactly where their today does: the forecast's today, lowest balance ahead, first day below zero
 * and upcoming rows, the expense total, and which rows a schedule change re-projects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { type Forecast, forecastSchema, LEDGER_PATHS } from '../../src/contract/ledger.js';
import { NOTIFICATIONS_PATHS } from '../../src/contract/notifications.js';
import { expectBadRequest, newSubject } from '../support/api-expectations.js';
import { databaseKinds } from '../support/test-databases.js';
import { byName, depositInput, expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

const INSTANT = new Date('2026-11-21T10:30:00Z');

/** Paid every other Sunday from Nov 22: Nov 22, Dec 6, Dec 20. */
const PAYCHECK = { name: 'Acme', amount: 1000, startDate: '2026-11-22', frequency: 'BW' } as const;
const PHONE = { name: 'Phone', amount: 50, day: 20 };
const GYM = { name: 'Gym', amount: 300, day: 21 };
const RENT = { name: 'Rent', amount: 200, day: 22 };
/** Ended on Nov 21 (and never due in the ledger: day 25): in the monthly total only while Nov 21 is not past. */
const OLD_PLAN = { name: 'Old plan', amount: 10, day: 25, endDate: '2026-11-21' };

describe.each(databaseKinds())('each user’s own today on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind, { now: () => INSTANT, env: { TZ: 'UTC' } });
  });
  afterAll(() => test.close());

  /** A user in `zone` with the same schedules and a ledger of November and December, opening at $100. */
  async function userIn(zone: string): Promise<{ user: UserClient; gymId: string }> {
    const user = test.as(newSubject(zone.replace('/', '-')));
    expect(okJson(await user.patch(NOTIFICATIONS_PATHS.profile, { timeZone: zone }))).toMatchObject({ timeZone: zone });
    okJson(await user.post(DEPOSITS_PATHS.add, depositInput(PAYCHECK)));
    let gymId = '';
    for (const expense of [PHONE, GYM, RENT, OLD_PLAN]) {
      const { expenses } = expensesInfoSchema.parse(okJson(await user.post(EXPENSES_PATHS.add, expenseInput(expense))));
      if (expense === GYM) gymId = expenses.find((candidate) => candidate.name === 'Gym')?.id ?? '';
    }
    ledgerOf(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 100 } }));
    return { user, gymId };
  }

  async function forecastOf(user: UserClient): Promise<Forecast> {
    return forecastSchema.parse(okJson(await user.get(LEDGER_PATHS.forecast)));
  }

  it('answers the forecast, the upcoming rows and the expense total from each user’s own today', async () => {
    const east = await userIn('Pacific/Kiritimati');
    const west = await userIn('Pacific/Niue');
    const [eastForecast, westForecast] = [await forecastOf(east.user), await forecastOf(west.user)];

    // Nov 20: Phone takes $100 to $50; Nov 21: Gym to -$250; Nov 22: the paycheck to $750, Rent to $550.
    expect(westForecast.today).toBe('2026-11-20');
    expect(westForecast.lowest).toEqual({ date: '2026-11-21', name: 'Gym', balance: -250 });
    expect(westForecast.firstBelowZero).toEqual({ date: '2026-11-21', name: 'Gym', balance: -250 });
    expect(westForecast.upcoming.map((row) => `${row.date} ${row.name}`)).toEqual([
      '2026-11-20 Phone',
      '2026-11-21 Gym',
      '2026-11-22 Acme Paycheck',
      '2026-11-22 Rent',
    ]);

    expect(eastForecast.today).toBe('2026-11-22');
    expect(eastForecast.lowest).toEqual({ date: '2026-11-22', name: 'Rent', balance: 550 });
    expect(eastForecast.firstBelowZero).toBeNull();
    // Nov 22 to Dec 5: the next paycheck, on Dec 6, is a day past the 14.
    expect(eastForecast.upcoming.map((row) => `${row.date} ${row.name}`)).toEqual(['2026-11-22 Acme Paycheck', '2026-11-22 Rent']);

    // Everything that does not depend on today is the same for both.
    const withoutToday = ({ payPeriods, startDate, endDate, openingBalance, currentBalance, pendingBalance, chart }: Forecast) => ({
      payPeriods,
      startDate,
      endDate,
      openingBalance,
      currentBalance,
      pendingBalance,
      chart,
    });
    expect(withoutToday(eastForecast)).toEqual(withoutToday(westForecast));

    // "Old plan" ended on Nov 21: past in Kiritimati, today in Niue.
    const total = async (user: UserClient) => expensesInfoSchema.parse(okJson(await user.get(EXPENSES_PATHS.retrieve))).totalExpenses;
    expect(await total(west.user)).toBe(560);
    expect(await total(east.user)).toBe(550);
  });

  it('re-projects a changed schedule from each user’s own today: Nov 21 is past in Kiritimati, ahead in Niue', async () => {
    const east = await userIn('Pacific/Kiritimati');
    const west = await userIn('Pacific/Niue');
    for (const { user, gymId } of [east, west]) {
      okJson(await user.put(`/api/expenses/${gymId}`, expenseInput({ ...GYM, amount: 310 })));
    }
    const gymOf = async (user: UserClient, date: string) => byName(ledgerOf(await user.get(LEDGER_PATHS.retrieve)), 'Gym', date).amount;
    expect(await gymOf(west.user, '2026-11-21')).toBe(310);
    expect(await gymOf(east.user, '2026-11-21')).toBe(300);
    expect(await gymOf(west.user, '2026-12-21')).toBe(310);
    expect(await gymOf(east.user, '2026-12-21')).toBe(310);
  });

  it('answers the server’s zone (TZ) for a user without one, and stores one as the page does at sign-in', async () => {
    const user = test.as(newSubject('zone'));
    expect(okJson(await user.get(NOTIFICATIONS_PATHS.profile))).toMatchObject({ timeZone: 'UTC' });
    // The page sends the browser's zone with onlyIfUnset: the first is stored, a later one never overwrites it.
    expect(okJson(await user.patch(NOTIFICATIONS_PATHS.profile, { timeZone: 'US/Pacific', onlyIfUnset: true }))).toMatchObject({
      timeZone: 'US/Pacific',
    });
    expect(okJson(await user.patch(NOTIFICATIONS_PATHS.profile, { timeZone: 'Europe/Paris', onlyIfUnset: true }))).toMatchObject({
      timeZone: 'US/Pacific',
    });
    // A choice made in Settings does.
    expect(okJson(await user.patch(NOTIFICATIONS_PATHS.profile, { timeZone: 'Europe/Paris' }))).toMatchObject({ timeZone: 'Europe/Paris' });
    expect(okJson(await user.get(NOTIFICATIONS_PATHS.settings))).toMatchObject({ timeZone: 'Europe/Paris' });
  });

  it('stores and answers a zone as the user gave it: Europe/Kyiv stays Europe/Kyiv, Europe/Kiev stays Europe/Kiev (issue 34)', async () => {
    for (const zone of ['Europe/Kyiv', 'Europe/Kiev', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata']) {
      const user = test.as(newSubject('as-given'));
      expect(okJson(await user.patch(NOTIFICATIONS_PATHS.profile, { timeZone: zone }))).toMatchObject({ timeZone: zone });
      expect(okJson(await user.get(NOTIFICATIONS_PATHS.profile))).toMatchObject({ timeZone: zone });
      expect(okJson(await user.get(NOTIFICATIONS_PATHS.settings))).toMatchObject({ timeZone: zone });
    }
    // Only the case of a name is mended, to the zone's own spelling.
    const user = test.as(newSubject('case'));
    expect(okJson(await user.patch(NOTIFICATIONS_PATHS.profile, { timeZone: 'europe/paris' }))).toMatchObject({ timeZone: 'Europe/Paris' });
    // Kyiv's today is Kyiv's: 10:30 UTC on Nov 21 is 12:30 there.
    const kyiv = test.as(newSubject('kyiv-today'));
    okJson(await kyiv.patch(NOTIFICATIONS_PATHS.profile, { timeZone: 'Europe/Kyiv' }));
    ledgerOf(await kyiv.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 100 } }));
    expect((await forecastOf(kyiv)).today).toBe('2026-11-21');
  });

  it('refuses an unknown zone with a 400 naming timeZone, and changes nothing', async () => {
    const user = test.as(newSubject('bad-zone'));
    const message = 'Time zone must be an IANA time zone, like America/Los_Angeles.';
    for (const timeZone of ['Mars/Olympus_Mons', 'UTC+5', '', 'a'.repeat(300), 12]) {
      expectBadRequest(await user.patch(NOTIFICATIONS_PATHS.profile, { timeZone }), { timeZone: message });
    }
    expectBadRequest(await user.patch(NOTIFICATIONS_PATHS.profile, {}), { timeZone: 'Time zone is required.' });
    expect(okJson(await user.get(NOTIFICATIONS_PATHS.profile))).toMatchObject({ timeZone: 'UTC' });
  });
});
