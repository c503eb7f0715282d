/**
 * Row order with creation order, and the balances derived from it: the running, current and
 * pending balances every ledger answer carries. The server answers with these, and the page applies
 * a write's changes with them (decision 0030). A module of its own, which nothing in the page's
 * first view imports, so the first view does not carry it (benchmark 4a).
 */
import { cents, type Cents } from './money.js';
import { compareDrafts, countedAmount, type DraftOrderKey, type LedgerBalances, type LedgerRow } from './ledger.js';

/** What row order reads of a row: its date, type and name, then its creation order. */
export type RowOrderKey = DraftOrderKey & Pick<LedgerRow, 'sequence'>;

/** Row order: date; on one date credits before debits; then name; then creation order. */
export function compareRows(a: RowOrderKey, b: RowOrderKey): number {
  return compareDrafts(a, b) || a.sequence - b.sequence;
}

/**
 * Running balance per row (opening plus every credit minus every debit up to and including it,
 * in row order); current balance counts CLEARED rows; pending balance counts PAID and CLEARED.
 * A row that does not count (no longer at the bank, isCounted) moves none of them.
 */
export function computeBalances(openingBalance: Cents, rows: readonly LedgerRow[]): LedgerBalances {
  const ordered = [...rows].sort(compareRows);
  let running = openingBalance as number;
  let current = openingBalance as number;
  let pending = openingBalance as number;
  const withBalance = ordered.map((row) => {
    const signed = countedAmount(row);
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
      bank: row.bank ?? null,
      balance: cents(running),
    };
  });
  return { currentBalance: cents(current), pendingBalance: cents(pending), rows: withBalance };
}

/** What lies before a stretch of row order (a block of rows): how many rows, and their signed sum. */
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
 * Where the rows named by `ids` stand in the whole ledger, from the rows of one unbroken stretch of
 * row order that holds them (a block, row-blocks.ts) and what lies before that stretch (issues 27
 * and 34): every row before the stretch comes first, so a row's index is their count plus its index
 * among the stretch's rows, and its running balance the opening, their signed sum and the stretch's
 * rows up to and including it. The same figures computeBalances gives over every row; a named row
 * that is not among them has no entry. One sort of the stretch's rows, whatever the number of ids.
 */
export function placeInBlock(
  openingBalance: Cents,
  blockRows: readonly LedgerRow[],
  ids: ReadonlySet<string>,
  before: RowsBefore,
): Map<string, RowPlace> {
  const places = new Map<string, RowPlace>();
  let signed = before.signed;
  for (const [index, row] of [...blockRows].sort(compareRows).entries()) {
    signed += countedAmount(row);
    if (ids.has(row.id)) places.set(row.id, { position: before.rows + index, balance: cents(openingBalance + signed) });
  }
  return places;
}
