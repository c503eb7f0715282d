import { DataTable } from '../../components/data-table.js';
import type { Deposit } from '../../../contract/deposits.js';
import { formatTableDate, type IsoDate } from '../../../domain/calendar-date.js';
import { formatUsdDollars } from '../../../domain/money.js';
import { FREQUENCY_LABELS } from '../../../domain/schedules.js';
import { EditDeleteCell, EditDeleteHeader } from '../../components/edit-delete-column.js';

interface DepositsTableProps {
  readonly deposits: readonly Deposit[];
  readonly onEdit: (deposit: Deposit) => void;
  readonly onDelete: (deposit: Deposit) => void;
}

export function DepositsTable({ deposits, onEdit, onDelete }: DepositsTableProps) {
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
          <EditDeleteHeader />
        </tr>
      </thead>
      <tbody>
        {deposits.map((deposit) => (
          <tr key={deposit.id}>
            <th scope="row">{deposit.name}</th>
            <td>{deposit.type}</td>
            <td>{deposit.day}</td>
            <td className="text-end">{formatUsdDollars(deposit.amount)}</td>
            <td>
              <time dateTime={deposit.startDate}>{formatTableDate(deposit.startDate as IsoDate)}</time>
            </td>
            <td>
              {deposit.frequency} <span className="text-body-secondary small">– {FREQUENCY_LABELS[deposit.frequency]}</span>
            </td>
            <EditDeleteCell name={deposit.name} onEdit={() => onEdit(deposit)} onDelete={() => onDelete(deposit)} />
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
