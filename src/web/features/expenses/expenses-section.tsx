import type { ExpensesInfo } from '../../../contract/expenses.js';
import type { SectionProps } from '../section-props.js';

// TODO(helper): the expenses table and dialogs.
export function ExpensesSection({ info }: SectionProps<ExpensesInfo>) {
  return <p className="text-body-secondary mb-0">{info?.expenses.length ? `${info.expenses.length} expenses` : 'No expenses yet.'}</p>;
}
