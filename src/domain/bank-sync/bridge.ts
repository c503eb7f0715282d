/**
 * What a SimpleFIN bridge says about one account and its transactions (issue 37), once read and
 * checked: the shape the protocol client hands to the sync plan. The client reads the bridge's JSON
 * into these; the plan (pure) decides what the ledger does with them.
 */
import type { IsoDate } from '../calendar-date.js';
import { type Cents, MAX_AMOUNT_CENTS, cents } from '../money.js';

/** One transaction as the bridge lists it. Its id is unique within its account only. */
export interface BridgeTransaction {
  readonly id: string;
  /** The day it posted, in the user's time zone; null while it is pending (`posted` 0). */
  readonly posted: IsoDate | null;
  /** The day it happened (`transacted_at`, else `posted`), in the user's time zone. */
  readonly transactedOn: IsoDate;
  /** Signed: negative is money out of the account. */
  readonly amount: Cents;
  readonly description: string;
  readonly pending: boolean;
}

/** One account of the bridge, with the transactions of the requested dates. */
export interface BridgeAccount {
  readonly id: string;
  readonly institution: string;
  readonly name: string;
  readonly currency: string;
  /** Signed; on a card, negative is owed. */
  readonly balance: Cents;
  readonly balanceDate: IsoDate;
  readonly transactions: readonly BridgeTransaction[];
}

/**
 * SimpleFIN sends amounts as decimal strings: "-12.5", "100.5", "1234.56". Read exactly, as text,
 * never through a float and never by removing the point ("100.5" is $100.50, not $10.05). Answers
 * undefined for anything else: more than two decimals that are not zeros, exponents, spaces,
 * thousands separators, or an amount beyond what a user may enter.
 */
export function decimalCents(text: string): Cents | undefined {
  const match = /^([+-]?)(\d{1,15})(?:\.(\d{1,20}))?$/.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = ''] = match;
  if (/[1-9]/.test(fraction.slice(2))) return undefined;
  const value = Number(whole) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  if (value > MAX_AMOUNT_CENTS) return undefined;
  return cents(sign === '-' && value !== 0 ? -value : value);
}
