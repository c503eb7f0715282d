/**
 * A bank sync's plan written into a ledger (issue 37, decisions 0081 and 0082), inside the unit of
 * work the caller runs (LedgerWrites.run): the bank marks of ledger_transactions and the ledger's
 * closed keys (ledger_bank_closed_keys) are the ledger's tables, so only this module writes them.
 * Rows are added and changed through the store, which keeps the row limit, month totals, row
 * blocks, versions and the card and transfer followers in step; the marks are set beside them.
 */
import { BANK_STATES, type BankLedgerRow, type BankMark, type BankState, type ClosedBankKey } from '../../domain/bank-sync/bank-rows.js';
import type { BankSyncPlan } from '../../domain/bank-sync/sync-plan.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import type { TransactionType } from '../../domain/ledger.js';
import { cents } from '../../domain/money.js';
import type { Caller } from '../auth/access-token.js';
import { withLedgerTables } from '../db/ledger-tables.js';
import type { LedgerStore } from './ledger-store.js';
import type { StoredRow } from './transaction-rows.js';

/** Marks are set in slices, so no statement carries thousands of parameters. */
const MARK_SLICE = 200;

export interface BankLedger {
  readonly rows: readonly (StoredRow & BankLedgerRow)[];
  readonly closed: readonly ClosedBankKey[];
}

function stateOf(text: string | null): BankState | null {
  return BANK_STATES.find((state) => state === text) ?? null;
}

/** The ledger's rows with their bank marks, and its closed keys, as the locked store sees them. */
export async function readBankLedger(store: LedgerStore, owner: Caller): Promise<BankLedger> {
  const ledger = store.require();
  const db = withLedgerTables(store.db);
  const [rows, marks, closed] = await Promise.all([
    store.rows(),
    db
      .selectFrom('ledger_transactions')
      .select(['id', 'bank_account_id', 'bank_transaction_id', 'bank_state', 'bank_missing_since'])
      .where('ledger_id', '=', ledger.id)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .where('bank_account_id', 'is not', null)
      .execute(),
    db
      .selectFrom('ledger_bank_closed_keys')
      .selectAll()
      .where('ledger_id', '=', ledger.id)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .execute(),
  ]);
  const markOf = new Map<string, BankMark>();
  for (const mark of marks) {
    const state = stateOf(mark.bank_state);
    if (mark.bank_account_id === null || mark.bank_transaction_id === null || state === null) continue;
    markOf.set(mark.id, {
      key: { account: mark.bank_account_id, transaction: mark.bank_transaction_id },
      state,
      missingSince: mark.bank_missing_since as IsoDate | null,
    });
  }
  return {
    rows: rows.map((row) => ({ ...row, bank: markOf.get(row.id) ?? null })),
    closed: closed.map((key) => ({
      key: { account: key.bank_account_id, transaction: key.bank_transaction_id },
      reason: key.reason === 'replaced' ? 'replaced' : 'deleted',
      pending:
        key.pending_date !== null && key.pending_type !== null && key.pending_amount_cents !== null
          ? {
              date: key.pending_date as IsoDate,
              type: key.pending_type as TransactionType,
              amount: cents(Number(key.pending_amount_cents)),
            }
          : null,
    })),
  };
}

/** Sets the marks of rows of this ledger, by id. */
async function setMarks(
  store: LedgerStore,
  owner: Caller,
  marks: readonly { readonly id: string; readonly bank: BankMark }[],
): Promise<void> {
  const ledger = store.require();
  const db = withLedgerTables(store.db);
  for (let start = 0; start < marks.length; start += MARK_SLICE) {
    for (const { id, bank } of marks.slice(start, start + MARK_SLICE)) {
      await db
        .updateTable('ledger_transactions')
        .set({
          bank_account_id: bank.key.account,
          bank_transaction_id: bank.key.transaction,
          bank_state: bank.state,
          bank_missing_since: bank.missingSince,
        })
        .where('id', '=', id)
        .where('ledger_id', '=', ledger.id)
        .where('owner_iss', '=', owner.issuer)
        .where('owner_sub', '=', owner.subject)
        .execute();
    }
  }
}

/**
 * Writes one account's plan into its ledger's store: rows added (CLEARED when posted, PAID while
 * pending) with their marks, each change through the store (statuses and amounts as the bank has
 * them, bypassing the hand-edit rules as a statement's matches do) with its mark, and the closed keys
 * stored insert-or-replace by key. False when a row changed since it was read (under the lock it
 * cannot, but the store says so rather than write over it).
 */
export async function writeBankPlan(store: LedgerStore, owner: Caller, ledger: BankLedger, plan: BankSyncPlan): Promise<boolean> {
  const byId = new Map(ledger.rows.map((row) => [row.id, row]));
  const marks: { id: string; bank: BankMark }[] = [];
  for (const change of plan.changed) {
    const row = byId.get(change.rowId);
    if (!row) throw new Error(`bank plan names row ${change.rowId}, not in the ledger`);
    if (change.changes && !(await store.update(row, change.changes, false))) return false;
    marks.push({ id: row.id, bank: change.bank });
  }
  for (const status of ['CLEARED', 'PAID'] as const) {
    const adding = plan.added.filter((row) => row.status === status);
    const inserted = await store.insert(
      adding.map(({ date, name, type, amount }) => ({ date, name, type, amount })),
      status,
      'import',
    );
    // insert answers the rows in the order given.
    inserted.forEach((row, position) => marks.push({ id: row.id, bank: (adding[position] as (typeof adding)[number]).bank }));
  }
  await setMarks(store, owner, marks);
  for (const closed of plan.close) await store.closeBankKey(closed);
  return true;
}
