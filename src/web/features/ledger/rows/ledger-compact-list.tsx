/**
 * The ledger under 1100 px: a compact row per transaction with name, date, amount and balance.
 * Windowed like the table (docs/decisions/0010): only the rows near the viewport are in the DOM,
 * between spacers as tall as the rows they stand for.
 */
import { memo } from 'react';
import { formatDate } from '../../../../domain/calendar-date.js';
import type { LedgerItem } from './ledger-items.js';
import { PayPeriodHeading } from './pay-period-line.js';
import { formatLedgerMoney, TYPE_LABELS } from '../ledger-format.js';
import { RowActions, type RowActionHandlers } from './row-actions.js';
import { isSameRow, type LedgerRowProps, rowClassName } from './row-look.js';
import { BankBadge, StatusBadge } from './status-badge.js';
import { type RowNumbering, useWindowedRows, windowedRows } from '../window/use-row-window.js';

interface LedgerCompactListProps {
  /** The pay periods' lines and the shown rows, in order. */
  readonly items: readonly LedgerItem[];
  readonly actions: RowActionHandlers;
  /** A window of the ledger (decision 0053): every item of the whole ledger, of which `items` are the first. */
  readonly itemCount?: number | undefined;
  readonly onPastLoaded?: (() => void) | undefined;
}

/**
 * A row at the default font size from 576 px up: two lines of text and the buttons (ledger.css
 * keeps each line to one line, and stacks the second under 576 px). The hook measures the real
 * height from the rendered rows.
 */
export const ESTIMATED_COMPACT_ROW_HEIGHT = 121;
/** Each item says its place among all the rows, so a screen reader hears the whole list's size. */
const COMPACT_ROW_NUMBERING: RowNumbering = { attribute: 'aria-posinset', first: 1 };

export function LedgerCompactList({ items, actions, itemCount, onPastLoaded }: LedgerCompactListProps) {
  const rowCount = itemCount ?? items.length;
  const { containerRef, segments, onFocus, onBlur } = useWindowedRows<HTMLUListElement>(items, {
    estimatedRowHeight: ESTIMATED_COMPACT_ROW_HEIGHT,
    numbering: COMPACT_ROW_NUMBERING,
    itemCount,
    onPastLoaded,
  });

  return (
    <ul ref={containerRef} className="ledger-compact list-unstyled mb-0" aria-label="Transactions" onFocus={onFocus} onBlur={onBlur}>
      {windowedRows(
        segments,
        items,
        (item, index) =>
          item.kind === 'period' ? (
            <li
              key={item.key}
              className="ledger-compact__period"
              aria-posinset={index + COMPACT_ROW_NUMBERING.first}
              aria-setsize={rowCount}
            >
              <PayPeriodHeading period={item.period} layout="compact" />
            </li>
          ) : (
            <LedgerCompactRow key={item.key} transaction={item.transaction} actions={actions} index={index} rowCount={rowCount} />
          ),
        (key, height) => (
          <li key={key} className="ledger-compact__spacer" aria-hidden="true" style={{ height }} />
        ),
      )}
    </ul>
  );
}

interface LedgerCompactRowProps extends LedgerRowProps {
  /** The row's place among the shown rows, from 0. */
  readonly index: number;
  readonly rowCount: number;
}

function isSameCompactRow(previous: LedgerCompactRowProps, next: LedgerCompactRowProps): boolean {
  return previous.index === next.index && previous.rowCount === next.rowCount && isSameRow(previous, next);
}

const LedgerCompactRow = memo(function LedgerCompactRow({ transaction, actions, index, rowCount }: LedgerCompactRowProps) {
  const sign = transaction.type === 'D' ? '-' : '+';
  return (
    <li
      className={rowClassName('ledger-compact__row ledger-row', transaction)}
      data-testid="ledger-compact-row"
      aria-posinset={index + COMPACT_ROW_NUMBERING.first}
      aria-setsize={rowCount}
    >
      <div className="ledger-compact__line">
        <span className="ledger-row__name fw-semibold" title={transaction.name}>
          {transaction.name}
        </span>
        <span className="ledger-row__money">
          {/* The sign says debit or credit on screen; the word says it to a screen reader. */}
          <span className="visually-hidden">{TYPE_LABELS[transaction.type]} </span>
          <span aria-hidden="true">{sign}</span>
          {formatLedgerMoney(transaction.amount)}
        </span>
      </div>
      <div className="ledger-compact__line ledger-compact__line--status small">
        <span>
          <time dateTime={transaction.date}>{formatDate(transaction.date)}</time> <StatusBadge status={transaction.status} />
          <BankBadge badge={transaction.bankBadge} />
        </span>
        <span className={`ledger-row__money${transaction.balance < 0 ? ' ledger-negative' : ''}`}>
          Balance {formatLedgerMoney(transaction.balance)}
        </span>
      </div>
      <RowActions transaction={transaction} actions={actions} />
    </li>
  );
}, isSameCompactRow);
