import { describe, expect, it } from 'vitest';
import { isoDate } from './calendar-date.js';
import { computeBalances } from './balances.js';
import { type CardEverydayInput, everydayCardShares, weighedInOrder, withEverydayShares } from './card-everyday.js';
import type { CardPaymentRule } from './card-payments.js';
import type { LedgerRow } from './ledger.js';
import { cents } from './money.js';

const d = isoDate;
const CARD = 'card-1';
const STATEMENT: CardPaymentRule = { closingDay: 15, dueDay: 5, rule: 'STATEMENT', amount: null };

let sequence = 0;
function row(fields: Partial<LedgerRow> & Pick<LedgerRow, 'date' | 'type' | 'amount'>): LedgerRow {
  sequence += 1;
  return { id: `row-${sequence}`, sequence, name: 'Groceries', status: 'CLEARED', source: null, transfer: null, ...fields };
}
/** One side of the card's stored payment of a statement. */
const payment = (closing: string, due: string, amount: number, type: 'C' | 'D', status: LedgerRow['status'] = 'PENDING') =>
  row({
    date: d(due),
    type,
    amount: cents(amount),
    name: 'Visa payment',
    status,
    source: { kind: 'card', id: CARD, occurrence: d(closing), edited: false },
  });

// Today Dec 1; the card owes $300.00 and is charged $100.00 on Dec 10: December's statement pays $400.00 on Jan 5.
const cardRows = () => [row({ date: d('2026-12-10'), type: 'D', amount: cents(10_000) }), payment('2026-12-15', '2027-01-05', 40_000, 'C')];
const input = (fields: Partial<CardEverydayInput> = {}): CardEverydayInput => ({
  cardId: CARD,
  card: STATEMENT,
  ledger: { startDate: d('2026-12-01'), endDate: d('2027-02-28'), openingBalance: cents(-30_000) },
  rows: cardRows(),
  payLedger: { from: d('2026-12-01'), to: d('2027-02-28') },
  today: d('2026-12-01'),
  // $10.00 a day.
  weekly: cents(7_000),
  skipped: new Set(),
  ...fields,
});

describe('everyday spending on a card, in its statement payments', () => {
  it("adds each statement period's everyday spending to its payment, and a payment where nothing else was owed", () => {
    expect(everydayCardShares(input())).toEqual([
      // Dec 2 to Dec 15: 14 days.
      { closing: '2026-12-15', due: '2027-01-05', amount: 14_000 },
      // Dec 16 to Jan 15: 31 days; nothing else was owed, so no payment was stored. February's is due past the Pay From ledger.
      { closing: '2027-01-15', due: '2027-02-05', amount: 31_000 },
    ]);
  });

  it('raises the open payment on either side and adds the missing one, named as the card pays, never touching other rows', () => {
    const shares = everydayCardShares(input());
    const rent = row({ date: d('2027-01-03'), type: 'D', amount: cents(80_000), name: 'Rent', status: 'PENDING' });
    const debit = payment('2026-12-15', '2027-01-05', 40_000, 'D');
    const paying = withEverydayShares([rent, debit], CARD, 'D', 'Visa payment', shares);
    expect(paying.map(({ date, name, type, amount }) => ({ date, name, type, amount }))).toEqual([
      { date: '2027-01-03', name: 'Rent', type: 'D', amount: 80_000 },
      { date: '2027-01-05', name: 'Visa payment', type: 'D', amount: 54_000 },
      { date: '2027-02-05', name: 'Visa payment', type: 'D', amount: 31_000 },
    ]);
    expect(paying[0]).toBe(rent);
    expect(paying[2]?.sequence).toBeGreaterThan(debit.sequence);
    const card = withEverydayShares(cardRows(), CARD, 'C', 'Visa payment', shares);
    expect(card.filter((each) => each.type === 'C').map((each) => [each.date, each.amount])).toEqual([
      ['2027-01-05', 54_000],
      ['2027-02-05', 31_000],
    ]);
  });

  it('is nothing when everyday spending is $0: the rows are the stored ones', () => {
    const rows = cardRows();
    expect(everydayCardShares(input({ weekly: cents(0) }))).toEqual([]);
    expect(withEverydayShares(rows, CARD, 'C', 'Visa payment', [])).toEqual(rows);
  });

  it('leaves out a statement whose payment stands (paid) or was deleted, as the writes do', () => {
    const paid = [
      row({ date: d('2026-12-10'), type: 'D', amount: cents(10_000) }),
      payment('2026-12-15', '2027-01-05', 40_000, 'C', 'PAID'),
    ];
    expect(everydayCardShares(input({ rows: paid })).map((share) => share.closing)).toEqual(['2027-01-15']);
    expect(everydayCardShares(input({ skipped: new Set([d('2027-01-15')]) })).map((share) => share.closing)).toEqual(['2026-12-15']);
  });

  it('never makes a MINIMUM or FIXED payment more than its amount', () => {
    const fixed: CardPaymentRule = { ...STATEMENT, rule: 'FIXED', amount: cents(45_000) };
    const rows = [row({ date: d('2026-12-10'), type: 'D', amount: cents(10_000) }), payment('2026-12-15', '2027-01-05', 40_000, 'C')];
    // $400.00 owed pays $400.00; with $140.00 of everyday spending it pays the $450.00 the rule allows, and the rest rolls on.
    expect(everydayCardShares(input({ card: fixed, rows }))).toEqual([
      { closing: '2026-12-15', due: '2027-01-05', amount: 5_000 },
      { closing: '2027-01-15', due: '2027-02-05', amount: 40_000 },
    ]);
  });

  it("counts nothing before tomorrow and nothing past the card ledger's end", () => {
    // Today is the closing day: December's period has no everyday spending ahead.
    const shares = everydayCardShares(input({ today: d('2026-12-15') }));
    expect(shares).toEqual([{ closing: '2027-01-15', due: '2027-02-05', amount: 31_000 }]);
  });

  it("weighs rows already in order as a sort of the rows with the shares would: the page's whole ledger agrees with the server", () => {
    const shares = everydayCardShares(input());
    const opening = cents(100_000);
    const paying = [
      row({ date: d('2027-01-03'), type: 'D', amount: cents(80_000), name: 'Rent', status: 'PENDING' }),
      payment('2026-12-15', '2027-01-05', 40_000, 'D'),
      row({ date: d('2027-02-05'), type: 'D', amount: cents(1_000), name: 'Water', status: 'PENDING' }),
      row({ date: d('2027-02-05'), type: 'C', amount: cents(120_000), name: 'Acme Paycheck', status: 'PENDING' }),
      row({ date: d('2027-02-20'), type: 'D', amount: cents(5_000), name: 'Phone', status: 'PENDING' }),
    ];
    const view = ({
      date,
      name,
      type,
      amount,
      balance,
    }: {
      date: string;
      name: string;
      type: string;
      amount: number;
      balance: number;
    }) => ({
      date,
      name,
      type,
      amount,
      balance,
    });
    const server = computeBalances(opening, withEverydayShares(paying, CARD, 'D', 'Visa payment', shares)).rows.map(view);
    const page = weighedInOrder(opening, computeBalances(opening, paying).rows, { cardId: CARD, side: 'D', name: 'Visa payment', shares });
    expect(page.map(view)).toEqual(server);
    // The added payment falls after Acme Paycheck (credits first) and before Water ("V" < "W").
    expect(page.map((each) => each.name)).toEqual(['Rent', 'Visa payment', 'Acme Paycheck', 'Visa payment', 'Water', 'Phone']);
    expect(
      weighedInOrder(opening, computeBalances(opening, paying).rows, { cardId: CARD, side: 'D', name: 'Visa payment', shares: [] }),
    ).toEqual(computeBalances(opening, paying).rows);
  });
});
