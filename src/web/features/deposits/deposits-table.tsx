import { DataTable } from '../../components/data-table.js';
import type { DepositView } from '../../../contract/codecs.js';
import { formatDate } from '../../../domain/calendar-date.js';
import { formatUsd } from '../../../domain/money.js';
import { FREQUENCY_LABELS } from '../../../domain/schedules.js';
import { EditDeleteCell, EditDeleteHeader } from '../../components/edit-delete-column.js';

interface DepositsTableProps {
  readonly deposits: readonly DepositView[];
  readonly onEdit: (deposit: DepositView) => void;
  readonly onDelete: (deposit: DepositView) => void;
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
            <td className="text-end">{formatUsd(deposit.amount)}</td>
            <td>
              <time dateTime={deposit.startDate}>{formatDate(deposit.startDate)}</time>
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
