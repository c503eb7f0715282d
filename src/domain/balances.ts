/**
 * Row order with creation order, and the balances derived from it: the running, current and
 * pending balances every ledger answer carries. The server answers with these, and the page applies
 * a write's changes with them (decision 0030). A module of its own, which nothing in the page's
 * first view imports, so the first view does not carry it (benchmark 4a).
 */
import { cents, type Cents } from './money.js';
import { compareDrafts, type LedgerBalances, type LedgerRow, signedAmount } from './ledger.js';

/** Row order: date; on one date credits before debits; then name; then creation order. */
export function compareRows(a: LedgerRow, b: LedgerRow): number {
  return compareDrafts(a, b) || a.sequence - b.sequence;
}

/**
 * Running balance per row (opening plus every credit minus every debit up to and including it,
 * in row order); current balance counts CLEARED rows; pending balance counts PAID and CLEARED.
 */
export function computeBalances(openingBalance: Cents, rows: readonly LedgerRow[]): LedgerBalances {
  const ordered = [...rows].sort(compareRows);
  let running = openingBalance as number;
  let current = openingBalance as number;
  let pending = openingBalance as number;
  const withBalance = ordered.map((row) => {
    const signed = signedAmount(row);
    running += signed;
    if (row.status === 'CLEARED') current += signed;
    if (row.status !== 'PENDING') pending += signed;
    // Spelled out rather than spread: on a 1,000-row answer the spread alone costs more than a
    // whole bare request, and it builds slower objects for every later step.
    return {
      id: row.id,
      sequence: row.sequence,
      date: row.date,
      name: row.name,
      type: row.type,
      amount: row.amount,
      status: row.status,
      source: row.source ?? null,
      transfer: row.transfer ?? null,
      balance: cents(running),
    };
  });
  return { currentBalance: cents(current), pendingBalance: cents(pending), rows: withBalance };
}

/** What lies before a month in row order: how many rows, and their signed sum. */
export interface RowsBefore {
  readonly rows: number;
  readonly signed: number;
}

/** A row's index in row order and its running balance. */
export interface RowPlace {
  readonly position: number;
  readonly balance: Cents;
}

/**
 * Where the rows named by `ids` stand in the whole ledger, from the rows of their month alone and
 * what lies before that month (issue 27): rows of earlier months all come first in row order, so a
 * row's index is theirs plus its index among its month's rows, and its running balance the opening,
 * their signed sum and its month's rows up to and including it. The same figures computeBalances
 * gives over every row; a named row that is not among them has no entry. One sort of the month's
 * rows, whatever the number of ids.
 */
export function placeInMonth(
  openingBalance: Cents,
  monthRows: readonly LedgerRow[],
  ids: ReadonlySet<string>,
  before: RowsBefore,
): Map<string, RowPlace> {
  const places = new Map<string, RowPlace>();
  let signed = before.signed;
  for (const [index, row] of [...monthRows].sort(compareRows).entries()) {
    signed += signedAmount(row);
    if (ids.has(row.id)) places.set(row.id, { position: before.rows + index, balance: cents(openingBalance + signed) });
  }
  return places;
}
