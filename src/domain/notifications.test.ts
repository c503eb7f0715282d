import { describe, expect, it } from 'vitest';
import { isoDate } from './calendar-date.js';
import type { TransactionStatus, TransactionType } from './ledger.js';
import { cents } from './money.js';
import { isStillTrue, MAX_LISTED_BILLS, type PlanInput, type PlannerAccount, planMessages, shortfallKey } from './notifications.js';

type Row = PlannerAccount['rows'][number];

/** Rows in row order with their running balances from `opening`, as computeBalances gives them. */
function rows(opening: number, entries: readonly [string, string, TransactionType, number, TransactionStatus?][]): Row[] {
  let balance = opening;
  return entries.map(([date, name, type, amount, status]) => {
    balance += type === 'C' ? amount : -amount;
    return { date: isoDate(date), name, type, amount: cents(amount), balance: cents(balance), status: status ?? 'PENDING', source: null };
  });
}

/** Checking: $260.44 until the car loan ($310.44) on Tue, Jan 5, 2027 takes it to -$50.00; the phone bill on Sat, Jan 9 to -$107.52. */
const CHECKING: PlannerAccount = {
  id: 'acct-checking',
  name: 'Checking',
  warnBelowZero: true,
  rows: rows(26044, [
    ['2026-12-20', 'Groceries', 'D', 0],
    ['2027-01-05', 'Car loan', 'D', 31044],
    ['2027-01-09', 'Phone', 'D', 5752],
    ['2027-01-15', 'Acme Paycheck', 'C', 100000],
  ]),
};

function input(overrides: Partial<PlanInput>): PlanInput {
  return { today: isoDate('2026-12-25'), belowZero: true, billsDue: false, accounts: [CHECKING], noticedBefore: new Set(), ...overrides };
}

describe('before my balance goes below $0', () => {
  it('counts everyday spending as the forecast does (forecastOutlook): a day without a row can be the shortfall', () => {
    // $260.44 less $70.00 a day from Dec 26: below $0 on Dec 29 ($260.44 - $280.00), before the car loan.
    const everyday: PlannerAccount = {
      ...CHECKING,
      ledger: { startDate: isoDate('2026-12-01'), endDate: isoDate('2027-01-31'), openingBalance: cents(26044) },
      everydayWeekly: cents(49000),
    };
    const [message] = planMessages(input({ accounts: [everyday] }));
    expect(message).toMatchObject({ date: '2026-12-29', title: 'Checking goes below $0 on Tue, Dec 29, 2026' });
    expect(message?.message).toMatch(
      /^Heads up: your Checking balance goes below \$0 on Tue, Dec 29, 2026 with everyday spending\. Lowest ahead: /,
    );
    // Off, the same account is told of the car loan, as before.
    expect(planMessages(input({ accounts: [{ ...everyday, everydayWeekly: cents(0) }] }))[0]?.date).toBe('2027-01-05');
  });

  it('tells of a shortfall within the next 14 days in the words of issue 26', () => {
    expect(planMessages(input({}))).toEqual([
      {
        kind: 'BELOW_ZERO',
        occasion: 'notice',
        accountId: 'acct-checking',
        date: '2027-01-05',
        title: 'Checking goes below $0 on Tue, Jan 5, 2027',
        message:
          'Heads up: your Checking balance goes below $0 on Tue, Jan 5, 2027, when Car loan ($310.44) is due. Lowest ahead: -$107.52 on Sat, Jan 9, 2027.',
      },
    ]);
  });

  it('tells of it as soon as it is 14 days ahead (today counted), not a day sooner', () => {
    expect(planMessages(input({ today: isoDate('2026-12-22') }))).toEqual([]);
    expect(planMessages(input({ today: isoDate('2026-12-23') })).map((message) => message.occasion)).toEqual(['notice']);
  });

  it('reminds the day before when the notice went out on an earlier day, and says nothing on the days between', () => {
    const noticedBefore = new Set([shortfallKey('acct-checking', isoDate('2027-01-05'))]);
    expect(planMessages(input({ today: isoDate('2026-12-26'), noticedBefore }))).toEqual([]);
    const reminder = planMessages(input({ today: isoDate('2027-01-04'), noticedBefore }));
    expect(reminder.map(({ occasion, title }) => ({ occasion, title }))).toEqual([
      { occasion: 'reminder', title: 'Tomorrow: Checking goes below $0' },
    ]);
    expect(planMessages(input({ today: isoDate('2027-01-05'), noticedBefore }))).toEqual([]);
  });

  it('sends one message, the notice, when the shortfall is first seen the day before', () => {
    expect(planMessages(input({ today: isoDate('2027-01-04') })).map((message) => message.occasion)).toEqual(['notice']);
  });

  it('counts a shortfall on another date as a new one', () => {
    const noticedBefore = new Set([shortfallKey('acct-checking', isoDate('2027-01-03'))]);
    expect(planMessages(input({ noticedBefore })).map((message) => [message.occasion, message.date])).toEqual([['notice', '2027-01-05']]);
  });

  it('says nothing once a change removes the shortfall', () => {
    const lowered: PlannerAccount = {
      ...CHECKING,
      rows: rows(26044, [
        ['2027-01-05', 'Car loan', 'D', 20000],
        ['2027-01-09', 'Phone', 'D', 5752],
      ]),
    };
    expect(
      planMessages(input({ accounts: [lowered], noticedBefore: new Set([shortfallKey('acct-checking', isoDate('2027-01-05'))]) })),
    ).toEqual([]);
  });

  it('says nothing when the rule is off, or for a card', () => {
    expect(planMessages(input({ belowZero: false }))).toEqual([]);
    expect(planMessages(input({ accounts: [{ ...CHECKING, warnBelowZero: false }] }))).toEqual([]);
  });

  it('tells of each account on its own, naming it', () => {
    const savings: PlannerAccount = {
      ...CHECKING,
      id: 'acct-savings',
      name: 'Savings',
      rows: rows(100, [['2026-12-28', 'Fee', 'D', 200]]),
    };
    expect(planMessages(input({ accounts: [CHECKING, savings] })).map((message) => [message.accountId, message.title])).toEqual([
      ['acct-checking', 'Checking goes below $0 on Tue, Jan 5, 2027'],
      ['acct-savings', 'Savings goes below $0 on Mon, Dec 28, 2026'],
    ]);
  });

  it('names the first row below zero and the lowest ahead even when they are one row', () => {
    const once: PlannerAccount = { ...CHECKING, rows: rows(1000, [['2026-12-26', 'Rent', 'D', 1500]]) };
    expect(planMessages(input({ accounts: [once] }))[0]?.message).toBe(
      'Heads up: your Checking balance goes below $0 on Sat, Dec 26, 2026, when Rent ($15.00) is due. Lowest ahead: -$5.00 on Sat, Dec 26, 2026.',
    );
  });
});

describe('bills due tomorrow', () => {
  const bills = (accounts: PlannerAccount[]) => planMessages(input({ belowZero: false, billsDue: true, accounts }));

  it("lists tomorrow's unpaid debits in one message: not paid or cleared rows, not credits, not other days", () => {
    const account: PlannerAccount = {
      ...CHECKING,
      rows: rows(1_000_000, [
        ['2026-12-25', 'Today', 'D', 100],
        ['2026-12-26', 'Acme Paycheck', 'C', 50000],
        ['2026-12-26', 'Phone', 'D', 4555],
        ['2026-12-26', 'Paid early', 'D', 100, 'PAID'],
        ['2026-12-26', 'Rent', 'D', 120000],
        ['2026-12-26', 'Cleared', 'D', 100, 'CLEARED'],
        ['2026-12-27', 'Later', 'D', 100],
      ]),
    };
    expect(bills([account])).toEqual([
      {
        kind: 'BILLS_DUE',
        occasion: 'bills',
        accountId: null,
        date: '2026-12-26',
        title: '2 bills are due tomorrow',
        message: 'Due tomorrow, Sat, Dec 26, 2026: Phone ($45.55), Rent ($1,200.00).',
      },
    ]);
  });

  it('names the account of each bill when there is more than one account, and sends nothing without bills', () => {
    const checking: PlannerAccount = { ...CHECKING, rows: rows(0, [['2026-12-26', 'Rent', 'D', 120000]]) };
    const card: PlannerAccount = {
      id: 'card',
      name: 'Visa',
      warnBelowZero: false,
      rows: rows(0, [['2026-12-26', 'Visa bill', 'D', 5000]]),
    };
    expect(bills([checking, card]).map((message) => message.message)).toEqual([
      'Due tomorrow, Sat, Dec 26, 2026: Rent ($1,200.00, Checking), Visa bill ($50.00, Visa).',
    ]);
    expect(bills([{ ...CHECKING, rows: [] }])).toEqual([]);
    expect(planMessages(input({ belowZero: false, billsDue: false, accounts: [checking] }))).toEqual([]);
  });

  it(`lists at most ${MAX_LISTED_BILLS} by name and counts the rest`, () => {
    const many: PlannerAccount = {
      ...CHECKING,
      rows: rows(
        0,
        Array.from(
          { length: MAX_LISTED_BILLS + 3 },
          (_, index) => ['2026-12-26', `Bill ${String(index).padStart(2, '0')}`, 'D', 100] as const,
        ),
      ),
    };
    const [message] = bills([many]);
    expect(message?.title).toBe(`${MAX_LISTED_BILLS + 3} bills are due tomorrow`);
    expect(message?.message.endsWith('Bill 19 ($1.00), and 3 more.')).toBe(true);
    expect(message?.message.match(/\(\$1\.00\)/g)).toHaveLength(MAX_LISTED_BILLS);
  });

  it('says "A bill" for one', () => {
    expect(bills([{ ...CHECKING, rows: rows(0, [['2026-12-26', 'Rent', 'D', 100]]) }])[0]?.title).toBe('A bill is due tomorrow');
  });
});

describe('a message planned earlier, before it is sent again', () => {
  const shortfall = { kind: 'BELOW_ZERO', accountId: 'acct-checking', date: isoDate('2027-01-05') } as const;

  it('is still true while the account still goes below $0 first on that date', () => {
    expect(isStillTrue(shortfall, input({ today: isoDate('2026-12-26') }))).toBe(true);
    expect(isStillTrue({ ...shortfall, date: isoDate('2027-01-09') }, input({}))).toBe(false);
    expect(isStillTrue(shortfall, input({ belowZero: false }))).toBe(false);
    expect(isStillTrue({ ...shortfall, accountId: 'gone' }, input({}))).toBe(false);
    const lowered: PlannerAccount = { ...CHECKING, rows: rows(26044, [['2027-01-05', 'Car loan', 'D', 100]]) };
    expect(isStillTrue(shortfall, input({ accounts: [lowered] }))).toBe(false);
  });

  it("is still true for tomorrow's bills while that day is ahead and a bill of it is unpaid", () => {
    const bills = { kind: 'BILLS_DUE', accountId: null, date: isoDate('2026-12-26') } as const;
    const account: PlannerAccount = { ...CHECKING, rows: rows(0, [['2026-12-26', 'Rent', 'D', 100]]) };
    expect(isStillTrue(bills, input({ billsDue: true, accounts: [account] }))).toBe(true);
    expect(isStillTrue(bills, input({ billsDue: true, accounts: [account], today: isoDate('2026-12-26') }))).toBe(false);
    expect(isStillTrue(bills, input({ billsDue: false, accounts: [account] }))).toBe(false);
    const paid: PlannerAccount = { ...CHECKING, rows: rows(0, [['2026-12-26', 'Rent', 'D', 100, 'PAID']]) };
    expect(isStillTrue(bills, input({ billsDue: true, accounts: [paid] }))).toBe(false);
  });
});
