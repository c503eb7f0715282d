import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../../domain/calendar-date.js';
import { cents } from '../../../../domain/money.js';
import { forecastText } from './forecast-text.js';
import { januaryForecast, point } from './forecast-test-support.js';

describe('forecastText', () => {
  it('gives the lowest ahead, the highest, and the balance after each paycheck, dates as "Fri, Jan 8, 2027"', () => {
    expect(forecastText(januaryForecast())).toEqual({
      lowest: 'Lowest balance ahead: -$120.00 on Fri, Jan 15, 2027.',
      highest: 'Highest: $2,450.00 on Fri, Jan 8, 2027.',
      paychecks: [
        { date: '2027-01-08', text: 'After the paycheck on Fri, Jan 8, 2027: $2,450.00' },
        { date: '2027-01-22', text: 'After the paycheck on Fri, Jan 22, 2027: $1,880.00' },
      ],
    });
  });

  it('says when nothing lies ahead, and counts the opening balance as the highest when nothing beats it', () => {
    const text = forecastText(januaryForecast({ openingBalance: cents(900_000), lowest: null }));
    expect(text.lowest).toBe('Lowest balance ahead: none, no transaction is dated today or later.');
    expect(text.highest).toBe('Highest: $9,000.00 on Fri, Jan 1, 2027.');
  });

  it('names the first date of a tie for the highest', () => {
    const text = forecastText({
      openingBalance: cents(0),
      startDate: isoDate('2027-02-01'),
      points: [point('2027-02-05', 'Paycheck: Acme', 100, true), point('2027-02-06', 'Refund', 100)],
      lowest: null,
    });
    expect(text.highest).toBe('Highest: $100.00 on Fri, Feb 5, 2027.');
  });

  it('makes one line of several paychecks on one date, with the balance after the last of them', () => {
    const text = forecastText({
      openingBalance: cents(0),
      startDate: isoDate('2027-02-01'),
      points: [
        point('2027-02-05', 'Paycheck: Acme', 1000, true),
        point('2027-02-05', 'Paycheck: Side gig', 1300, true),
        point('2027-02-05', 'Rent', 300),
      ],
      lowest: { date: isoDate('2027-02-05'), balance: cents(30_000) },
    });
    expect(text.paychecks).toEqual([{ date: '2027-02-05', text: 'After the paycheck on Fri, Feb 5, 2027: $1,300.00' }]);
  });
});
