/**
 * Accounts (issue 25, decision 0042): where money is. Each account has its own ledger; one of a
 * user's accounts is primary, the one SPEC.md's ledger calls act on. Plain rules, no I/O.
 */
import type { Cents } from './money.js';

export const ACCOUNT_KINDS = ['CHECKING', 'SAVINGS', 'CARD', 'CASH'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** How a card's bill is paid: the statement balance, a fixed minimum, or a fixed amount. */
export const CARD_RULES = ['STATEMENT', 'MINIMUM', 'FIXED'] as const;
export type CardRule = (typeof CARD_RULES)[number];

export const MAX_ACCOUNT_NAME_LENGTH = 50;

/** The name an account is created with for a user who had a ledger before accounts, or has none yet. */
export const FIRST_ACCOUNT_NAME = 'Checking';

export interface CardSettings {
  /** Day of the month the statement closes (1-31; the last day in a shorter month). */
  readonly closingDay: number;
  readonly dueDay: number;
  /** The non-card account the bill is paid from. */
  readonly payFromAccountId: string;
  readonly rule: CardRule;
  /** What MINIMUM and FIXED pay; null for STATEMENT. */
  readonly amount: Cents | null;
  readonly creditLimit: Cents | null;
}

/**
 * Names are unique per user without regard to case ("Savings" and "savings" are one name), compared
 * as JavaScript lowercases them, the same for either database.
 */
export function accountNameKey(name: string): string {
  return name.toLowerCase();
}
