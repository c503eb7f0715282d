import { describe, expect, it } from 'vitest';
import { decimalCents } from './bridge.js';

describe('a bridge amount read as exact decimal text', () => {
  it('reads "100.5" as $100.50 and keeps the sign', () => {
    expect(decimalCents('100.5')).toBe(10_050);
    expect(decimalCents('-12.34')).toBe(-1_234);
    expect(decimalCents('+7')).toBe(700);
    expect(decimalCents('0.00')).toBe(0);
    expect(decimalCents('-0.00')).toBe(0);
    expect(decimalCents('3.1000')).toBe(310);
  });

  it('refuses what is not a plain amount in dollars and cents', () => {
    for (const text of ['', '.5', '1.', '1e3', '1,000.00', ' 1.00', '1.005', 'NaN', '--1', '100000000.00']) {
      expect(decimalCents(text), text).toBeUndefined();
    }
  });
});
