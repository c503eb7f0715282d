/**
 * A bank sync's plan written into a ledger (issue 37, decisions 0081 and 0082), inside the unit of
 * work the caller runs (LedgerWrites.run): the bank marks of ledger_transactions and the ledger's
 * closed keys (ledger_bank_closed_keys) are the ledger's tables, so only this module writes them.
 * Rows are added and changed through the store, which keeps the row limit, month totals, row
 * blocks, versions and the card and transfer followers in step, and sets the marks with them.
 */
import type { ClosedBankKey } from '../../domain/bank-sync/bank-rows.js';
import type { BankSyncPlan } from '../../domain/bank-sync/sync-plan.js';
import type { BankMarkWrite } from './closed-bank-key-rows.js';
import type { LedgerStore } from './ledger-store.js';
import type { StoredRow } from './transaction-rows.js';

export interface BankLedger {
  /** Each with its bank mark, as every read of a row has it. */
  readonly rows: readonly StoredRow[];
  readonly closed: readonly ClosedBankKey[];
}

/** The ledger's rows with their bank marks, and its closed keys, as the locked store sees them. */
export async function readBankLedger(store: LedgerStore): Promise<BankLedger> {
  const [rows, closed] = await Promise.all([store.rows(), store.closedBankKeys()]);
  return { rows, closed };
}

/**
 * Writes one account's plan into its ledger's store: rows added (CLEARED when posted, PAID while
 * pending) with their marks, each change through the store (statuses and amounts as the bank has
 * them, bypassing the hand-edit rules as a statement's matches do) with its mark (a mark that changes
 * moves the ledger's version, and a row no longer at the bank leaves every balance: decision 0084),
 * and the closed keys stored insert-or-replace by key. False when a row changed since it was read
 * (under the lock it cannot, but the store says so rather than write over it).
 */
export async function writeBankPlan(store: LedgerStore, ledger: BankLedger, plan: BankSyncPlan): Promise<boolean> {
  const byId = new Map(ledger.rows.map((row) => [row.id, row]));
  const marks: BankMarkWrite[] = [];
  for (const change of plan.changed) {
    const row = byId.get(change.rowId);
    if (!row) throw new Error(`bank plan names row ${change.rowId}, not in the ledger`);
    if (change.changes && !(await store.update(row, change.changes, false))) return false;
    // The row as the update left it: its mark's write sees what its month and block now count.
    marks.push({ row: change.changes ? { ...row, ...change.changes, version: row.version + 1 } : row, bank: change.bank });
  }
  for (const status of ['CLEARED', 'PAID'] as const) {
    const adding = plan.added.filter((row) => row.status === status);
    // Each stored with its mark, so it counts as it should from the start.
    await store.insert(
      adding.map(({ date, name, type, amount, bank }) => ({ date, name, type, amount, bank })),
      status,
      'import',
    );
  }
  await store.setBankMarks(marks);
  for (const closed of plan.close) await store.closeBankKey(closed);
  return true;
}
