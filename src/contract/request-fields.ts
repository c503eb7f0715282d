/**
 * Field schemas shared by the request payloads: the same checks run in the page's forms and on the
 * server. Apart from common.ts (what answers need) so the page's first view, which reads answers,
 * does not carry them (benchmark 4a): only the dialogs' chunks and the server load this.
 */
import * as z from 'zod/mini';
import { isIsoDate, type IsoDate } from '../domain/calendar-date.js';
import { centsToDollars, hasAtMostTwoDecimals, MAX_AMOUNT_CENTS } from '../domain/money.js';
import { hasVisibleCharacter } from '../domain/visible-text.js';
import { idSchema } from './common.js';

const MAX_AMOUNT_DOLLARS = centsToDollars(MAX_AMOUNT_CENTS);

/** "Amount is required." for a missing value, "Amount must be a number." for anything else. */
function numberRequired(label: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? `${label} is required.` : `${label} must be a number.`);
}

/** A positive dollar amount with at most two decimals, up to $99,999,999.99; the messages name the field. */
export function positiveDollarsField(label: string) {
  return z.number({ error: numberRequired(label) }).check(
    z.refine((value: number) => Number.isFinite(value), `${label} must be a number.`),
    z.refine((value: number) => value > 0, `${label} must be greater than 0.`),
    z.refine((value: number) => value <= MAX_AMOUNT_DOLLARS, `${label} must be at most $99,999,999.99.`),
    z.refine(hasAtMostTwoDecimals, `${label} must have at most two decimal places.`),
  );
}

/** A positive dollar amount with at most two decimals, up to $99,999,999.99. */
export const amountSchema = positiveDollarsField('Amount');

/**
 * A dollar amount of a setting or a what-if, up to $1,000,000.00 (issue 36): from $0.00 ("Keep at
 * least") or above it (a purchase, everyday spending), with at most two decimals.
 */
export function limitedDollarsField(label: string, zeroAllowed: boolean) {
  const range = zeroAllowed ? `${label} must be from $0.00 to $1,000,000.00.` : `${label} must be greater than 0.`;
  return z.number({ error: numberRequired(label) }).check(
    z.refine((value: number) => Number.isFinite(value), `${label} must be a number.`),
    z.refine((value: number) => (zeroAllowed ? value >= 0 : value > 0), range),
    z.refine((value: number) => value <= 1_000_000, `${label} must be at most $1,000,000.00.`),
    z.refine(hasAtMostTwoDecimals, `${label} must have at most two decimal places.`),
  );
}

/** Any dollar amount, zero or negative included (an opening balance), with at most two decimals. */
export function balanceSchema(label: string) {
  return z.number({ error: numberRequired(label) }).check(
    z.refine((value: number) => Number.isFinite(value), `${label} must be a number.`),
    z.refine((value: number) => Math.abs(value) <= MAX_AMOUNT_DOLLARS, `${label} must be between -$99,999,999.99 and $99,999,999.99.`),
    z.refine(hasAtMostTwoDecimals, `${label} must have at most two decimal places.`),
  );
}

/** A calendar date 'YYYY-MM-DD'; the messages name the field as the user sees it. */
export function isoDateField(label: string) {
  return z.pipe(
    z
      .string({ error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be a date (YYYY-MM-DD).`) })
      .check(z.refine((value: string) => isIsoDate(value), `${label} must be a real date (YYYY-MM-DD).`)),
    z.transform((value: string) => value as IsoDate),
  );
}

/** A whole number in a range, with one message for every way to miss it. */
export function wholeNumberField(label: string, min: number, max: number) {
  const message = `${label} must be a whole number from ${min} to ${max}.`;
  return z.number({ error: (issue) => (issue.input === undefined ? `${label} is required.` : message) }).check(
    z.refine((value: number) => Number.isInteger(value), message),
    z.gte(min, message),
    z.lte(max, message),
  );
}

// Control characters have no place in a name, and PostgreSQL text cannot even hold U+0000.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether text holds a control character or a lone surrogate: what no stored address may (PostgreSQL cannot keep U+0000). */
export function hasControlOrLoneSurrogate(value: string): boolean {
  return CONTROL_CHARACTERS.test(value) || LONE_SURROGATE.test(value);
}

/**
 * Text a person typed: trimmed, not empty, at most `max` characters, with a visible character,
 * no control characters and no lone surrogates. Bidi controls (U+202E and the like) are kept:
 * the page shows every name isolated (unicode-bidi: isolate), so they cannot reorder what is around it.
 */
export function trimmedText(label: string, max: number) {
  return z.string({ error: `${label} is required.` }).check(
    z.trim(),
    z.minLength(1, `${label} is required.`),
    z.maxLength(max, `${label} must be at most ${max} characters.`),
    z.refine((value: string) => !CONTROL_CHARACTERS.test(value), `${label} must not contain control characters.`),
    // A lone surrogate is not text: each database would store a different replacement for it.
    z.refine((value: string) => !LONE_SURROGATE.test(value), `${label} must be valid text.`),
    // Zero-width or format characters only would look like no name at all (issue 17, finding 8).
    z.refine((value: string) => value === '' || hasVisibleCharacter(value), `${label} must contain a visible character.`),
  );
}

/** A request body must be a JSON object before any of its fields can be checked. */
export const OBJECT_BODY = { error: 'The request body must be a JSON object.' } as const;

export const idParamsSchema = z.object({ id: idSchema });

/** The account a deposit or an expense belongs to (decision 0042): left out, the primary account (or, on a change, the one it is in). */
export const accountIdField = z.optional(
  z
    .string({ error: 'Account must be the id of one of your accounts.' })
    .check(z.regex(/^[A-Za-z0-9-]{1,64}$/, 'Account must be the id of one of your accounts.')),
);

/**
 * The account a recurring transfer pays into (decision 0043): left out, a change keeps what the
 * expense had (an add has none); null or empty makes it an ordinary bill again.
 */
export const toAccountIdField = z.optional(
  z.nullable(
    z
      .string({ error: 'To must be the id of one of your accounts, or empty.' })
      .check(z.regex(/^([A-Za-z0-9-]{1,64})?$/, 'To must be the id of one of your accounts, or empty.')),
  ),
);
