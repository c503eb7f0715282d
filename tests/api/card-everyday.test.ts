/**
 * Everyday spending on a card (issue 36 item 2, decision 0101), on SQLite and (with
 * TEST_POSTGRES_URL) PostgreSQL: the card's projected statement payments include the everyday
 * spending of each statement period, so the account that pays the card sees it in its forecast,
 * safe to spend and what-if, while nothing is stored. The app's clock is Saturday 2026-11-21
 * (TEST_NOW); Visa closes on the 15th and is due on the 8th; $70.00 a week is $10.00 a day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountForecastSchema, type AccountInfo, accountSchema, ACCOUNTS_PATHS, accountsInfoSchema } from '../../src/contract/accounts.js';
import { profileSchema } from '../../src/contract/app-config.js';
import { ENDPOINTS } from '../../src/contract/common.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { ledgerWindowSchema } from '../../src/contract/ledger-window.js';
import { NOTIFICATIONS_PATHS } from '../../src/contract/notifications.js';
import { everydaySuggestionSchema, WHAT_IF_PATHS, whatIfAnswerSchema } from '../../src/contract/what-if.js';
import { addDays, isoDate } from '../../src/domain/calendar-date.js';
import { expectBadRequest, inAccount, newSubject } from '../support/api-expectations.js';
import { ledgerOf, okJson } from '../support/schedule-bodies.js';
import { runNotifications } from '../../src/server/app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/notify-receivers.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

const getApp = appsOnEveryDatabase();
const PROFILE = ENDPOINTS.getProfile.path;
const SPAN = { startDate: '2026-11-21', endDate: '2027-02-28' };
const PAYMENT = 'Visa payment';

/** Checking ($1,000.00) pays Visa, which owes $200.00: December's statement pays $200.00 on Jan 8; January's owes nothing. */
async function cardUser(user: UserClient, checkingBalance = 1000): Promise<{ checking: AccountInfo; visa: AccountInfo }> {
  okJson(await user.post(LEDGER_PATHS.create, { ledger: { ...SPAN, currentBalance: checkingBalance } }));
  const [checking] = accountsInfoSchema.parse(okJson(await user.get(ACCOUNTS_PATHS.list))).accounts;
  if (!checking) throw new Error('no primary account');
  const card = { closingDay: 15, dueDay: 8, payFromAccountId: checking.id, rule: 'STATEMENT', amount: null, creditLimit: null };
  const visa = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Visa', kind: 'CARD', card })));
  okJson(await user.post(inAccount(LEDGER_PATHS.create, visa.id), { ledger: { ...SPAN, currentBalance: -200 } }));
  return { checking, visa };
}

const forecastPath = (accountId: string) => inAccount(LEDGER_PATHS.forecast, accountId);
const storedPayments = async (user: UserClient, accountId: string) =>
  ledgerOf(await user.get(inAccount(LEDGER_PATHS.retrieve, accountId)))
    .transactions.filter((row) => row.name === PAYMENT)
    .map((row) => [row.date, row.type, row.amount]);

describe.each(databaseKinds())('everyday spending on a card on %s', (kind) => {
  it("puts each statement period's everyday spending in the card's payments, seen by the account that pays it", async () => {
    const user = getApp(kind).as(newSubject('card-everyday'));
    const { checking, visa } = await cardUser(user);
    const plainChecking = await user.get(forecastPath(checking.id));
    const plainVisa = await user.get(forecastPath(visa.id));
    const before = accountForecastSchema.parse(okJson(plainChecking));
    expect(before.safeToSpend).toMatchObject({ amount: 800, lowestDate: '2027-01-08', lowestName: PAYMENT, untilReason: 'LEDGER_END' });

    const profile = profileSchema.parse(okJson(await user.patch(PROFILE, { everydaySpending: { weekly: 70, accountId: visa.id } })));
    expect(profile.everydaySpending).toEqual({ weekly: 70, accountId: visa.id });

    const paying = accountForecastSchema.parse(okJson(await user.get(forecastPath(checking.id))));
    // Jan 8 pays $200.00 and Nov 22 to Dec 15's $240.00; Feb 8 pays Dec 16 to Jan 15's $310.00, where nothing else was owed.
    expect(paying.chart.filter((point) => point.name === PAYMENT)).toEqual([
      { date: '2027-01-08', name: PAYMENT, balance: 560, paycheck: false },
      { date: '2027-02-08', name: PAYMENT, balance: 250, paycheck: false },
    ]);
    expect(paying.safeToSpend).toMatchObject({ amount: 250, lowestDate: '2027-02-08', lowestName: PAYMENT });
    expect(paying.lowest).toEqual({ date: '2027-02-08', name: PAYMENT, balance: 250 });
    // Checking spends nothing of its own every day.
    expect(paying.everyday).toBeUndefined();

    // The card: everyday spending every day, and its payments' credits bring it back by as much.
    const card = accountForecastSchema.parse(okJson(await user.get(forecastPath(visa.id))));
    expect(card.everyday).toEqual({ weekly: 70 });
    expect(card.chart.filter((point) => point.name === PAYMENT).map((point) => [point.date, point.balance])).toEqual([
      ['2027-01-08', -200 + 440 - 480],
      ['2027-02-08', -200 + 440 + 310 - 790],
    ]);

    // Can I afford it? weighs the same payments: $250.00 on Monday is, $250.01 is not.
    const asked = async (amount: number) =>
      whatIfAnswerSchema.parse(okJson(await user.post(WHAT_IF_PATHS.whatIf, { items: [{ date: '2026-11-23', amount }] }))).accounts[0];
    expect(await asked(250)).toMatchObject({ affordable: true, lowestBeforePayday: { balance: 0, date: '2027-02-08' } });
    expect(await asked(250.01)).toMatchObject({ affordable: false, after: { firstBelowZero: { date: '2027-02-08', name: PAYMENT } } });

    // Nothing is stored: both ledgers keep the one $200.00 payment.
    expect(await storedPayments(user, checking.id)).toEqual([['2027-01-08', 'D', 200]]);
    expect(await storedPayments(user, visa.id)).toEqual([['2027-01-08', 'C', 200]]);

    // Off, both forecasts are what they were, byte for byte.
    okJson(await user.patch(PROFILE, { everydaySpending: null }));
    expect((await user.get(forecastPath(checking.id))).body).toBe(plainChecking.body);
    expect((await user.get(forecastPath(visa.id))).body).toBe(plainVisa.body);
  });

  it("takes the card as everyday spending's account in /api/me, answers it back, and suggests from the card's own weeks", async () => {
    const user = getApp(kind).as(newSubject('card-everyday-setting'));
    // From Monday Oct 12: five full weeks before Saturday Nov 21.
    const weeks = { startDate: '2026-10-12', endDate: '2027-01-31' };
    okJson(await user.post(LEDGER_PATHS.create, { ledger: { ...weeks, currentBalance: 1000 } }));
    const [checking] = accountsInfoSchema.parse(okJson(await user.get(ACCOUNTS_PATHS.list))).accounts;
    if (!checking) throw new Error('no primary account');
    const card = { closingDay: 15, dueDay: 8, payFromAccountId: checking.id, rule: 'STATEMENT', amount: null, creditLimit: null };
    const visa = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Visa', kind: 'CARD', card })));
    okJson(await user.post(inAccount(LEDGER_PATHS.create, visa.id), { ledger: { ...weeks, currentBalance: 0 } }));
    for (const [week, amount] of [50, 60, 40, 55, 45].entries()) {
      const date = addDays(isoDate('2026-10-13'), 7 * week);
      const added = ledgerOf(await user.post(inAccount(LEDGER_PATHS.addTransaction, visa.id), { date, name: 'Market', type: 'D', amount }));
      const row = added.transactions.find((each) => each.date === date && each.name === 'Market');
      okJson(await user.patch(inAccount(LEDGER_PATHS.updateTransaction, visa.id), { ...row, status: 'CLEARED' }));
    }
    const suggestion = (query: string) =>
      user.get(`${WHAT_IF_PATHS.everydaySuggestion}${query}`).then((answer) => everydaySuggestionSchema.parse(okJson(answer)));
    expect(await suggestion(`?accountId=${visa.id}`)).toMatchObject({ accountId: visa.id, suggestion: 50 });
    // Checking's own history has none of it (its card payments are the card's schedule).
    expect(await suggestion('')).toMatchObject({ accountId: checking.id, suggestion: 0 });

    expect(profileSchema.parse(okJson(await user.get(PROFILE))).everydaySpending).toBeNull();
    okJson(await user.patch(PROFILE, { everydaySpending: { weekly: 50, accountId: visa.id } }));
    expect(profileSchema.parse(okJson(await user.get(PROFILE))).everydaySpending).toEqual({ weekly: 50, accountId: visa.id });
    // Another user's card is no choice: 400 on the account, and the setting stays.
    const other = getApp(kind).as(newSubject('card-everyday-other'));
    expectBadRequest(await other.patch(PROFILE, { everydaySpending: { weekly: 50, accountId: visa.id } }), {
      'everydaySpending.accountId': 'Account must be the id of one of your accounts.',
    });
    // Moved to Checking, then off.
    okJson(await user.patch(PROFILE, { everydaySpending: { weekly: 20, accountId: checking.id } }));
    expect(profileSchema.parse(okJson(await user.get(PROFILE))).everydaySpending).toEqual({ weekly: 20, accountId: checking.id });
    okJson(await user.patch(PROFILE, { everydaySpending: null }));
    expect(profileSchema.parse(okJson(await user.get(PROFILE))).everydaySpending).toBeNull();
  });

  it("gives the Ledger view's warning before $0 and pay periods the forecast's numbers, showing the stored rows", async () => {
    const user = getApp(kind).as(newSubject('card-everyday-window'));
    const { checking, visa } = await cardUser(user, 500);
    const windowPath = `${inAccount(LEDGER_PATHS.retrieve, checking.id)}?limit=5`;
    const plain = await user.get(windowPath);
    expect(ledgerWindowSchema.parse(okJson(plain)).window.firstBelowZero).toBeNull();

    okJson(await user.patch(PROFILE, { everydaySpending: { weekly: 70, accountId: visa.id } }));
    const { window } = ledgerWindowSchema.parse(okJson(await user.get(windowPath)));
    const forecast = accountForecastSchema.parse(okJson(await user.get(forecastPath(checking.id))));
    // $500.00 - $440.00 on Jan 8 - $310.00 on Feb 8.
    expect(window.firstBelowZero).toEqual({ date: '2027-02-08', name: PAYMENT, balance: -250 });
    expect(forecast.firstBelowZero).toEqual(window.firstBelowZero);
    expect(window.payPeriods).toEqual(forecast.payPeriods);
    // The shares ride along, so a page holding the whole ledger counts them as well.
    expect(window.cardEveryday).toEqual({
      cardId: visa.id,
      side: 'D',
      name: PAYMENT,
      shares: [
        { closing: '2026-12-15', due: '2027-01-08', amount: 240 },
        { closing: '2027-01-15', due: '2027-02-08', amount: 310 },
      ],
    });
    // The rows are the stored ones: the one $200.00 payment.
    expect(window.count).toBe(1);
    expect(window.transactions.map((row) => [row.date, row.amount, row.balance])).toEqual([['2027-01-08', 200, 300]]);

    okJson(await user.patch(PROFILE, { everydaySpending: null }));
    expect((await user.get(windowPath)).body).toBe(plain.body);
  });

  it('leaves the payments alone while everyday spending comes out of another account', async () => {
    const user = getApp(kind).as(newSubject('card-everyday-elsewhere'));
    const { checking } = await cardUser(user);
    okJson(await user.patch(PROFILE, { everydaySpending: { weekly: 70, accountId: checking.id } }));
    const paying = accountForecastSchema.parse(okJson(await user.get(forecastPath(checking.id))));
    // Checking's own $10.00 a day, and Visa's one stored $200.00 payment.
    expect(paying.chart.filter((point) => point.name === PAYMENT)).toEqual([
      { date: '2027-01-08', name: PAYMENT, balance: 1000 - 200 - 480, paycheck: false },
    ]);
  });
});

describe.each(databaseKinds())('the shortfall notification with everyday spending on a card on %s', (kind) => {
  let receiver: WebhookReceiver;
  let test: TestApp;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    // 16:00 UTC: past the day's hour (08:00), so the run plans the day's messages.
    test = await startTestApp(kind, {
      now: () => new Date('2026-11-21T16:00:00Z'),
      env: { TZ: 'UTC', PUBLIC_URL: 'https://leftover.example.com', NOTIFY_ALLOW_PRIVATE_URLS: 'true' },
    });
  });
  afterAll(async () => {
    await test?.close();
    await receiver?.close();
  });

  it("warns of the day the card's payment, everyday spending included, takes the paying account below $0", async () => {
    const user = test.as(newSubject('card-everyday-shortfall'));
    // Checking $505.00 pays Visa, which owes $500.00 and closes on the 22nd, due on the 27th: $5.00 is left.
    okJson(await user.post(LEDGER_PATHS.create, { ledger: { ...SPAN, currentBalance: 505 } }));
    const [checking] = accountsInfoSchema.parse(okJson(await user.get(ACCOUNTS_PATHS.list))).accounts;
    if (!checking) throw new Error('no primary account');
    const card = { closingDay: 22, dueDay: 27, payFromAccountId: checking.id, rule: 'STATEMENT', amount: null, creditLimit: null };
    const visa = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Visa', kind: 'CARD', card })));
    okJson(await user.post(inAccount(LEDGER_PATHS.create, visa.id), { ledger: { ...SPAN, currentBalance: -500 } }));
    const target = receiver.url('/card-everyday');
    // Below $0 is told by default, at 08:00.
    okJson(await user.post(NOTIFICATIONS_PATHS.channels, { kind: 'WEBHOOK', target }));

    // Sunday the 22nd's $10.00 of everyday spending closes in November's statement: $510.00 due on the 27th;
    // then $300.00, $310.00 and $310.00 on the 27ths of December, January and February, when nothing else is owed.
    okJson(await user.patch(PROFILE, { everydaySpending: { weekly: 70, accountId: visa.id } }));
    expect(await runNotifications(test.app)).toMatchObject({ planned: 1, sent: 1 });
    const [sent] = await receiver.waitFor(1, '/card-everyday');
    expect(JSON.parse(sent?.body ?? '')).toMatchObject({
      kind: 'BELOW_ZERO',
      message:
        'Heads up: your Checking balance goes below $0 on Fri, Nov 27, 2026, when Visa payment ($510.00) is due. Lowest ahead: -$925.00 on Sat, Feb 27, 2027.',
    });
  });
});
