/**
 * Everyday spending (issue 36 item 2) through the API, on SQLite and (with TEST_POSTGRES_URL)
 * PostgreSQL: the suggestion from the last 13 full weeks, the setting in /api/me, and a forecast
 * that counts it and, turned off, is byte for byte what it was. The app's clock is Saturday
 * 2026-11-21 (TEST_NOW): the last full week is Monday 2026-11-09 to Sunday 2026-11-15.
 */
import { describe, expect, it } from 'vitest';
import { accountForecastSchema, accountSchema, ACCOUNTS_PATHS } from '../../src/contract/accounts.js';
import { profileSchema } from '../../src/contract/app-config.js';
import { ENDPOINTS } from '../../src/contract/common.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { ledgerWindowSchema } from '../../src/contract/ledger-window.js';
import { TRANSFERS_PATHS } from '../../src/contract/transfers.js';
import { everydaySuggestionSchema, WHAT_IF_PATHS } from '../../src/contract/what-if.js';
import { addDays, isoDate } from '../../src/domain/calendar-date.js';
import { expectBadRequest, expectNotFound, inAccount, newSubject } from '../support/api-expectations.js';
import { expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, type UserClient } from '../support/test-app.js';

const getApp = appsOnEveryDatabase();
const PROFILE = ENDPOINTS.getProfile.path;
const FIRST_WEEK = isoDate('2026-08-17');
/** Each week's everything-else: the median is $99.00. */
const TOTALS = [100, 90, 110, 97.53, 105, 80, 120, 85, 115, 99, 92, 130, 70];

async function addCleared(user: UserClient, path: string, body: { date: string; name: string; type: 'D' | 'C'; amount: number }) {
  const ledger = ledgerOf(await user.post(path, body));
  const row = ledger.transactions.find((candidate) => candidate.date === body.date && candidate.name === body.name);
  if (!row) throw new Error(`no ${body.name} row`);
  okJson(await user.patch(path.replace('add-transaction', 'update-transaction'), { ...row, status: 'CLEARED' }));
}

const suggestionOf = async (user: UserClient, query = '') =>
  everydaySuggestionSchema.parse(okJson(await user.get(`${WHAT_IF_PATHS.everydaySuggestion}${query}`)));

describe.each(databaseKinds())('everyday spending on %s', (kind) => {
  it('suggests the median of the last 13 full weeks of everything else, exactly', async () => {
    const user = getApp(kind).as(newSubject('everyday-suggest'));
    okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Phone', amount: 45, day: 20 })));
    const created = ledgerOf(
      await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-08-01', endDate: '2026-12-31', currentBalance: 5000 } }),
    );
    const savings = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
    okJson(
      await user.post(inAccount(LEDGER_PATHS.create, savings.id), {
        ledger: { startDate: '2026-08-01', endDate: '2026-12-31', currentBalance: 0 },
      }),
    );
    for (const [week, total] of TOTALS.entries()) {
      await addCleared(user, LEDGER_PATHS.addTransaction, {
        date: addDays(FIRST_WEEK, 7 * week + 2),
        name: 'Market',
        type: 'D',
        amount: total,
      });
    }
    // Never counted: a schedule's rows (cleared), a transfer, a debit not cleared, a credit.
    for (const phone of created.transactions.filter((row) => row.name === 'Phone' && row.date < '2026-11-16')) {
      okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...phone, status: 'CLEARED' }));
    }
    const moved = ledgerOf(
      await user.post(TRANSFERS_PATHS.add, {
        fromAccountId: await primaryId(user),
        toAccountId: savings.id,
        date: '2026-10-07',
        amount: 500,
      }),
    );
    const side = moved.transactions.find((row) => row.transfer !== undefined);
    okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...side, status: 'CLEARED' }));
    okJson(await user.post(LEDGER_PATHS.addTransaction, { date: '2026-10-08', name: 'Later', type: 'D', amount: 700 }));
    await addCleared(user, LEDGER_PATHS.addTransaction, { date: '2026-10-09', name: 'Refund', type: 'C', amount: 60 });
    // This week is not over, and the week before the 13 is not one of them.
    await addCleared(user, LEDGER_PATHS.addTransaction, { date: '2026-11-17', name: 'Market', type: 'D', amount: 900 });
    await addCleared(user, LEDGER_PATHS.addTransaction, { date: '2026-08-16', name: 'Market', type: 'D', amount: 900 });

    const suggestion = await suggestionOf(user);
    expect(suggestion.weeks.map((week) => week.total)).toEqual(TOTALS);
    expect(suggestion.weeks.map((week) => week.startDate)).toEqual(TOTALS.map((_total, week) => addDays(FIRST_WEEK, 7 * week)));
    expect(suggestion.suggestion).toBe(99);
    expect(suggestion.accountId).toBe(await primaryId(user));
    expect(await suggestionOf(user, `?accountId=${savings.id}`)).toMatchObject({ accountId: savings.id, suggestion: 0 });
  });

  it('suggests nothing with fewer than 4 full weeks of history; another user’s account is 404', async () => {
    const user = getApp(kind).as(newSubject('everyday-short'));
    okJson(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-10-26', endDate: '2026-12-31', currentBalance: 100 } }));
    await addCleared(user, LEDGER_PATHS.addTransaction, { date: '2026-11-10', name: 'Market', type: 'D', amount: 40 });
    expect(await suggestionOf(user)).toMatchObject({ weeks: [{ total: 0 }, { total: 0 }, { total: 40 }], suggestion: null });
    const other = getApp(kind).as(newSubject('everyday-other'));
    expectNotFound(await other.get(`${WHAT_IF_PATHS.everydaySuggestion}?accountId=${await primaryId(user)}`), 'No such account.');
  });

  it('counts everyday spending in the forecast from tomorrow, and off gives back the forecast byte for byte', async () => {
    const user = getApp(kind).as(newSubject('everyday-forecast'));
    okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 300, day: 25 })));
    okJson(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-21', endDate: '2026-12-31', currentBalance: 1000 } }));
    const plain = await user.get(LEDGER_PATHS.forecast);
    expect(plain.statusCode).toBe(200);

    expectBadRequest(await user.patch(PROFILE, { everydaySpending: { weekly: 0 } }), {
      'everydaySpending.weekly': 'Everyday spending must be greater than 0.',
    });
    expectBadRequest(await user.patch(PROFILE, { everydaySpending: { weekly: 10, accountId: 'nobody' } }), {
      'everydaySpending.accountId': 'Account must be the id of one of your accounts.',
    });
    const profile = profileSchema.parse(okJson(await user.patch(PROFILE, { everydaySpending: { weekly: 70 } })));
    expect(profile.everydaySpending).toEqual({ weekly: 70, accountId: await primaryId(user) });

    const counted = accountForecastSchema.parse(okJson(await user.get(LEDGER_PATHS.forecast)));
    expect(counted.everyday).toEqual({ weekly: 70 });
    // $10.00 a day from tomorrow: $1,000.00 - $300.00 (Rent on the 25th) - $40.00 by the 25th.
    expect(counted.chart.find((point) => point.name === 'Rent' && point.date === '2026-11-25')?.balance).toBe(660);
    expect(counted.safeToSpend).toMatchObject({ untilReason: 'LEDGER_END', until: '2026-12-31', lowestDate: '2026-12-31' });
    // To the ledger's end: 40 days of $10.00 and two rents.
    expect(counted.safeToSpend?.amount).toBe(1000 - 600 - 400);
    expect(counted.lowest).toEqual({ date: '2026-12-31', name: 'Everyday spending', balance: 0 });
    expect(counted.payPeriods).toEqual([
      { startDate: '2026-11-21', endDate: '2026-12-31', income: 0, bills: 600, leftover: -600, lowest: 0, endBalance: 0, everyday: 400 },
    ]);

    okJson(await user.patch(PROFILE, { everydaySpending: null }));
    const off = await user.get(LEDGER_PATHS.forecast);
    expect(off.body).toBe(plain.body);
  });

  it("gives the Ledger view's warning before $0 and pay periods the forecast's numbers, and off the window it had", async () => {
    const user = getApp(kind).as(newSubject('everyday-window'));
    okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 300, day: 25 })));
    okJson(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-21', endDate: '2026-12-31', currentBalance: 400 } }));
    const windowPath = `${LEDGER_PATHS.retrieve}?limit=1`;
    const plainWindow = await user.get(windowPath);
    expect(ledgerWindowSchema.parse(okJson(plainWindow)).window.firstBelowZero).toEqual({
      date: '2026-12-25',
      name: 'Rent',
      balance: -200,
    });

    okJson(await user.patch(PROFILE, { everydaySpending: { weekly: 70 } }));
    const forecast = accountForecastSchema.parse(okJson(await user.get(LEDGER_PATHS.forecast)));
    const { window } = ledgerWindowSchema.parse(okJson(await user.get(windowPath)));
    // $10.00 a day from tomorrow: $100.00 after Rent on the 25th, $0.00 on Dec 1, -$10.00 on Dec 2, a day without a row.
    expect(forecast.firstBelowZero).toEqual({ date: '2026-12-02', name: 'Everyday spending', balance: -10 });
    expect(window.firstBelowZero).toEqual(forecast.firstBelowZero);
    expect(window.payPeriods).toEqual(forecast.payPeriods);
    expect(window.everyday).toEqual({ weekly: 70 });

    okJson(await user.patch(PROFILE, { everydaySpending: null }));
    expect((await user.get(windowPath)).body).toBe(plainWindow.body);
  });
});

async function primaryId(user: UserClient): Promise<string> {
  const { accounts } = (await user.get(ACCOUNTS_PATHS.list)).json() as { accounts: { id: string; primary: boolean }[] };
  const primary = accounts.find((account) => account.primary);
  if (!primary) throw new Error('no primary account');
  return primary.id;
}
