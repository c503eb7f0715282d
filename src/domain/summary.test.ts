import { describe, expect, it } from 'vitest';
import { cents } from './money.js';
import { summarizeMonth } from './summary.js';

describe('monthly summary', () => {
  it('needs both totals', () => {
    expect(summarizeMonth(cents(0), cents(100))).toEqual({ kind: 'incomplete' });
    expect(summarizeMonth(cents(100), cents(0))).toEqual({ kind: 'incomplete' });
  });

  it('says what is left over, or how short the month is', () => {
    expect(summarizeMonth(cents(216_667), cents(150_000))).toEqual({ kind: 'leftover', amount: 66_667 });
    expect(summarizeMonth(cents(100_000), cents(100_000))).toEqual({ kind: 'leftover', amount: 0 });
    expect(summarizeMonth(cents(100_000), cents(125_050))).toEqual({ kind: 'short', amount: 25_050 });
  });
});
