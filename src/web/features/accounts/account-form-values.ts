/** Add Account's form as the user fills it (text as typed), and the payload the contract checks. */
import type { AccountKind, CardRule } from '../../../domain/accounts.js';
import { numberFromInput } from '../../components/field-errors.js';

export interface AccountFormValues {
  readonly name: string;
  readonly kind: AccountKind | '';
  readonly closingDay: string;
  readonly dueDay: string;
  readonly payFromAccountId: string;
  readonly rule: CardRule;
  readonly amount: string;
  readonly creditLimit: string;
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

/** The payload as POST /api/accounts takes it: card settings only for a card, an amount only for a rule that has one. */
export function accountCandidate(values: AccountFormValues): unknown {
  return {
    name: values.name,
    kind: values.kind === '' ? undefined : values.kind,
    card:
      values.kind === 'CARD'
        ? {
            closingDay: numberFromInput(values.closingDay),
            dueDay: numberFromInput(values.dueDay),
            payFromAccountId: values.payFromAccountId,
            rule: values.rule,
            amount: values.rule === 'STATEMENT' ? null : numberFromInput(values.amount),
            creditLimit: values.creditLimit.trim() === '' ? null : Number(values.creditLimit),
          }
        : undefined,
  };
}
