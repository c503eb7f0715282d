import { DataTable, ESTIMATED_DATA_ROW_HEIGHT } from '../../components/data-table.js';
import { useRowsOnFirstScreen } from '../../components/use-after-first-frame.js';
import type { DepositView } from '../../../contract/codecs.js';
import { formatDate } from '../../../domain/calendar-date.js';
import { formatUsd } from '../../../domain/money.js';
import { FREQUENCY_LABELS } from '../../../domain/schedules.js';
import { EditDeleteCell, EditDeleteHeader } from '../../components/edit-delete-column.js';
import { accountChoices, type ScheduleAccount, scheduleAccountName } from '../../components/schedule-account.js';

interface DepositsTableProps {
  readonly deposits: readonly DepositView[];
  /** The user's accounts: with more than one, an Account column names each deposit's. */
  readonly accounts?: readonly ScheduleAccount[] | null | undefined;
  readonly onEdit: (deposit: DepositView) => void;
  readonly onDelete: (deposit: DepositView) => void;
}

export function DepositsTable({ deposits, accounts, onEdit, onDelete }: DepositsTableProps) {
  const choices = accountChoices(accounts);
  const { bodyRef, shownRows } = useRowsOnFirstScreen<HTMLTableSectionElement>(deposits.length, 'deposits', ESTIMATED_DATA_ROW_HEIGHT);
  return (
    <DataTable responsive className="mb-0 align-middle">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Type</th>
          <th scope="col">Day</th>
          <th scope="col">Amount</th>
          <th scope="col">Start Date</th>
          <th scope="col">Frequency</th>
          {choices && <th scope="col">Account</th>}
          <EditDeleteHeader />
        </tr>
      </thead>
      <tbody ref={bodyRef}>
        {deposits.slice(0, shownRows).map((deposit) => (
          <tr key={deposit.id}>
            <th scope="row">{deposit.name}</th>
            <td>{deposit.type}</td>
            <td>{deposit.day}</td>
            <td className="text-end">{formatUsd(deposit.amount)}</td>
            <td>
              <time dateTime={deposit.startDate}>{formatDate(deposit.startDate)}</time>
            </td>
            <td>
              {deposit.frequency} <span className="text-body-secondary small">– {FREQUENCY_LABELS[deposit.frequency]}</span>
            </td>
            {choices && <td>{scheduleAccountName(choices, deposit.accountId)}</td>}
            <EditDeleteCell name={deposit.name} onEdit={() => onEdit(deposit)} onDelete={() => onDelete(deposit)} />
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
