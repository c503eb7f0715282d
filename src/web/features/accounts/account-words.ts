/** Accounts in the user's words (issue 25): the kinds and card payment rules as the page names them. */
import type { AccountKind, CardRule } from '../../../domain/accounts.js';

export const KIND_LABELS: Readonly<Record<AccountKind, string>> = {
  CHECKING: 'Checking',
  SAVINGS: 'Savings',
  CARD: 'Credit card',
  CASH: 'Cash',
};

export const RULE_LABELS: Readonly<Record<CardRule, string>> = {
  STATEMENT: 'Statement balance',
  MINIMUM: 'Minimum of',
  FIXED: 'Fixed',
};
