/**
 * A ledger's closed bank keys (ledger_bank_closed_keys) and a row's bank mark, as a row's delete and
 * the ledger's deletes see them (decision 0081): a bank row deleted closes its key in the same write.
 * A sync sets the marks here too, keeping the month totals and row blocks in step (decision 0084).
 */
import { type BankKey, type BankMark, CLOSED_BANK_KEY_REASONS, type ClosedBankKey } from '../../domain/bank-sync/bank-rows.js';
import { isoDate } from '../../domain/calendar-date.js';
import { isCounted, TRANSACTION_TYPES } from '../../domain/ledger.js';
import { cents } from '../../domain/money.js';
import { withLedgerTables } from '../db/ledger-tables.js';
import { storedValue } from '../db/stored-value.js';
import type { LedgerScope } from './ledger-record.js';
import { MonthTotalsChange, saveMonthTotals } from './month-totals.js';
import { planRowMove } from './row-blocks.js';
import type { StoredRow } from './transaction-rows.js';

/** A mark to set on a row: the row as stored now (with the mark it has, if any), and its new mark. */
export interface BankMarkWrite {
  readonly row: StoredRow;
  readonly bank: BankMark;
}

function sameMark(a: BankMark | null | undefined, b: BankMark): boolean {
  if (!a) return false;
  return (
    a.key.account === b.key.account && a.key.transaction === b.key.transaction && a.state === b.state && a.missingSince === b.missingSince
  );
}

/**
 * Sets the marks that changed; answers how many. A row that stops counting in the balances (no
 * longer at the bank) or counts again leaves or rejoins its month's totals and its block's sum in
 * the same write, so every balance read from them agrees with computeBalances over the rows.
 */
export async function writeBankMarks(scope: LedgerScope, ledgerId: string, marks: readonly BankMarkWrite[]): Promise<number> {
  const { owner } = scope;
  const db = withLedgerTables(scope.db);
  const totals = new MonthTotalsChange();
  let changed = 0;
  for (const { row, bank } of marks) {
    if (sameMark(row.bank, bank)) continue;
    changed += 1;
    await db
      .updateTable('ledger_transactions')
      // A new version, as any change of the row: an undo of an earlier write to it then refuses
      // rather than put back the mark it had before.
      .set((eb) => ({
        bank_account_id: bank.key.account,
        bank_transaction_id: bank.key.transaction,
        bank_state: bank.state,
        bank_missing_since: bank.missingSince,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', row.id)
      .where('ledger_id', '=', ledgerId)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .execute();
    const after = { ...row, bank };
    if (isCounted(row) === isCounted(after)) continue;
    totals.add(row, -1).add(after, 1);
    const move = await planRowMove(scope, ledgerId, row.id, row, after);
    // The ledger is locked and the row was just read in it: not finding it is a fault, not a race.
    if (move === undefined) throw new Error('a ledger row read under the ledger lock was not there to mark');
    await move.save();
  }
  await saveMonthTotals(scope, ledgerId, totals);
  return changed;
}

/** A closed key as its table stores it: one shape for a single close and a restore's batches. */
function closedKeyRecord(owner: LedgerScope['owner'], ledgerId: string, closed: ClosedBankKey) {
  return {
    ledger_id: ledgerId,
    owner_iss: owner.issuer,
    owner_sub: owner.subject,
    bank_account_id: closed.key.account,
    bank_transaction_id: closed.key.transaction,
    reason: closed.reason,
    pending_date: closed.pending?.date ?? null,
    pending_type: closed.pending?.type ?? null,
    pending_amount_cents: closed.pending?.amount ?? null,
    deleted_with_account_id: closed.deletedWith?.account ?? null,
    deleted_with_transaction_id: closed.deletedWith?.transaction ?? null,
  };
}

/** Stores a closed key, replacing one stored with the same key. */
export async function closeBankKey({ db, owner }: LedgerScope, ledgerId: string, closed: ClosedBankKey): Promise<void> {
  const ledger = withLedgerTables(db);
  await ledger
    .deleteFrom('ledger_bank_closed_keys')
    .where('ledger_id', '=', ledgerId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .where('bank_account_id', '=', closed.key.account)
    .where('bank_transaction_id', '=', closed.key.transaction)
    .execute();
  await ledger
    .insertInto('ledger_bank_closed_keys')
    .values(closedKeyRecord(owner, ledgerId, closed))
    .execute();
}

/** The ledger's closed keys, as a sync and an export read them. */
export async function listClosedBankKeys({ db, owner }: LedgerScope, ledgerId: string): Promise<ClosedBankKey[]> {
  const records = await withLedgerTables(db)
    .selectFrom('ledger_bank_closed_keys')
    .selectAll()
    .where('ledger_id', '=', ledgerId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .orderBy('bank_account_id')
    .orderBy('bank_transaction_id')
    .execute();
  return records.map((key) => ({
    key: { account: key.bank_account_id, transaction: key.bank_transaction_id },
    reason: storedValue(CLOSED_BANK_KEY_REASONS, key.reason, 'ledger_bank_closed_keys.reason'),
    pending:
      key.pending_date !== null && key.pending_type !== null && key.pending_amount_cents !== null
        ? {
            date: isoDate(key.pending_date),
            type: storedValue(TRANSACTION_TYPES, key.pending_type, 'ledger_bank_closed_keys.pending_type'),
            amount: cents(Number(key.pending_amount_cents)),
          }
        : null,
    ...(key.deleted_with_account_id !== null &&
      key.deleted_with_transaction_id !== null && {
        deletedWith: { account: key.deleted_with_account_id, transaction: key.deleted_with_transaction_id },
      }),
  }));
}

/** Closed keys per INSERT: 9 values each, far below either database's parameter limit. */
const RESTORE_BATCH = 500;

/** Stores a restored ledger's closed keys (decision 0084); the document was checked to name each key once. */
export async function restoreClosedBankKeys({ db, owner }: LedgerScope, ledgerId: string, keys: readonly ClosedBankKey[]): Promise<void> {
  for (let start = 0; start < keys.length; start += RESTORE_BATCH) {
    await withLedgerTables(db)
      .insertInto('ledger_bank_closed_keys')
      .values(keys.slice(start, start + RESTORE_BATCH).map((closed) => closedKeyRecord(owner, ledgerId, closed)))
      .execute();
  }
}

/**
 * Opens closed keys again: an undo put back the rows they were closed for (decision 0084), and with
 * each the keys of postings a sync closed with it since (a pending deleted, then posted under a new
 * id: decision 0086), so the next sync pairs that posting with the row put back.
 */
export async function reopenBankKeys({ db, owner }: LedgerScope, ledgerId: string, keys: readonly BankKey[]): Promise<void> {
  for (const key of keys) {
    await withLedgerTables(db)
      .deleteFrom('ledger_bank_closed_keys')
      .where('ledger_id', '=', ledgerId)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .where((eb) =>
        eb.or([
          eb.and([eb('bank_account_id', '=', key.account), eb('bank_transaction_id', '=', key.transaction)]),
          eb.and([eb('deleted_with_account_id', '=', key.account), eb('deleted_with_transaction_id', '=', key.transaction)]),
        ]),
      )
      .execute();
  }
}

/** Forgets a ledger's closed keys: the ledger goes (deleted, or detached and dropped). */
export async function forgetClosedBankKeys({ db, owner }: LedgerScope, ledgerId: string): Promise<void> {
  await withLedgerTables(db)
    .deleteFrom('ledger_bank_closed_keys')
    .where('ledger_id', '=', ledgerId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .execute();
}
