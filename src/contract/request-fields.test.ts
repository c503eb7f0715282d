/** The shared field checks, as the forms and the server run them (issue 17, finding 8). */
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { newLedgerSchema } from './ledger-requests.js';
import { trimmedText } from './request-fields.js';

/** The messages of a failed parse by field path, or null when it passed. */
function messages(schema: z.ZodMiniType, input: unknown): Record<string, string> | null {
  const result = schema.safeParse(input);
  if (result.success) return null;
  // The first message of each field, as the server's answer gives it.
  return Object.fromEntries(result.error.issues.toReversed().map((issue) => [issue.path.join('.'), issue.message]));
}

describe('trimmedText', () => {
  const name = trimmedText('Name', 100);

  it.each([
    ['zero-width spaces', '\u200b\u200b'],
    ['zero-width non-joiner and joiner', '\u200c\u200d'],
    ['a word joiner and a byte-order mark', '\u2060\ufeff'],
    ['a right-to-left override alone', '\u202e'],
    ['isolates and marks', '\u2066\u2069\u200e\u200f'],
    ['a soft hyphen and a Hangul filler', '\u00ad\u3164'],
    ['no-break and ideographic spaces around a zero-width space', '\u00a0\u200b\u3000'],
    // Issue 22: characters fonts draw as blank, though some are letters or symbols.
    ['Braille pattern blanks', '\u2800\u2800'],
    ['Hangul fillers', '\u3164\u115f\u1160\uffa0'],
    ['line and paragraph separators and a Mongolian vowel separator', '\u2028\u2029\u180e'],
    ['Khmer inherent vowels, a combining grapheme joiner and an Arabic letter mark', '\u17b4\u17b5\u034f\u061c'],
    ['variation selectors', '\ufe00\ufe0f'],
    ['tag characters', '\u{e0000}\u{e0041}\u{e007f}'],
    ['musical symbols drawn blank', '\u{1d159}\u{1d173}\u{1d17a}'],
    ['a Braille blank between ideographic spaces', '\u3000\u2800\u3000'],
    // Issue 34: visible means a letter, digit, punctuation mark or symbol, so a mark alone is none.
    ['the Khitan small script filler', '\u{16fe4}'],
    ['Khitan fillers between spaces', ' \u{16fe4}\u{16fe4} '],
    ['combining marks alone', '\u0301\u0308'],
    ['a Hangul filler alone', '\u3164'],
    ['a zero-width space alone', '\u200b'],
    ['a soft hyphen alone', '\u00ad'],
    ['a byte-order mark beside a zero-width space', '\ufeff\u200b'],
  ])('refuses a name of %s: nothing would show', (_label, text) => {
    expect(messages(name, text)).toEqual({ '': 'Name must contain a visible character.' });
  });

  it.each([
    ['a plain name', 'Rent'],
    ['a name with a bidi override inside (the page shows it isolated)', '\u202eAcme'],
    ['a zero-width space beside a letter', '\u200bA'],
    ['accents, scripts and emoji', 'Café 日本 مرحبا 💵'],
    ['a Braille letter beside a Braille blank', '\u2800\u2801'],
    [
      'an emoji with its variation selector, and a flag spelled with tags',
      '\u2764\ufe0f \u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}',
    ],
    ['a Hangul syllable beside a filler', '\u3164\ud55c'],
    ['a symbol alone', '☕'],
    ['a digit alone', '1'],
    ['punctuation alone', '?'],
    ['a letter with its combining accent', 'e\u0301'],
  ])('accepts %s', (_label, text) => {
    expect(messages(name, text)).toBeNull();
  });

  it('still says required for an empty or blank name', () => {
    expect(messages(name, '   ')).toEqual({ '': 'Name is required.' });
  });
});

describe('a new ledger near the end of the calendar', () => {
  const TOO_LATE = 'Start Date must be in 9994 or earlier: a ledger may span 5 years and dates end at 9999.';

  it('refuses a start date after 9994-12-31 saying why, never with a year past 9999', () => {
    for (const startDate of ['9995-01-01', '9999-12-31']) {
      expect(messages(newLedgerSchema, { startDate, endDate: '9999-12-31', currentBalance: 0 })).toEqual({ startDate: TOO_LATE });
    }
  });

  it('accepts five years from 9994-12-31 and refuses a day more', () => {
    expect(messages(newLedgerSchema, { startDate: '9994-12-31', endDate: '9999-12-31', currentBalance: 0 })).toBeNull();
    expect(messages(newLedgerSchema, { startDate: '9994-12-30', endDate: '9999-12-31', currentBalance: 0 })).toEqual({
      endDate: 'A ledger spans at most 5 years: End Date must be on or before 9999-12-30.',
    });
  });
});
