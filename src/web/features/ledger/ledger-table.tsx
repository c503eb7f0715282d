/** The ledger at 1100 px and wider: one table row per transaction (SPEC.md section 2). */
import { memo } from 'react';
import { DataTable } from '../../components/data-table.js';
import type { LedgerTransaction } from '../../../contract/ledger.js';
import { formatUsdDollars } from '../../../domain/money.js';
import { RowActions, type RowActionHandlers } from './row-actions.js';
import { isSameRow, type LedgerRowProps, rowClassName } from './row-look.js';
import { StatusBadge } from './status-badge.js';

interface LedgerTableProps {
  readonly transactions: readonly LedgerTransaction[];
  readonly actions: RowActionHandlers;
}

export function LedgerTable({ transactions, actions }: LedgerTableProps) {
  return (
    <DataTable className="ledger-table">
      {/* Fixed column widths let the browser lay out 1,800 rows without measuring every cell. */}
      <colgroup>
        <col className="ledger-table__date" />
        <col />
        <col className="ledger-table__money" />
        <col className="ledger-table__money" />
        <col className="ledger-table__money" />
        <col className="ledger-table__actions" />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Name</th>
          <th scope="col" className="text-end">
            Debit
          </th>
          <th scope="col" className="text-end">
            Credit
          </th>
          <th scope="col" className="text-end">
            Balance
          </th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {transactions.map((transaction) => (
          <LedgerTableRow key={transaction.id} transaction={transaction} actions={actions} />
        ))}
      </tbody>
    </DataTable>
  );
}

const LedgerTableRow = memo(function LedgerTableRow({ transaction, actions }: LedgerRowProps) {
  const amount = formatUsdDollars(transaction.amount);
  return (
    <tr className={rowClassName('ledger-row', transaction)}>
      <td>
        <time dateTime={transaction.date}>{transaction.date}</time>
      </td>
      <td>
        <span className="ledger-row__name">{transaction.name}</span> <StatusBadge status={transaction.status} />
      </td>
      <td className="text-end ledger-row__money">{transaction.type === 'D' ? amount : ''}</td>
      <td className="text-end ledger-row__money">{transaction.type === 'C' ? amount : ''}</td>
      <td className={`text-end ledger-row__money${transaction.balance < 0 ? ' ledger-negative' : ''}`}>{formatUsdDollars(transaction.balance)}</td>
      <td>
        <RowActions transaction={transaction} actions={actions} />
      </td>
    </tr>
  );
}, isSameRow);
