/** Recurring bills: the monthly total, the list in the chosen order, and its dialogs. */
import { useMemo } from 'react';
import { Button } from '../../components/button.js';
import { encodeExpense, type ExpensesInfoView, type ExpenseView } from '../../../contract/codecs.js';
import type { ExpenseSort } from '../../../contract/expenses.js';
import type { ExpenseInput } from '../../../contract/expense-input.js';
import { todayIn } from '../../../domain/calendar-date.js';
import { formatUsd } from '../../../domain/money.js';
import { useApiClient } from '../../api/api-context.js';
import { useSectionCall } from '../../api/use-section-call.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { lazyDialog } from '../../components/lazy-dialog.js';
import { loadAlongside } from '../../components/load-alongside.js';
import { VIEW_PATHS } from '../../views/view-nav.js';
import { useDialogState } from '../../components/use-dialog-state.js';
import { useEditDeleteDialogs } from '../../components/use-edit-delete-dialogs.js';
import type { ScheduleAccount } from '../../components/schedule-account.js';
import type { SectionProps } from '../section-props.js';
import { EXPENSE_SORT_LABELS, sortExpenses } from './expense-sort.js';
import { useExpenseSort } from './expense-sort-preference.js';

// The table shows only once the expenses have arrived: its code loads alongside their request.
const ExpensesTable = loadAlongside(() => import('./expenses-table.js').then((module) => module.ExpensesTable), null, VIEW_PATHS.plan);

const ExpenseDialog = lazyDialog(() => import('./expense-dialog.js').then((module) => module.ExpenseDialog));
const SortExpensesDialog = lazyDialog(() => import('./sort-expenses-dialog.js').then((module) => module.SortExpensesDialog));
const ConfirmDeleteDialog = lazyDialog(() =>
  import('../../components/confirm-delete-dialog.js').then((module) => module.ConfirmDeleteDialog),
);

interface ExpensesSectionProps extends SectionProps<ExpensesInfoView> {
  /** The user's accounts (Plan loads them): with more than one, each expense names its account. */
  readonly accounts?: readonly ScheduleAccount[] | null | undefined;
}

export function ExpensesSection({ info, onChange, onError, accounts }: ExpensesSectionProps) {
  const api = useApiClient();
  const { editor, deletion, save, confirmDelete } = useEditDeleteDialogs<ExpenseView, ExpenseInput, ExpensesInfoView>(
    { add: api.addExpense, update: api.updateExpense, remove: api.deleteExpense },
    useSectionCall(onChange, onError),
  );
  const sorting = useDialogState<null>(null);
  const [sort, setSort] = useExpenseSort();
  const expenses = useMemo(() => sortExpenses(info?.expenses ?? [], sort), [info, sort]);

  async function saveSort(next: ExpenseSort | null): Promise<SaveOutcome> {
    setSort(next);
    sorting.close();
    return undefined;
  }

  const addButton = (
    <Button variant="primary" onClick={() => editor.show(null)}>
      Add Expense
    </Button>
  );

  return (
    <>
      {info && expenses.length > 0 ? (
        <>
          <div className="d-flex flex-wrap justify-content-between align-items-start gap-2 mb-3">
            <div>
              <h3 className="h5 mb-1">Total Monthly Expenses: {formatUsd(info.totalExpenses)}</h3>
              <p className="small text-body-secondary mb-0">
                A month counts weekly bills × 52 ÷ 12, every 2 weeks × 26 ÷ 12, every 3 months ÷ 3, yearly ÷ 12; ended bills not at all.
                {/* Money moved between the user's own accounts is no expense (decision 0043). */}
                {expenses.some((expense) => expense.toAccountId !== undefined) && ' Transfers to your other accounts are not counted.'}{' '}
                Sorted by {sort ? EXPENSE_SORT_LABELS[sort] : 'day, then name'}.
              </p>
            </div>
            <div className="d-flex gap-2">
              {addButton}
              <Button variant="outline-secondary" onClick={() => sorting.show(null)}>
                Sort
              </Button>
            </div>
          </div>
          <ExpensesTable
            accounts={accounts}
            expenses={expenses}
            today={todayIn(new Date())}
            onEdit={editor.show}
            onDelete={deletion.show}
          />
        </>
      ) : (
        // With no expenses the spec shows the add button alone.
        addButton
      )}
      <ExpenseDialog
        key={editor.session}
        show={editor.open}
        // The form edits the expense as the wire carries it (decision 0034).
        expense={editor.target && encodeExpense(editor.target)}
        accounts={accounts}
        onSave={save}
        onClose={editor.close}
      />
      <ConfirmDeleteDialog
        key={`delete-${deletion.session}`}
        show={deletion.open}
        title="Delete Expense"
        what="the expense"
        name={deletion.target?.name ?? ''}
        onConfirm={confirmDelete}
        onClose={deletion.close}
      />
      <SortExpensesDialog key={`sort-${sorting.session}`} show={sorting.open} sort={sort} onSave={saveSort} onClose={sorting.close} />
    </>
  );
}
