/** Add Account's and Card Settings' forms as the user fills them (text as typed), and the payloads the contract checks. */
import type { AccountView } from '../../../contract/account-codecs.js';
import type { AccountKind, CardRule } from '../../../domain/accounts.js';
import { centsToDollars } from '../../../domain/money.js';
import { numberFromInput } from '../../components/field-errors.js';

/** A card's settings as typed. */
export interface CardFormValues {
  readonly closingDay: string;
  readonly dueDay: string;
  readonly payFromAccountId: string;
  readonly rule: CardRule;
  readonly amount: string;
  readonly creditLimit: string;
}

export interface AccountFormValues extends CardFormValues {
  readonly name: string;
  readonly kind: AccountKind | '';
}

/** A card pays from the primary account unless the user picks another. */
export function emptyAccountForm(primaryAccountId: string): AccountFormValues {
  return {
    name: '',
    kind: '',
    closingDay: '',
    dueDay: '',
    payFromAccountId: primaryAccountId,
    rule: 'STATEMENT',
    amount: '',
    creditLimit: '',
  };
}

/** A card's settings as stored, as the form shows them. */
export function cardFormOf(card: NonNullable<AccountView['card']>): CardFormValues {
  const dollars = (amount: typeof card.amount) => (amount === null ? '' : centsToDollars(amount).toFixed(2));
  return {
    closingDay: String(card.closingDay),
    dueDay: String(card.dueDay),
    payFromAccountId: card.payFromAccountId,
    rule: card.rule,
    amount: dollars(card.amount),
    creditLimit: dollars(card.creditLimit),
  };
}

/** The card as the contract takes it: an amount only for a rule that has one, no limit when left empty. */
export function cardCandidate(values: CardFormValues): unknown {
  return {
    closingDay: numberFromInput(values.closingDay),
    dueDay: numberFromInput(values.dueDay),
    payFromAccountId: values.payFromAccountId,
    rule: values.rule,
    amount: values.rule === 'STATEMENT' ? null : numberFromInput(values.amount),
    creditLimit: values.creditLimit.trim() === '' ? null : Number(values.creditLimit),
  };
}

/** The payload as POST /api/accounts takes it: card settings only for a card. */
export function accountCandidate(values: AccountFormValues): unknown {
  return {
    name: values.name,
    kind: values.kind === '' ? undefined : values.kind,
    card: values.kind === 'CARD' ? cardCandidate(values) : undefined,
  };
}
