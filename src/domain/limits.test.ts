import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLedgerRows, checkScheduleCount, formatCount, MAX_LEDGER_ROWS } from './limits.js';

describe('formatCount', () => {
  it('writes a count as Intl.NumberFormat("en-US") does, without loading Intl', () => {
    const intl = new Intl.NumberFormat('en-US');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (count) => {
        expect(formatCount(count)).toBe(intl.format(count));
      }),
    );
    expect([0, 999, 1_000, 20_000, 1_234_567].map(formatCount)).toEqual(['0', '999', '1,000', '20,000', '1,234,567']);
  });

  it('is what the limit messages say', () => {
    expect(checkScheduleCount('expense', 301)?.message).toBe('You can have at most 300 expenses. Remove one before adding another.');
    expect(checkLedgerRows('add', MAX_LEDGER_ROWS + 1)?.message).toMatch(
      /^A ledger holds at most 20,000 rows: this one would hold 20,001\./,
    );
  });
});
