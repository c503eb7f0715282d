import { DataTable, ESTIMATED_DATA_ROW_HEIGHT } from '../../components/data-table.js';
import { useRowsOnFirstScreen } from '../../components/use-after-first-frame.js';
import type { ExpenseView } from '../../../contract/codecs.js';
import { formatDate, type IsoDate } from '../../../domain/calendar-date.js';
import { formatUsd } from '../../../domain/money.js';
import { EXPENSE_FREQUENCY_LABELS } from '../../../domain/schedules.js';
import { EditDeleteCell, EditDeleteHeader } from '../../components/edit-delete-column.js';
import { accountChoices, type ScheduleAccount, scheduleAccountName } from '../../components/schedule-account.js';
import { expenseDayText } from './expense-day-text.js';

interface ExpensesTableProps {
  /** In the order to show. */
  readonly expenses: readonly ExpenseView[];
  /** Expenses that ended before this date are marked: the monthly total leaves them out. */
  readonly today: IsoDate;
  /** The user's accounts: with more than one, an Account column names each expense's ("Checking to Savings" for a recurring transfer). */
  readonly accounts?: readonly ScheduleAccount[] | null | undefined;
  readonly onEdit: (expense: ExpenseView) => void;
  readonly onDelete: (expense: ExpenseView) => void;
}

export function ExpensesTable({ expenses, accounts, today, onEdit, onDelete }: ExpensesTableProps) {
  const choices = accountChoices(accounts);
  const { bodyRef, shownRows } = useRowsOnFirstScreen<HTMLTableSectionElement>(expenses.length, 'expenses', ESTIMATED_DATA_ROW_HEIGHT);
  return (
    <DataTable responsive className="mb-0 align-middle">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Frequency</th>
          <th scope="col">Day</th>
          <th scope="col">Amount</th>
          <th scope="col">End Date</th>
          {choices && <th scope="col">Account</th>}
          <EditDeleteHeader />
        </tr>
      </thead>
      <tbody ref={bodyRef}>
        {expenses.slice(0, shownRows).map((expense) => (
          <tr key={expense.id}>
            <th scope="row">{expense.name}</th>
            <td>{expense.type}</td>
            <td>{EXPENSE_FREQUENCY_LABELS[expense.frequency]}</td>
            <td>{expenseDayText(expense)}</td>
            <td className="text-end">{formatUsd(expense.amount)}</td>
            <td>
              <EndDate endDate={expense.endDate} today={today} />
            </td>
            {choices && (
              <td>
                {scheduleAccountName(choices, expense.accountId)}
                {expense.toAccountId !== undefined && ` to ${scheduleAccountName(choices, expense.toAccountId)}`}
              </td>
            )}
            <EditDeleteCell name={expense.name} onEdit={() => onEdit(expense)} onDelete={() => onDelete(expense)} />
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

function EndDate({ endDate, today }: { readonly endDate: IsoDate | null; readonly today: IsoDate }) {
  if (endDate === null) return <span className="text-body-secondary">No end</span>;
  return (
    <>
      <time dateTime={endDate}>{formatDate(endDate)}</time>
      {endDate < today && (
        <>
          {' '}
          <span className="badge text-bg-secondary">Ended</span>
        </>
      )}
    </>
  );
}
