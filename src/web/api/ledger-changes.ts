/**
 * A changes answer (decision 0030) applied to the ledger the page holds. The balances come from
 * the domain's own computeBalances, the function the server answers with, over the rows in the
 * server's order; the result must agree with everything the server said (version, row count,
 * current and pending balances, each changed row's running balance), or it is not used and the
 * page reloads the whole ledger. So a Pay on a 2,000-row ledger moves a few hundred bytes, and the
 * page still ends exactly where a full reload would.
 */
import type { Ledger, LedgerInfo, LedgerTransaction } from '../../contract/ledger.js';
import { type ChangedTransaction, type LedgerChanges, ledgerChangesSchema } from '../../contract/ledger-changes.js';
import { computeBalances } from '../../domain/balances.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import type { LedgerRow } from '../../domain/ledger.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import { ApiCallError, type HeldLedger, LedgerReloadError } from './api-client.js';
import { ledgerVersion, setLedgerVersion } from './ledger-version.js';

/** The row as the whole ledger answers it: the position only says where it goes. */
function withoutPosition(row: ChangedTransaction): LedgerTransaction {
  return {
    id: row.id,
    date: row.date,
    name: row.name,
    type: row.type,
    amount: row.amount,
    balance: row.balance,
    status: row.status,
    source: row.source,
  };
}

/** The rows in the server's order once the changes are in; null when the positions do not fit. */
function assemble(held: readonly LedgerTransaction[], changes: LedgerChanges): LedgerTransaction[] | null {
  const replaced = new Set(changes.removed);
  for (const row of changes.rows) replaced.add(row.id);
  const rows = held.filter((transaction) => !replaced.has(transaction.id));
  // In position order, each lands where the server has it: the ones before it are already in place.
  for (const row of [...changes.rows].sort((a, b) => a.position - b.position)) {
    if (!Number.isInteger(row.position) || row.position < 0 || row.position > rows.length) return null;
    rows.splice(row.position, 0, withoutPosition(row));
  }
  return rows.length === changes.count ? rows : null;
}

/**
 * The ledger after the changes, or null when they are not based on the version held (another
 * write came between) or anything does not add up: then only a full reload is sure.
 */
export function applyLedgerChanges(held: Ledger, changes: LedgerChanges): Ledger | null {
  if (ledgerVersion(held) !== changes.basedOn) return null;
  const rows = assemble(held.transactions, changes);
  if (rows === null) return null;
  // The server's order already is row order; its index stands in for the creation order that breaks ties.
  const domainRows = rows.map((row, index): LedgerRow => ({
    id: row.id,
    sequence: index,
    date: row.date as IsoDate,
    name: row.name,
    type: row.type,
    amount: dollarsToCents(row.amount),
    status: row.status,
  }));
  const balances = computeBalances(dollarsToCents(changes.openingBalance), domainRows);
  if (
    balances.currentBalance !== dollarsToCents(changes.currentBalance) ||
    balances.pendingBalance !== dollarsToCents(changes.pendingBalance)
  ) {
    return null;
  }
  const serverBalance = new Map(changes.rows.map((row) => [row.id, row.balance]));
  const transactions: LedgerTransaction[] = [];
  for (const [index, computed] of balances.rows.entries()) {
    const row = rows[index];
    // A different order than the server's, or a changed row's balance that differs from its own: not sure.
    if (row === undefined || row.id !== computed.id) return null;
    const balance = centsToDollars(computed.balance);
    const expected = serverBalance.get(row.id);
    if (expected !== undefined && expected !== balance) return null;
    // A row whose balance did not move keeps its object, so its memoized line is not drawn again.
    transactions.push(row.balance === balance ? row : { ...row, balance });
  }
  const ledger: Ledger = {
    startDate: changes.startDate,
    endDate: changes.endDate,
    openingBalance: changes.openingBalance,
    currentBalance: changes.currentBalance,
    pendingBalance: changes.pendingBalance,
    transactions,
  };
  setLedgerVersion(ledger, changes.version);
  return ledger;
}

/**
 * A write of one row as the page makes it: `send` asks for the changes only; they are applied to
 * the ledger held when the answer arrives, or the whole ledger is reloaded. A reload that fails
 * after the write went through is a LedgerReloadError.
 */
export async function writeWithChanges(
  send: (answer: typeof ledgerChangesSchema) => Promise<{ changes: LedgerChanges }>,
  held: HeldLedger,
  reload: () => Promise<LedgerInfo>,
): Promise<LedgerInfo> {
  const { changes } = await send(ledgerChangesSchema);
  const current = held();
  const applied = current === null ? null : applyLedgerChanges(current, changes);
  if (applied !== null) return { ledger: applied };
  try {
    return await reload();
  } catch (error) {
    throw error instanceof ApiCallError ? new LedgerReloadError(error.operation, error.status, error.detail, error.fields) : error;
  }
}
