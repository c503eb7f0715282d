/** The transaction form's state as typed, and how it becomes what the contract schema checks. */
import type { LedgerTransaction } from '../../../../contract/ledger.js';
import { numberFromInput } from '../../../components/field-errors.js';

/** The text of each field; an empty select is ''. */
export interface TransactionFormValues {
  readonly date: string;
  readonly name: string;
  readonly type: string;
  readonly amount: string;
}

export const EMPTY_TRANSACTION_FORM: TransactionFormValues = { date: '', name: '', type: '', amount: '' };

export function transactionFormValuesOf(transaction: LedgerTransaction): TransactionFormValues {
  return { date: transaction.date, name: transaction.name, type: transaction.type, amount: String(transaction.amount) };
}

/** The form as the contract schema checks it: the amount as a number. */
export function transactionCandidate(values: TransactionFormValues) {
  return { date: values.date, name: values.name, type: values.type, amount: numberFromInput(values.amount) };
}
