import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cents, centsToDollars, dollarsToCents, formatUsd, hasAtMostTwoDecimals, multiplyRatioHalfUp, sumCents } from './money.js';

describe('money', () => {
  it('adds dimes and double dimes exactly', () => {
    expect(centsToDollars(sumCents([dollarsToCents(0.1), dollarsToCents(0.2)]))).toBe(0.3);
  });

  it('accepts at most two decimals', () => {
    expect(hasAtMostTwoDecimals(12.34)).toBe(true);
    expect(hasAtMostTwoDecimals(0.29)).toBe(true);
    expect(hasAtMostTwoDecimals(99_999_999.99)).toBe(true);
    expect(hasAtMostTwoDecimals(1.234)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.NaN)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.POSITIVE_INFINITY)).toBe(false);
    expect(() => dollarsToCents(0.001)).toThrow(RangeError);
  });

  it('round-trips every two-decimal amount through cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -9_999_999_999, max: 9_999_999_999 }), (amount) => {
        const dollars = centsToDollars(cents(amount));
        expect(hasAtMostTwoDecimals(dollars)).toBe(true);
        expect(dollarsToCents(dollars)).toBe(amount);
        // JSON carries the same two-decimal number back.
        expect(dollarsToCents(JSON.parse(JSON.stringify(dollars)) as number)).toBe(amount);
      }),
    );
  });

  it('rounds a ratio half-up in integer arithmetic', () => {
    // 1000.00 bi-weekly: 100000 x 26 / 12 = 216666.67 cents -> 216667.
    expect(multiplyRatioHalfUp(cents(100_000), 26, 12)).toBe(216_667);
    // 6 cents x 26 / 12 = 13.0 exactly; 3 cents x 26 / 12 = 6.5 -> 7 (half-up).
    expect(multiplyRatioHalfUp(cents(6), 26, 12)).toBe(13);
    expect(multiplyRatioHalfUp(cents(3), 26, 12)).toBe(7);
    expect(multiplyRatioHalfUp(cents(9_999_999_999), 26, 12)).toBe(21_666_666_665);
  });

  it('matches exact rational rounding for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9_999_999_999 }), (amount) => {
        const result = multiplyRatioHalfUp(cents(amount), 26, 12);
        // result is the integer nearest amount*26/12, ties up: |12*result - 26*amount| <= 6, and
        // a tie (exactly 6 away) only when rounding up.
        const difference = 12 * result - 26 * amount;
        expect(difference).toBeGreaterThan(-6);
        expect(difference).toBeLessThanOrEqual(6);
      }),
    );
  });

  it('formats en-US dollars', () => {
    expect(formatUsd(cents(123_456))).toBe('$1,234.56');
    expect(formatUsd(cents(-1_200))).toBe('-$12.00');
    expect(formatUsd(cents(0))).toBe('$0.00');
  });
});
