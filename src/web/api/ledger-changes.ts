/**
 * A changes answer (decision 0030) applied to the ledger the page holds. The balances come from
 * the domain's own computeBalances, the function the server answers with, over the rows in the
 * server's order; the result must agree with everything the server said (version, row count,
 * current and pending balances, each changed row's running balance), or it is not used and the
 * page reloads the whole ledger. So a Pay on a 2,000-row ledger moves a few hundred bytes, and the
 * page still ends exactly where a full reload would. Both sides are decoded (decision 0034): the
 * rows are already in Cents, so nothing is converted here.
 */
import * as z from 'zod/mini';
import { encodeLedger, encodeLedgerTransaction, ledgerCodec, type LedgerTransactionView, type LedgerView } from '../../contract/codecs.js';
import type { Ledger, LedgerTransaction } from '../../contract/ledger.js';
import type { LedgerChanges } from '../../contract/ledger-changes.js';
import { type ChangedTransactionView, ledgerChangesCodec, type LedgerChangesView } from '../../contract/ledger-changes-codec.js';
import type { LedgerWindowView } from '../../contract/ledger-window-codec.js';
import { bankOfBadge } from '../../domain/bank-sync/bank-rows.js';
import { countedAmount } from '../../domain/ledger.js';
import { ApiCallError } from './api-error.js';
import { LedgerReloadError } from './ledger-reload-error.js';
import type { HeldLedger, HeldLedgerInfo } from './api-request.js';
import { ledgerVersion, setLedgerVersion } from './ledger-version.js';
import { isLedgerWindow, rereadAs, rereadOf, wholeWhenComplete, withBalances } from './status-moves.js';

/** The row as the whole ledger answers it: the position only says where it goes. A side of a transfer keeps its link (decision 0043). */
function withoutPosition(row: ChangedTransactionView): LedgerTransactionView {
  const answered = {
    id: row.id,
    date: row.date,
    name: row.name,
    type: row.type,
    amount: row.amount,
    balance: row.balance,
    status: row.status,
    source: row.source,
  };
  return row.transfer ? { ...answered, transfer: row.transfer } : answered;
}

/** The rows in the server's order once the changes are in; null when the positions do not fit. */
function assemble(held: readonly LedgerTransactionView[], changes: LedgerChangesView): LedgerTransactionView[] | null {
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

/** Everything of a row but its status, as the whole ledger answers it: what a Pay or a Clear leaves alone. */
function sameButStatus(held: LedgerTransactionView, changed: ChangedTransactionView): boolean {
  return (
    held.id === changed.id &&
    held.date === changed.date &&
    held.name === changed.name &&
    held.type === changed.type &&
    held.amount === changed.amount &&
    held.balance === changed.balance &&
    JSON.stringify(held.source) === JSON.stringify(changed.source) &&
    JSON.stringify(held.transfer) === JSON.stringify(changed.transfer) &&
    held.bankBadge === changed.bankBadge &&
    held.fromBank === changed.fromBank
  );
}

/**
 * Changes that only moved the status of rows held (a Pay, a Clear), applied to `rows`, which start
 * at index `from` of the ledger: every changed row at the place it was, the same in all but its
 * status, nothing removed, the count and the ledger's own fields unchanged, and the current and
 * pending balances moved by exactly those rows (PRODUCT.md: opening plus the signed CLEARED, or PAID
 * and CLEARED, rows). No running balance moves, so nothing is sorted or summed again: a Pay on a
 * 20,000-row ledger costs what it does on a short one (issue 27). Null for any other changes.
 */
function statusMovesOnly<Held extends Omit<LedgerView, 'transactions'>>(
  held: Held,
  rows: readonly LedgerTransactionView[],
  from: number,
  count: number,
  changes: LedgerChangesView,
): LedgerTransactionView[] | null {
  if (changes.removed.length > 0 || changes.count !== count) return null;
  if (changes.startDate !== held.startDate || changes.endDate !== held.endDate || changes.openingBalance !== held.openingBalance)
    return null;
  let current: number = held.currentBalance;
  let pending: number = held.pendingBalance;
  const moved = [...rows];
  for (const changed of changes.rows) {
    const before = rows[changed.position - from];
    if (before === undefined || !sameButStatus(before, changed)) return null;
    // A row no longer at the bank moves no balance, whatever its status (isCounted).
    const signed = countedAmount({ type: before.type, amount: before.amount, bank: bankOfBadge(before.bankBadge) });
    current += (changed.status === 'CLEARED' ? signed : 0) - (before.status === 'CLEARED' ? signed : 0);
    pending += (changed.status === 'PENDING' ? 0 : signed) - (before.status === 'PENDING' ? 0 : signed);
    moved[changed.position - from] = withoutPosition(changed);
  }
  return current === changes.currentBalance && pending === changes.pendingBalance ? moved : null;
}

/**
 * A window of the ledger (decision 0053) after a Pay or a Clear of rows it holds; null for other
 * changes, or changes based on another version: then the window is read again.
 */
export function applyWindowChanges(held: LedgerWindowView, changes: LedgerChangesView): LedgerWindowView | null {
  if (ledgerVersion(held) !== changes.basedOn) return null;
  const transactions = statusMovesOnly(held, held.transactions, held.from, held.count, changes);
  if (transactions === null) return null;
  const window: LedgerWindowView = {
    ...held,
    currentBalance: changes.currentBalance,
    pendingBalance: changes.pendingBalance,
    transactions,
  };
  setLedgerVersion(window, changes.version);
  rereadAs(window, held);
  return window;
}

/**
 * The ledger after the changes, or null when they are not based on the version held (another
 * write came between) or anything does not add up: then only a full reload is sure.
 */
export function applyDecodedChanges(held: LedgerView, changes: LedgerChangesView): LedgerView | null {
  if (ledgerVersion(held) !== changes.basedOn) return null;
  const moved = statusMovesOnly(held, held.transactions, 0, held.transactions.length, changes);
  if (moved !== null) {
    const ledger: LedgerView = {
      ...held,
      currentBalance: changes.currentBalance,
      pendingBalance: changes.pendingBalance,
      transactions: moved,
    };
    setLedgerVersion(ledger, changes.version);
    return ledger;
  }
  const rows = assemble(held.transactions, changes);
  if (rows === null) return null;
  const balanced = withBalances(changes.openingBalance, rows);
  if (balanced === null || balanced.currentBalance !== changes.currentBalance || balanced.pendingBalance !== changes.pendingBalance)
    return null;
  const { transactions } = balanced;
  // A changed row's balance that differs from the server's own: not sure.
  const serverBalance = new Map(changes.rows.map((row) => [row.id, row.balance]));
  for (const row of transactions) {
    const expected = serverBalance.get(row.id);
    if (expected !== undefined && expected !== row.balance) return null;
  }
  const ledger: LedgerView = {
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
 * The same for a ledger and changes as the wire carries them (a script's; the API tests run the
 * page's code this way): decoded with the contract's codecs, applied as above, encoded back. A row
 * the changes leave alone is the very object it was. Null also when either does not decode.
 */
export function applyLedgerChanges(held: Ledger, changes: LedgerChanges): Ledger | null {
  const heldView = z.safeDecode(ledgerCodec, held);
  const changesView = z.safeDecode(ledgerChangesCodec, { changes });
  if (!heldView.success || !changesView.success) return null;
  const version = ledgerVersion(held);
  if (version !== undefined) setLedgerVersion(heldView.data, version);
  const applied = applyDecodedChanges(heldView.data, changesView.data.changes);
  if (applied === null) return null;
  const heldRows = new Map<LedgerTransactionView, LedgerTransaction | undefined>(
    heldView.data.transactions.map((row, index) => [row, held.transactions[index]]),
  );
  // The ledger's own fields, encoded; its rows one by one, so the untouched ones stay the held objects.
  const ledger: Ledger = encodeLedger(
    applied,
    applied.transactions.map((row) => heldRows.get(row) ?? encodeLedgerTransaction(row)),
  );
  setLedgerVersion(ledger, changes.version);
  return ledger;
}

/**
 * A write of one row as the page makes it: `send` asks for the changes only; they are applied to
 * the ledger held when the answer arrives, or the whole ledger is reloaded. A reload that fails
 * after the write went through is a LedgerReloadError.
 */
export async function writeWithChanges(
  send: (answer: typeof ledgerChangesCodec) => Promise<{ changes: LedgerChangesView }>,
  held: HeldLedger,
  reload: () => Promise<HeldLedgerInfo>,
): Promise<HeldLedgerInfo> {
  const { changes } = await send(ledgerChangesCodec);
  const current = held();
  if (current !== null && isLedgerWindow(current)) {
    // A window takes in the Pays and Clears of its rows; anything else reads the same window again.
    const window = applyWindowChanges(current, changes);
    if (window !== null) return { window };
    const reread = rereadOf(current);
    return reloadAfterWrite(async () => wholeWhenComplete(await (reread ? reread() : reload())));
  }
  const applied = current === null ? null : applyDecodedChanges(current, changes);
  if (applied !== null) return { ledger: applied };
  return reloadAfterWrite(() => reload());
}

/** A reload after a write that went through: its failure is a LedgerReloadError. */
async function reloadAfterWrite(reload: () => Promise<HeldLedgerInfo>): Promise<HeldLedgerInfo> {
  try {
    return await reload();
  } catch (error) {
    throw error instanceof ApiCallError ? new LedgerReloadError(error.operation, error.status, error.detail, error.fields) : error;
  }
}
