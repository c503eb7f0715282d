/** Accounts between dollars on the wire and cents inside: the only place the two meet. */
import type { NewAccount } from '../../contract/account-input.js';
import type { AccountInfo } from '../../contract/accounts.js';
import type { CardSettings } from '../../domain/accounts.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import type { AccountFields, AccountWithBalances } from '../ledger/index.js';

export function accountFields(request: NewAccount): AccountFields {
  const { card } = request;
  const settings: CardSettings | null =
    request.kind === 'CARD' && card
      ? {
          closingDay: card.closingDay,
          dueDay: card.dueDay,
          payFromAccountId: card.payFromAccountId,
          rule: card.rule,
          amount: card.amount === undefined || card.amount === null ? null : dollarsToCents(card.amount),
          creditLimit: card.creditLimit === undefined || card.creditLimit === null ? null : dollarsToCents(card.creditLimit),
        }
      : null;
  return { name: request.name, kind: request.kind, card: settings };
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
