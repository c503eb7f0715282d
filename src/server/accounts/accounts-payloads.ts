/** Accounts between dollars on the wire and cents inside: the only place the two meet. */
import type { AccountUpdate, CardInput, NewAccount } from '../../contract/account-input.js';
import type { AccountInfo } from '../../contract/accounts.js';
import type { CardSettings } from '../../domain/accounts.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import type { AccountFields, AccountWithBalances } from '../ledger/index.js';
import type { AccountChange } from './accounts-service.js';

/** A card's settings as the request gives them, in cents. */
export function cardSettings(card: CardInput): CardSettings {
  return {
    closingDay: card.closingDay,
    dueDay: card.dueDay,
    payFromAccountId: card.payFromAccountId,
    rule: card.rule,
    amount: card.amount === undefined || card.amount === null ? null : dollarsToCents(card.amount),
    creditLimit: card.creditLimit === undefined || card.creditLimit === null ? null : dollarsToCents(card.creditLimit),
  };
}

export function accountFields(request: NewAccount): AccountFields {
  const { card } = request;
  return { name: request.name, kind: request.kind, card: request.kind === 'CARD' && card ? cardSettings(card) : null };
}

/** What a PATCH changes: its name, the primary role, a card's settings. */
export function accountChange(request: AccountUpdate): AccountChange {
  return { name: request.name, primary: request.primary, card: request.card && cardSettings(request.card) };
}

export function accountAnswer(account: AccountWithBalances): AccountInfo {
  const { card } = account;
  return {
    id: account.id,
    name: account.name,
    kind: account.kind,
    currentBalance: centsToDollars(account.currentBalance),
    pendingBalance: centsToDollars(account.pendingBalance),
    primary: account.primary,
    card: card && {
      closingDay: card.closingDay,
      dueDay: card.dueDay,
      payFromAccountId: card.payFromAccountId,
      rule: card.rule,
      amount: card.amount === null ? null : centsToDollars(card.amount),
      creditLimit: card.creditLimit === null ? null : centsToDollars(card.creditLimit),
    },
  };
}
