/**
 * What every statement format is read into, and the rules the CSV and OFX readers share: how a
 * bank's description becomes a row name, how decimal text becomes cents, how ids stay unique.
 */
import { type IsoDate } from '../calendar-date.js';
import { InvalidInputError } from '../errors.js';
import { MAX_TRANSACTION_NAME_LENGTH, type TransactionType } from '../ledger.js';
import { type Cents, MAX_AMOUNT_CENTS } from '../money.js';
import { hasVisibleCharacter } from '../visible-text.js';

/** One transaction of a statement, in the file's own order. */
export interface StatementRow {
  /** 0-based position among the file's transactions. */
  readonly index: number;
  readonly date: IsoDate;
  /** The bank's description as a row name: one line, trimmed, at most the ledger's name length. */
  readonly description: string;
  /** 'C' for money in, 'D' for money out. */
  readonly type: TransactionType;
  /** Always positive: the type carries the direction. */
  readonly amount: Cents;
  /** Unique within the file and the same each time the file is read: what "already imported" compares. */
  readonly importId: string;
}

/** The closing balance a statement states (signed: negative is overdrawn, or owed on a card). */
export interface BankBalance {
  readonly balance: Cents;
  readonly date: IsoDate;
}

/** A file that cannot be read: the message says why and where (a line, or a tag). */
export function unreadable(message: string): InvalidInputError {
  return new InvalidInputError(message, { content: message });
}

// Control characters and every kind of space (tabs, no-break spaces) become one plain space.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SPACES_AND_CONTROLS = /[\s\u0000-\u001f\u007f]+/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// Windows-1252's characters at bytes 0x80 to 0x9F, in order ('' where it has none). Text that
// holds C1 control characters there was a Windows-1252 file decoded as Latin-1 (as Node's
// TextDecoder does for 'windows-1252'), so they are read back as the characters the bank meant.
const WINDOWS_1252_C1 = '€\0‚ƒ„…†‡ˆ‰Š‹Œ\0Ž\0\0‘’“”•–—˜™š›œ\0žŸ';
const C1_CONTROL = /[\u0080-\u009f]/g;
/** Anything statementDescription might change: a character outside printable ASCII, or a space to collapse or trim. */
const NOT_PLAIN = /[^\x20-\x7e]|^ | {2}| $/;

/**
 * A bank's description as a ledger row name: on one line, trimmed, and cut to the name limit
 * without splitting a character made of two UTF-16 units. The text is kept as data: a leading
 * "=", "+", "-" or "@" stays (nothing here or later evaluates it). Empty when nothing is left,
 * and when nothing visible is (zero-width or format characters only): the reader then falls back
 * as for a missing description (the next field, or unnamedRowDescription), as a name must show.
 */
export function statementDescription(raw: string): string {
  // Most descriptions are already one line of printable ASCII, single-spaced and trimmed: for
  // those every step below is the identity, and skipping them is most of reading a large CSV.
  if (raw.length <= MAX_TRANSACTION_NAME_LENGTH && !NOT_PLAIN.test(raw)) return raw;
  const text = raw
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(C1_CONTROL, (control) => WINDOWS_1252_C1.charAt(control.charCodeAt(0) - 0x80))
    .replace(SPACES_AND_CONTROLS, ' ')
    .trim();
  if (!hasVisibleCharacter(text)) return '';
  if (text.length <= MAX_TRANSACTION_NAME_LENGTH) return text;
  let end = MAX_TRANSACTION_NAME_LENGTH;
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return text.slice(0, end).trimEnd();
}

/** The name of a row whose bank gave no description at all. */
export function unnamedRowDescription(type: TransactionType): string {
  return type === 'C' ? 'Deposit' : 'Withdrawal';
}

/**
 * Whole and fractional digits as cents, or null when the fraction has more than two non-zero
 * digits (a bank's "54.2300" is fine, "54.235" is not money). No float ever holds the amount.
 */
export function decimalCents(wholeDigits: string, fractionDigits: string): number | null {
  if (/[^0]/.test(fractionDigits.slice(2))) return null;
  const whole = wholeDigits.replace(/^0+/, '');
  // Fifteen digits are already far past any allowed amount, and still a safe integer.
  if (whole.length > 13) return Number.MAX_SAFE_INTEGER;
  return Number(whole || '0') * 100 + Number(fractionDigits.slice(0, 2).padEnd(2, '0'));
}

/** Why a transaction amount (in cents, signed) cannot be a ledger amount, or null when it can. */
export function amountProblem(signedCents: number): string | null {
  return Math.abs(signedCents) > MAX_AMOUNT_CENTS ? 'is over $99,999,999.99' : null;
}

/**
 * Keys made unique within one file: a repeated key gets ":2", ":3"... in file order (with
 * `numberFirst`, every key gets its number, ":1" included). Rows with one key are
 * indistinguishable, so which of them gets which number does not matter, and reading the same
 * file again gives the same ids. A number that would collide with another key of the file is
 * passed over.
 */
export function numberRepeats(keys: readonly string[], numberFirst: boolean): string[] {
  const occurrences = new Map<string, number>();
  if (numberFirst) {
    // No number is ever passed over here: the last colon of "{key}:{number}" is the one before the
    // number (digits have none), so two different keys, or one key's different numbers, never
    // give the same text.
    return keys.map((key) => {
      const occurrence = (occurrences.get(key) ?? 0) + 1;
      occurrences.set(key, occurrence);
      return `${key}:${occurrence}`;
    });
  }
  const taken = new Set(keys);
  // A key's numbers only go up, so the search for its next free number starts after the last one
  // it was given: each key of the file is passed over at most once, by the one key it numbers
  // (the text before its last colon), instead of once per repeat.
  const nextNumber = new Map<string, number>();
  return keys.map((key) => {
    const occurrence = (occurrences.get(key) ?? 0) + 1;
    occurrences.set(key, occurrence);
    if (occurrence === 1) return key;
    let number = Math.max(occurrence, nextNumber.get(key) ?? 0);
    while (taken.has(`${key}:${number}`)) number += 1;
    taken.add(`${key}:${number}`);
    nextNumber.set(key, number + 1);
    return `${key}:${number}`;
  });
}

/**
 * How the page shows a file's bank account: the last four characters of its ACCTID ("1234", shown
 * as "…1234"), or the whole id when it is shorter. Enough to tell a user's accounts apart, and no
 * more of the number than a bank's own statements print.
 */
export function bankAccountEnding(bankAccountId: string): string {
  // Eight UTF-16 units hold the last four characters, whatever they are; the rest is never read.
  return Array.from(bankAccountId.slice(-8)).slice(-4).join('');
}
