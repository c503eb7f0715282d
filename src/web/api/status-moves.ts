/**
 * The ledger the page shows while status moves are on their way (issue 24 item 3): the held
 * ledger with each Pay or Clear painted on its row, and the balances the domain's computeBalances
 * gives them, before the server answers. The held ledger itself never changes, so the answer's
 * changes still apply to the version they are based on (decision 0030), and a refusal shows the
 * held ledger again exactly. Also the balances step that applying a changes answer shares. Not in
 * the first view: the rows' chunk and the changes' chunk import it (benchmark 4a).
 */
import type { LedgerTransactionView } from '../../contract/codecs.js';
import { computeBalances } from '../../domain/balances.js';
import { isAllowedStatusMove, type LedgerRow, signedAmount, type TransactionStatus } from '../../domain/ledger.js';
import { type Cents, cents } from '../../domain/money.js';
import type { HeldLedgerInfo } from './api-client.js';

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
 * The held ledger (or window of it, decision 0053) with the status moves on their way (by row id)
 * painted on it. Only a move the domain allows from the row's held status is painted (one the server
 * made meanwhile, or one it will refuse, is not); with none to paint, the very `info` held. A status
 * moves no running balance, so only the current and pending balances move, by the row's signed amount
 * (opening plus the signed CLEARED, or PAID and CLEARED, rows: computeBalances' sums): nothing is
 * sorted or summed again, and a Pay on 20,000 rows costs what it does on 20 (issue 27).
 */
export function paintStatusMoves<Info extends HeldLedgerInfo>(info: Info, moves: ReadonlyMap<string, TransactionStatus>): Info {
  const held = 'window' in info ? info.window : info.ledger;
  if (held === null || moves.size === 0) return info;
  let current: number = held.currentBalance;
  let pending: number = held.pendingBalance;
  let painted = false;
  const transactions = held.transactions.map((row) => {
    const status = moves.get(row.id);
    if (status === undefined || status === row.status || !isAllowedStatusMove(row.status, status)) return row;
    painted = true;
    const signed = signedAmount(row);
    current += (status === 'CLEARED' ? signed : 0) - (row.status === 'CLEARED' ? signed : 0);
    pending += (status === 'PENDING' ? 0 : signed) - (row.status === 'PENDING' ? 0 : signed);
    return { ...row, status };
  });
  if (!painted) return info;
  const balances = { currentBalance: cents(current), pendingBalance: cents(pending), transactions };
  // The same kind of answer as held, with the painted rows and balances.
  const shown: HeldLedgerInfo = 'window' in info ? { window: { ...info.window, ...balances } } : { ...info, ledger: { ...held, ...balances } };
  return shown as Info;
}
