import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CardRule, CARD_RULES } from './accounts.js';
import { daysInMonth, fromDayNumber, type IsoDate, isoDate, toDayNumber } from './calendar-date.js';
import {
  amountOwed,
  type CardPaymentRule,
  cardPaymentName,
  cardStatements,
  paymentUnderRule,
  projectCardPayments,
  statementMonth,
} from './card-payments.js';
import type { TransactionDraft } from './ledger.js';
import { cents } from './money.js';

/** Property runs: modest in CI, more under `npm run fuzz`. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

const d = isoDate;
const range = (from: string, to: string) => ({ from: d(from), to: d(to) });
const statement = (rule: CardRule = 'STATEMENT', amount: number | null = null): CardPaymentRule => ({
  closingDay: 15,
  dueDay: 5,
  rule,
  amount: amount === null ? null : cents(amount),
});
const charge = (date: string, amount: number): Pick<TransactionDraft, 'date' | 'type' | 'amount'> => ({
  date: d(date),
  type: 'D',
  amount: cents(amount),
});
const credit = (date: string, amount: number): Pick<TransactionDraft, 'date' | 'type' | 'amount'> => ({
  date: d(date),
  type: 'C',
  amount: cents(amount),
});
const NOTHING_FILLED = new Set<string>();

describe('card statements', () => {
  it('close on the closing day of each month in the range and fall due on the next due day after it', () => {
    expect(cardStatements({ closingDay: 15, dueDay: 5 }, range('2026-12-01', '2027-02-14'))).toEqual([
      { closing: '2026-12-15', due: '2027-01-05' },
      { closing: '2027-01-15', due: '2027-02-05' },
    ]);
    // A due day after the closing day falls in the same month.
    expect(cardStatements({ closingDay: 5, dueDay: 25 }, range('2026-12-01', '2026-12-31'))).toEqual([
      { closing: '2026-12-05', due: '2026-12-25' },
    ]);
    // Strictly after: the same day is next month's.
    expect(cardStatements({ closingDay: 15, dueDay: 15 }, range('2026-12-15', '2026-12-15'))).toEqual([
      { closing: '2026-12-15', due: '2027-01-15' },
    ]);
  });

  it('clamp days past a month’s end to its last day, as monthly bills fall', () => {
    expect(cardStatements({ closingDay: 31, dueDay: 30 }, range('2027-01-01', '2027-03-31'))).toEqual([
      { closing: '2027-01-31', due: '2027-02-28' },
      { closing: '2027-02-28', due: '2027-03-30' },
      { closing: '2027-03-31', due: '2027-04-30' },
    ]);
    expect(cardStatements({ closingDay: 29, dueDay: 10 }, range('2028-02-01', '2028-02-29'))).toEqual([
      { closing: '2028-02-29', due: '2028-03-10' },
    ]);
  });

  it('are never due after the next statement closes', () => {
    // February closes on the 28th; the 31st after it is March 31st, past March's closing on the 30th.
    expect(cardStatements({ closingDay: 30, dueDay: 31 }, range('2027-02-01', '2027-03-31'))).toEqual([
      { closing: '2027-02-28', due: '2027-03-30' },
      { closing: '2027-03-30', due: '2027-03-31' },
    ]);
  });

  it('stop where no due date exists, and answer none for an empty range', () => {
    expect(cardStatements({ closingDay: 20, dueDay: 10 }, range('9999-11-01', '9999-12-31'))).toEqual([
      { closing: '9999-11-20', due: '9999-12-10' },
    ]);
    expect(cardStatements({ closingDay: 20, dueDay: 25 }, range('9999-12-01', '9999-12-31'))).toEqual([
      { closing: '9999-12-20', due: '9999-12-25' },
    ]);
    expect(cardStatements({ closingDay: 15, dueDay: 5 }, range('2026-12-16', '2026-12-15'))).toEqual([]);
  });
});

describe('what a statement pays', () => {
  it('owes the absolute value of a negative balance, and nothing of a balance at or above $0', () => {
    expect(amountOwed(cents(-30_000))).toBe(30_000);
    expect(amountOwed(cents(0))).toBe(0);
    expect(amountOwed(cents(5_000))).toBe(0);
  });

  it('pays the statement balance, or the rule’s amount when more is owed: never more than is owed', () => {
    expect(paymentUnderRule(statement(), cents(30_000))).toBe(30_000);
    expect(paymentUnderRule(statement('MINIMUM', 2_500), cents(30_000))).toBe(2_500);
    expect(paymentUnderRule(statement('MINIMUM', 2_500), cents(1_000))).toBe(1_000);
    expect(paymentUnderRule(statement('FIXED', 50_000), cents(30_000))).toBe(30_000);
    expect(paymentUnderRule(statement('FIXED', 20_000), cents(30_000))).toBe(20_000);
    expect(paymentUnderRule(statement('FIXED', 20_000), cents(0))).toBe(0);
  });

  it('names both sides after the card', () => {
    expect(cardPaymentName('Visa')).toBe('Visa payment');
    expect(statementMonth(d('2026-12-15'))).toBe('2026-12');
  });
});

describe('projecting card payments', () => {
  const base = { openingBalance: cents(0), span: range('2026-12-01', '2027-03-31'), filled: NOTHING_FILLED };

  it('pays each statement balance on its due day; the payment counts toward the next statement', () => {
    const rows = [charge('2026-12-03', 30_000), charge('2026-12-20', 20_000), charge('2027-01-15', 1_000), credit('2027-01-10', 5_000)];
    expect(projectCardPayments({ ...base, card: statement(), rows, reach: base.span })).toEqual([
      // December: $300 of charges by the 15th.
      { closing: '2026-12-15', due: '2027-01-05', amount: 30_000 },
      // January: $300 + $200 + $10 charged, $50 refunded and $300 paid by the 15th.
      { closing: '2027-01-15', due: '2027-02-05', amount: 16_000 },
      // February: paid off, nothing owed, no payment.
    ]);
  });

  it('owes what the opening balance owes, and nothing while the card is in credit', () => {
    const owing = projectCardPayments({ ...base, openingBalance: cents(-12_345), card: statement(), rows: [], reach: base.span });
    expect(owing).toEqual([{ closing: '2026-12-15', due: '2027-01-05', amount: 12_345 }]);
    const inCredit = projectCardPayments({
      ...base,
      openingBalance: cents(10_000),
      card: statement(),
      rows: [charge('2027-01-02', 4_000)],
      reach: base.span,
    });
    expect(inCredit).toEqual([]);
  });

  it('pays at most the rule’s amount under MINIMUM and FIXED, and what is left rolls into the next statement', () => {
    const rows = [charge('2026-12-03', 30_000)];
    expect(projectCardPayments({ ...base, card: statement('MINIMUM', 2_500), rows, reach: base.span })).toEqual([
      { closing: '2026-12-15', due: '2027-01-05', amount: 2_500 },
      { closing: '2027-01-15', due: '2027-02-05', amount: 2_500 },
      { closing: '2027-02-15', due: '2027-03-05', amount: 2_500 },
      // March's is due in April, past the reach.
    ]);
    expect(projectCardPayments({ ...base, card: statement('FIXED', 20_000), rows, reach: base.span })).toEqual([
      { closing: '2026-12-15', due: '2027-01-05', amount: 20_000 },
      { closing: '2027-01-15', due: '2027-02-05', amount: 10_000 },
    ]);
  });

  it('projects no payment for a filled month, and counts the payment that stands for it', () => {
    // December's payment was paid early, by hand, for $100 on Jan 2: January owes the rest.
    const rows = [charge('2026-12-03', 30_000), credit('2027-01-02', 10_000)];
    expect(projectCardPayments({ ...base, card: statement(), rows, filled: new Set(['2026-12']), reach: base.span })).toEqual([
      { closing: '2027-01-15', due: '2027-02-05', amount: 20_000 },
    ]);
  });

  it('projects only due dates within reach, while every statement before counts', () => {
    const rows = [charge('2026-12-03', 30_000), charge('2027-01-03', 7_000)];
    // The first payment is due before reach: it is not projected, so January owes both months.
    expect(projectCardPayments({ ...base, card: statement(), rows, reach: range('2027-01-06', '2027-02-28') })).toEqual([
      { closing: '2027-01-15', due: '2027-02-05', amount: 37_000 },
    ]);
    expect(projectCardPayments({ ...base, card: statement(), rows, reach: range('2027-01-06', '2027-01-05') })).toEqual([]);
  });

  it('knows only statements closing within the card’s span', () => {
    const rows = [charge('2026-12-20', 30_000)];
    expect(
      projectCardPayments({
        ...base,
        span: range('2026-12-16', '2027-01-14'),
        card: statement(),
        rows,
        reach: range('2026-12-16', '2027-03-31'),
      }),
    ).toEqual([]);
  });
});

const BASE = toDayNumber(d('2026-11-01'));
const dayAt = (offset: number): IsoDate => fromDayNumber(BASE + offset);

const activityArbitrary = fc.record({
  closingDay: fc.integer({ min: 1, max: 31 }),
  dueDay: fc.integer({ min: 1, max: 31 }),
  openingBalance: fc.integer({ min: -500_000, max: 200_000 }),
  rows: fc.array(
    fc.record({
      day: fc.integer({ min: 0, max: 500 }),
      type: fc.constantFrom<'C' | 'D'>('C', 'D', 'D'),
      amount: fc.integer({ min: 1, max: 200_000 }),
    }),
    { maxLength: 60 },
  ),
  spanStart: fc.integer({ min: 0, max: 60 }),
  spanDays: fc.integer({ min: 0, max: 500 }),
});

/** The card's running balance at the end of a date: its opening, and every row and payment dated on or before it. */
function balanceAt(openingBalance: number, rows: readonly Pick<TransactionDraft, 'date' | 'type' | 'amount'>[], date: IsoDate): number {
  return rows.reduce(
    (balance, row) => (row.date <= date ? balance + (row.type === 'C' ? row.amount : -row.amount) : balance),
    openingBalance,
  );
}

describe('card payments, for any card activity', () => {
  it('under STATEMENT, each payment is what the card owes at the end of its closing day, payments before it counted; never below $0', () => {
    fc.assert(
      fc.property(activityArbitrary, (activity) => {
        const rows = activity.rows.map((row) => ({ date: dayAt(row.day), type: row.type, amount: cents(row.amount) }));
        const span = { from: dayAt(activity.spanStart), to: dayAt(activity.spanStart + activity.spanDays) };
        const card: CardPaymentRule = { closingDay: activity.closingDay, dueDay: activity.dueDay, rule: 'STATEMENT', amount: null };
        const payments = projectCardPayments({
          card,
          openingBalance: cents(activity.openingBalance),
          rows,
          span,
          filled: NOTHING_FILLED,
          reach: span,
        });
        const withPayments = [...rows, ...payments.map((payment) => ({ date: payment.due, type: 'C' as const, amount: payment.amount }))];
        const projected = new Map(payments.map((payment) => [payment.closing, payment]));
        for (const { closing, due } of cardStatements(card, span)) {
          const owed = -balanceAt(activity.openingBalance, withPayments, closing);
          const payment = projected.get(closing);
          if (due > span.to || owed <= 0) expect(payment).toBeUndefined();
          else expect(payment).toEqual({ closing, due, amount: owed });
        }
        for (const payment of payments) expect(payment.amount).toBeGreaterThan(0);
      }),
      { numRuns: RUNS },
    );
  });

  it('under MINIMUM and FIXED, each payment is the rule’s amount or what is owed, whichever is less', () => {
    fc.assert(
      fc.property(
        activityArbitrary,
        fc.constantFrom(...CARD_RULES.filter((rule) => rule !== 'STATEMENT')),
        fc.integer({ min: 1, max: 100_000 }),
        (activity, rule, amount) => {
          const rows = activity.rows.map((row) => ({ date: dayAt(row.day), type: row.type, amount: cents(row.amount) }));
          const span = { from: dayAt(activity.spanStart), to: dayAt(activity.spanStart + activity.spanDays) };
          const card: CardPaymentRule = { closingDay: activity.closingDay, dueDay: activity.dueDay, rule, amount: cents(amount) };
          const payments = projectCardPayments({
            card,
            openingBalance: cents(activity.openingBalance),
            rows,
            span,
            filled: NOTHING_FILLED,
            reach: span,
          });
          const withPayments = [...rows, ...payments.map((payment) => ({ date: payment.due, type: 'C' as const, amount: payment.amount }))];
          for (const payment of payments) {
            const owed = -balanceAt(activity.openingBalance, withPayments, payment.closing);
            expect(payment.amount).toBe(Math.min(amount, owed));
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('each statement falls due strictly after it closes, on the due day (or the month’s last day), by the next closing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 3_000 }),
        (closingDay, dueDay, start) => {
          const statements = cardStatements({ closingDay, dueDay }, { from: dayAt(start), to: dayAt(start + 800) });
          statements.forEach(({ closing, due }, index) => {
            const [year, month, day] = due.split('-').map(Number) as [number, number, number];
            const next = statements[index + 1];
            expect(due > closing).toBe(true);
            if (next) expect(due <= next.closing).toBe(true);
            // On the due day, clamped, unless the next closing came first.
            if (next && due < next.closing) expect(day).toBe(Math.min(dueDay, daysInMonth(year, month)));
          });
        },
      ),
      { numRuns: RUNS },
    );
  });
});
