import { describe, expect, it } from 'vitest';
import { isoDate } from '../../domain/calendar-date.js';
import { cents } from '../../domain/money.js';
import { payPeriodText } from './pay-period-text.js';

const PERIOD = {
  startDate: isoDate('2026-12-04'),
  endDate: isoDate('2026-12-17'),
  income: cents(150_000),
  bills: cents(120_000),
  leftover: cents(30_000),
  lowest: cents(11_240),
  endBalance: cents(40_000),
};

describe('a pay period line', () => {
  it('says "Everyday about $X" only while everyday spending is counted (issue 36)', () => {
    const plain = 'Pay period Fri, Dec 4, 2026 – Thu, Dec 17, 2026 · In $1,500.00 · Out $1,200.00 · Left over $300.00 · Lowest $112.40';
    expect(payPeriodText(PERIOD)).toBe(plain);
    expect(payPeriodText({ ...PERIOD, everyday: cents(42_400) })).toBe(`${plain} · Everyday about $424.00`);
  });
});
