import { describe, expect, it } from 'vitest';
import { MAX_TRANSACTION_NAME_LENGTH } from '../ledger.js';
import { MAX_AMOUNT_CENTS } from '../money.js';
import { amountProblem, decimalCents, numberRepeats, statementDescription } from './statement-row.js';

describe('a bank description as a row name', () => {
  it('collapses spaces, tabs, line breaks and control characters, and trims', () => {
    expect(statementDescription('  ACME CORP PAYROLL      PPD ID:\t98\r\n76\u0000 ')).toBe('ACME CORP PAYROLL PPD ID: 98 76');
  });

  it('keeps plain single-spaced ASCII as it is, and still cleans text that only looks plain', () => {
    expect(statementDescription('CARD PURCHASE 12, SPRINGFIELD IL')).toBe('CARD PURCHASE 12, SPRINGFIELD IL');
    expect(statementDescription('CARD  PURCHASE ')).toBe('CARD PURCHASE');
    expect(statementDescription(' CARD')).toBe('CARD');
    expect(statementDescription('CAF\u00c9 \u0093NICE\u0094')).toBe('CAF\u00c9 \u201cNICE\u201d');
  });

  it('keeps formula-looking text as text', () => {
    for (const text of ['-SHELL', '=SUM(A1:A2)', '+1 PHONE', '@HOME', '<b>bold</b>']) expect(statementDescription(text)).toBe(text);
  });

  it('keeps non-ASCII text and reads Latin-1-decoded Windows-1252 punctuation back', () => {
    expect(statementDescription('CAFÉ DÉJÀ VU – PEÑA’S ™')).toBe('CAFÉ DÉJÀ VU – PEÑA’S ™');
    expect(statementDescription('PE\u00d1A\u0092S \u0093BEST\u0094 \u0096 \u0080 5\u00a2 \u0099')).toBe('PEÑA’S “BEST” – € 5¢ ™');
    // Bytes Windows-1252 leaves undefined become a space.
    expect(statementDescription('A\u0081B')).toBe('A B');
  });

  it('cuts to the ledger name limit without splitting a two-unit character', () => {
    expect(statementDescription('x'.repeat(200))).toHaveLength(MAX_TRANSACTION_NAME_LENGTH);
    const emoji = `${'x'.repeat(MAX_TRANSACTION_NAME_LENGTH - 1)}😀 tail`;
    expect(statementDescription(emoji)).toBe('x'.repeat(MAX_TRANSACTION_NAME_LENGTH - 1));
    expect(statementDescription(`${'x'.repeat(MAX_TRANSACTION_NAME_LENGTH - 1)} y`)).toBe('x'.repeat(MAX_TRANSACTION_NAME_LENGTH - 1));
  });

  it('is empty when nothing visible is left, so the reader falls back as for no description', () => {
    expect(statementDescription('\u200b\u200c\u200d')).toBe('');
    expect(statementDescription(' \u2060\ufeff\u202e ')).toBe('');
    expect(statementDescription('\u200bAcme\u200b')).toBe('\u200bAcme\u200b');
  });

  it('replaces a lone surrogate, which no database stores alike', () => {
    expect(statementDescription('A\uD800B')).toBe('A\uFFFDB');
  });
});

describe('decimal text as cents', () => {
  it('reads whole and fraction digits exactly', () => {
    expect(decimalCents('1234', '56')).toBe(123_456);
    expect(decimalCents('0', '5')).toBe(50);
    expect(decimalCents('', '05')).toBe(5);
    expect(decimalCents('12', '')).toBe(1_200);
    expect(decimalCents('007', '1')).toBe(710);
  });

  it('accepts trailing zeros past the cents and refuses other digits there', () => {
    expect(decimalCents('54', '2300')).toBe(5_423);
    expect(decimalCents('54', '235')).toBeNull();
  });

  it('keeps huge numbers a safe integer over the limit', () => {
    expect(amountProblem(decimalCents('9'.repeat(40), '') ?? 0)).toBe('is over $99,999,999.99');
    expect(amountProblem(MAX_AMOUNT_CENTS)).toBeNull();
    expect(amountProblem(-MAX_AMOUNT_CENTS - 1)).toBe('is over $99,999,999.99');
  });
});

describe('ids unique within a file', () => {
  it('numbers every key when asked, repeats only otherwise', () => {
    expect(numberRepeats(['a', 'b', 'a', 'a'], true)).toEqual(['a:1', 'b:1', 'a:2', 'a:3']);
    expect(numberRepeats(['a', 'b', 'a', 'a'], false)).toEqual(['a', 'b', 'a:2', 'a:3']);
  });

  it('passes over a number another key of the file already is', () => {
    expect(numberRepeats(['a', 'a', 'a:2'], false)).toEqual(['a', 'a:3', 'a:2']);
  });

  it('never makes two keys one id when every key is numbered, whatever colons they hold', () => {
    const keys = ['a', 'a:1', 'a', 'a:1:1', 'a:1', ':', '::1', ':'];
    const ids = numberRepeats(keys, true);
    expect(ids).toEqual(['a:1', 'a:1:1', 'a:2', 'a:1:1:1', 'a:1:2', '::1', '::1:1', '::2']);
    expect(new Set(ids).size).toBe(keys.length);
  });
});

describe('ids unique within a large file', () => {
  /**
   * Runs `work`, counting lookups in every Set, and stops it past `bound`: lookups of ids already
   * taken are the work that numbering repeats does, so this bounds the work, not the clock.
   */
  function withSetLookupsAtMost<T>(bound: number, work: () => T): T {
    const has = Object.getOwnPropertyDescriptor(Set.prototype, 'has');
    const original = Set.prototype.has;
    let lookups = 0;
    Object.defineProperty(Set.prototype, 'has', {
      ...has,
      value: function countedHas(this: Set<unknown>, value: unknown): boolean {
        lookups += 1;
        if (lookups > bound) throw new Error(`more than ${bound} lookups`);
        return original.call(this, value);
      },
    });
    try {
      return work();
    } finally {
      if (has) Object.defineProperty(Set.prototype, 'has', has);
    }
  }

  it('numbers 16,000 repeats of one key, among 16,000 keys that already hold its numbers, with linear work', () => {
    const repeats = Array.from({ length: 16_000 }, () => 'F');
    const numbered = Array.from({ length: 16_000 }, (_, position) => `F:${position + 2}`);
    const keys = [...repeats, ...numbered];
    const ids = withSetLookupsAtMost(4 * keys.length, () => numberRepeats(keys, false));
    expect(new Set(ids).size).toBe(keys.length);
    // The first is the key itself; the other repeats pass over F:2 to F:16001, which the file holds.
    expect(ids.slice(0, 3)).toEqual(['F', 'F:16002', 'F:16003']);
    expect(ids[15_999]).toBe('F:32000');
    expect(ids.slice(16_000)).toEqual(numbered);
  });

  it('gives 16,000 repeats of one key 16,000 different ids, numbered or not', () => {
    const keys = Array.from({ length: 16_000 }, () => 'ofx:42:F');
    for (const numberFirst of [false, true]) {
      const ids = numberRepeats(keys, numberFirst);
      expect(new Set(ids).size).toBe(16_000);
      expect(ids.at(-1)).toBe('ofx:42:F:16000');
    }
  });
});
