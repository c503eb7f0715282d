/** The ledger under 1100 px: a compact row per transaction with name, date, amount and balance. */
import { memo } from 'react';
import type { LedgerTransaction } from '../../../contract/ledger.js';
import { formatUsdDollars } from '../../../domain/money.js';
import { TYPE_LABELS } from './ledger-format.js';
import { RowActions, type RowActionHandlers } from './row-actions.js';
import { isSameRow, type LedgerRowProps, rowClassName } from './row-look.js';
import { StatusBadge } from './status-badge.js';

interface LedgerCompactListProps {
  readonly transactions: readonly LedgerTransaction[];
  readonly actions: RowActionHandlers;
}

export function LedgerCompactList({ transactions, actions }: LedgerCompactListProps) {
  return (
    <ul className="ledger-compact list-unstyled mb-0" aria-label="Transactions">
      {transactions.map((transaction) => (
        <LedgerCompactRow key={transaction.id} transaction={transaction} actions={actions} />
      ))}
    </ul>
  );
}

const LedgerCompactRow = memo(function LedgerCompactRow({ transaction, actions }: LedgerRowProps) {
  const sign = transaction.type === 'D' ? '-' : '+';
  return (
    <li className={rowClassName('ledger-compact__row ledger-row', transaction)} data-testid="ledger-compact-row">
      <div className="ledger-compact__line">
        <span className="ledger-row__name fw-semibold">{transaction.name}</span>
        <span className="ledger-row__money">
          {/* The sign says debit or credit on screen; the word says it to a screen reader. */}
          <span className="visually-hidden">{TYPE_LABELS[transaction.type]} </span>
          <span aria-hidden="true">{sign}</span>
          {formatUsdDollars(transaction.amount)}
        </span>
      </div>
      <div className="ledger-compact__line small">
        <span>
          <time dateTime={transaction.date}>{transaction.date}</time> <StatusBadge status={transaction.status} />
        </span>
        <span className={`ledger-row__money${transaction.balance < 0 ? ' ledger-negative' : ''}`}>Balance {formatUsdDollars(transaction.balance)}</span>
      </div>
      <RowActions transaction={transaction} actions={actions} />
    </li>
  );
}, isSameRow);
