/** The expense form's state as typed, and how it becomes what the contract schema checks. */
import type { Expense } from '../../../contract/expenses.js';
import { numberFromInput } from '../../components/field-errors.js';

/** The text of each field; an empty End Date means "no end". */
export interface ExpenseFormValues {
  readonly name: string;
  readonly type: string;
  readonly day: string;
  readonly amount: string;
  readonly endDate: string;
}

export const EMPTY_EXPENSE_FORM: ExpenseFormValues = { name: '', type: '', day: '', amount: '', endDate: '' };

export function expenseFormValuesOf(expense: Expense): ExpenseFormValues {
  return {
    name: expense.name,
    type: expense.type,
    day: String(expense.day),
    amount: expense.amount.toFixed(2),
    endDate: expense.endDate ?? '',
  };
}

/** The form as the contract schema checks it: day and amount as numbers. */
export function expenseCandidate(values: ExpenseFormValues) {
  return {
    name: values.name,
    type: values.type,
    day: numberFromInput(values.day),
    amount: numberFromInput(values.amount),
    endDate: values.endDate,
  };
}
