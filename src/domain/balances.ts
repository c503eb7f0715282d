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
