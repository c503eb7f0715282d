/**
 * The ledger at 1100 px and wider: one table row per transaction (SPEC.md section 2). Only the
 * rows near the viewport are in the DOM, between spacer rows as tall as the rows they stand for:
 * painting 2,000 rows of buttons is what made a long ledger slow (docs/decisions/0010).
 */
import { memo } from 'react';
import { DataTable } from '../../../components/data-table.js';
import { formatDate } from '../../../../domain/calendar-date.js';
import { formatLedgerMoney } from '../ledger-format.js';
import type { LedgerItem } from './ledger-items.js';
import { PayPeriodHeading } from './pay-period-line.js';
import { RowActions, type RowActionHandlers } from './row-actions.js';
import { isSameRow, type LedgerRowProps, rowClassName } from './row-look.js';
import { BankBadge, StatusBadge } from './status-badge.js';
import { type RowNumbering, useWindowedRows, windowedRows } from '../window/use-row-window.js';

interface LedgerTableProps {
  /** The pay periods' lines and the shown rows, in order. */
  readonly items: readonly LedgerItem[];
  readonly actions: RowActionHandlers;
  /** A window of the ledger (decision 0053): every item of the whole ledger, of which `items` are the first. */
  readonly itemCount?: number | undefined;
  readonly onPastLoaded?: (() => void) | undefined;
}

/**
 * A row at the default font size: one line of text beside Bootstrap's small buttons (ledger.css
 * keeps every row to one line). The hook measures the real height from the rendered rows.
 */
export const ESTIMATED_TABLE_ROW_HEIGHT = 48;
const COLUMN_COUNT = 6;
/** The header row is row 1 for assistive technology, so the row at index 0 is row 2. */
const TABLE_ROW_NUMBERING: RowNumbering = { attribute: 'aria-rowindex', first: 2 };

export function LedgerTable({ items, actions, itemCount, onPastLoaded }: LedgerTableProps) {
  const rowCount = itemCount ?? items.length;
  const { containerRef, segments, onFocus, onBlur } = useWindowedRows<HTMLTableSectionElement>(items, {
    estimatedRowHeight: ESTIMATED_TABLE_ROW_HEIGHT,
    numbering: TABLE_ROW_NUMBERING,
    itemCount,
    onPastLoaded,
  });

  return (
    <DataTable className="ledger-table" striped={false} rowCount={rowCount + 1}>
      {/* Fixed column widths: the browser lays out the rows without measuring every cell. */}
      <colgroup>
        <col className="ledger-table__date" />
        <col />
        <col className="ledger-table__money" />
        <col className="ledger-table__money" />
        <col className="ledger-table__money" />
        <col className="ledger-table__actions" />
      </colgroup>
      <thead>
        <tr aria-rowindex={1}>
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
      <tbody ref={containerRef} onFocus={onFocus} onBlur={onBlur}>
        {windowedRows(
          segments,
          items,
          (item, index) =>
            item.kind === 'period' ? (
              <tr key={item.key} className="ledger-period" aria-rowindex={index + TABLE_ROW_NUMBERING.first}>
                <td colSpan={COLUMN_COUNT}>
                  <PayPeriodHeading period={item.period} layout="table" />
                </td>
              </tr>
            ) : (
              <LedgerTableRow key={item.key} transaction={item.transaction} actions={actions} index={index} />
            ),
          (key, height) => (
            <tr key={key} className="ledger-spacer" aria-hidden="true">
              <td colSpan={COLUMN_COUNT} style={{ height }} />
            </tr>
          ),
        )}
      </tbody>
    </DataTable>
  );
}

interface LedgerTableRowProps extends LedgerRowProps {
  /** The row's place among the shown rows, from 0: its row number and its stripe. */
  readonly index: number;
}

function isSameTableRow(previous: LedgerTableRowProps, next: LedgerTableRowProps): boolean {
  return previous.index === next.index && isSameRow(previous, next);
}

const LedgerTableRow = memo(function LedgerTableRow({ transaction, actions, index }: LedgerTableRowProps) {
  const amount = formatLedgerMoney(transaction.amount);
  // Stripes follow the row's index, not its place among the DOM's rows, which spacers shift.
  const stripe = index % 2 === 0 ? ' ledger-row--striped' : '';
  return (
    <tr className={rowClassName('ledger-row', transaction) + stripe} aria-rowindex={index + TABLE_ROW_NUMBERING.first}>
      <td>
        <time dateTime={transaction.date}>{formatDate(transaction.date)}</time>
      </td>
      <td>
        {/* One line per row keeps every row the same height; the full name is in the title. */}
        <span className="ledger-row__name-cell">
          <span className="ledger-row__name" title={transaction.name}>
            {transaction.name}
          </span>{' '}
          <StatusBadge status={transaction.status} />
          <BankBadge badge={transaction.bankBadge} />
        </span>
      </td>
      <td className="text-end ledger-row__money">{transaction.type === 'D' ? amount : ''}</td>
      <td className="text-end ledger-row__money">{transaction.type === 'C' ? amount : ''}</td>
      <td className={`text-end ledger-row__money${transaction.balance < 0 ? ' ledger-negative' : ''}`}>
        {formatLedgerMoney(transaction.balance)}
      </td>
      <td>
        <RowActions transaction={transaction} actions={actions} />
      </td>
    </tr>
  );
}, isSameTableRow);
