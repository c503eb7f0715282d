/**
 * Home's "Next 14 days" (issue 24): each row dated from today through 13 days later, with its date,
 * name, amount and status, and its Pay and Clear buttons, enabled only when the status rules allow.
 */
import type { LedgerTransactionView } from '../../contract/codecs.js';
import { formatDate } from '../../domain/calendar-date.js';
import { canClear, canPay, type TransactionStatus } from '../../domain/ledger.js';
import { formatUsd } from '../../domain/money.js';
import { Button } from '../components/button.js';
import { StatusBadge } from '../features/ledger/rows/status-badge.js';

interface UpcomingRowsProps {
  readonly rows: readonly LedgerTransactionView[];
  readonly onMove: (row: LedgerTransactionView, status: TransactionStatus) => void;
}

export function UpcomingRows({ rows, onMove }: UpcomingRowsProps) {
  if (rows.length === 0) return <p className="mb-0">Nothing is due in the next 14 days.</p>;
  return (
    <ul className="upcoming list-unstyled mb-0" aria-label="Next 14 days">
      {rows.map((row) => (
        <li key={row.id} className={`upcoming__row upcoming__row--${row.status.toLowerCase()}`}>
          <div className="upcoming__what">
            <time className="upcoming__date small text-body-secondary" dateTime={row.date}>
              {formatDate(row.date)}
            </time>
            <bdi className="upcoming__name fw-semibold">{row.name}</bdi>
          </div>
          <span className={row.type === 'C' ? 'upcoming__amount text-success' : 'upcoming__amount'}>
            {row.type === 'C' ? '+' : '−'}
            {formatUsd(row.amount)}
          </span>
          <StatusBadge status={row.status} />
          <div className="upcoming__actions">
            <Button
              size="sm"
              variant="outline-primary"
              aria-label={`Pay ${row.name}`}
              disabled={!canPay(row.status)}
              onClick={() => onMove(row, 'PAID')}
            >
              Pay
            </Button>
            <Button
              size="sm"
              variant="outline-success"
              aria-label={`Clear ${row.name}`}
              disabled={!canClear(row.status)}
              onClick={() => onMove(row, 'CLEARED')}
            >
              Clear
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
