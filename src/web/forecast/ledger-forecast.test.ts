import { describe, expect, it } from 'vitest';
import { ledgerCodec } from '../../contract/codecs.js';
import { isoDate } from '../../domain/calendar-date.js';
import type { CardEverydayShares } from '../../domain/card-everyday.js';
import { cents } from '../../domain/money.js';
import { ledgerForecast } from './ledger-forecast.js';

/** Checking ($500.00) with the one stored $200.00 Visa payment, due Jan 8. */
const ledger = ledgerCodec.parse({
  startDate: '2026-11-21',
  endDate: '2027-02-28',
  openingBalance: 500,
  currentBalance: 500,
  pendingBalance: 500,
  transactions: [
    {
      id: 'pay-1',
      date: '2027-01-08',
      name: 'Visa payment',
      type: 'D',
      amount: 200,
      balance: 300,
      status: 'PENDING',
      source: { kind: 'card', id: 'visa', occurrence: '2026-12-15', edited: false },
      transfer: { id: 'card-1', accountId: 'visa' },
    },
  ],
});

/** Everyday spending on Visa, as the window said (decision 0101): $240.00 more on Jan 8, and $310.00 due Feb 8. */
const SHARES: CardEverydayShares = {
  cardId: 'visa',
  side: 'D',
  name: 'Visa payment',
  shares: [
    { closing: isoDate('2026-12-15'), due: isoDate('2027-01-08'), amount: cents(24_000) },
    { closing: isoDate('2027-01-15'), due: isoDate('2027-02-08'), amount: cents(31_000) },
  ],
};

describe('the Ledger view’s forecast of a whole ledger', () => {
  const today = isoDate('2026-11-21');

  it('counts everyday spending’s share of a card’s payments as the server does, keeping the stored rows', () => {
    const counted = ledgerForecast(ledger, today, cents(0), SHARES);
    expect(counted.firstBelowZero).toMatchObject({ date: '2027-02-08', name: 'Visa payment', balance: -25_000 });
    expect(counted.lowest).toMatchObject({ date: '2027-02-08', balance: -25_000 });
    expect(counted.periods.map((period) => [period.lowest, period.endBalance])).toEqual([[-25_000, -25_000]]);
    expect(counted.rows).toBe(ledgerForecast(ledger, today).rows);
  });

  it('is what it was without them', () => {
    expect(ledgerForecast(ledger, today, cents(0), { ...SHARES, shares: [] })).toEqual(ledgerForecast(ledger, today));
    expect(ledgerForecast(ledger, today).firstBelowZero).toBeNull();
  });
});
