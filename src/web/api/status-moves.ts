/**
 * The ledger the page shows while status moves are on their way (issue 24 item 3): the held
 * ledger with each Pay or Clear painted on its row, and the balances the domain's computeBalances
 * gives them, before the server answers. The held ledger itself never changes, so the answer's
 * changes still apply to the version they are based on (decision 0030), and a refusal shows the
 * held ledger again exactly. Also the balances step that applying a changes answer shares. Not in
 * the first view: the rows' chunk and the changes' chunk import it (benchmark 4a).
 */
import type { LedgerInfoView, LedgerTransactionView } from '../../contract/codecs.js';
import { computeBalances } from '../../domain/balances.js';
import { isAllowedStatusMove, type LedgerRow, type TransactionStatus } from '../../domain/ledger.js';
import type { Cents } from '../../domain/money.js';

export interface BalancedRows {
  readonly currentBalance: Cents;
  readonly pendingBalance: Cents;
  readonly transactions: LedgerTransactionView[];
}

/**
 * Rows in the server's order with the running, current and pending balances computeBalances gives
 * them; null when the domain would order them otherwise. A row whose balance did not move keeps
 * its object, so its memoized line is not drawn again.
 */
export function withBalances(openingBalance: Cents, rows: readonly LedgerTransactionView[]): BalancedRows | null {
  // The server's order already is row order; its index stands in for the creation order that breaks ties.
  const domainRows = rows.map((row, index): LedgerRow => ({
    id: row.id,
    sequence: index,
    date: row.date,
    name: row.name,
    type: row.type,
    amount: row.amount,
    status: row.status,
  }));
  const balances = computeBalances(openingBalance, domainRows);
  const transactions: LedgerTransactionView[] = [];
  for (const [index, computed] of balances.rows.entries()) {
    const row = rows[index];
    if (row === undefined || row.id !== computed.id) return null;
    transactions.push(row.balance === computed.balance ? row : { ...row, balance: computed.balance });
  }
  return { currentBalance: balances.currentBalance, pendingBalance: balances.pendingBalance, transactions };
}

/**
 * The held ledger with the status moves on their way (by row id) painted on it. Only a move the
 * domain allows from the row's held status is painted (one the server made meanwhile, or one it
 * will refuse, is not); with none to paint, the very `info` held.
 */
export function paintStatusMoves(info: LedgerInfoView, moves: ReadonlyMap<string, TransactionStatus>): LedgerInfoView {
  const held = info.ledger;
  if (held === null || moves.size === 0) return info;
  let painted = false;
  const rows = held.transactions.map((row) => {
    const status = moves.get(row.id);
    if (status === undefined || status === row.status || !isAllowedStatusMove(row.status, status)) return row;
    painted = true;
    return { ...row, status };
  });
  const balanced = painted ? withBalances(held.openingBalance, rows) : null;
  return balanced === null ? info : { ...info, ledger: { ...held, ...balanced } };
}
