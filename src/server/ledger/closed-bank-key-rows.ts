/**
 * A ledger's closed bank keys (ledger_bank_closed_keys) and a row's bank mark, as a row's delete and
 * the ledger's deletes see them (decision 0081): a bank row deleted closes its key in the same write.
 */
import { BANK_STATES, type BankMark, type ClosedBankKey } from '../../domain/bank-sync/bank-rows.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import { withLedgerTables } from '../db/ledger-tables.js';
import type { LedgerScope } from './ledger-record.js';

/** The row's bank mark, or null for a row the bank never touched. */
export async function readBankMark({ db, owner }: LedgerScope, ledgerId: string, rowId: string): Promise<BankMark | null> {
  const found = await withLedgerTables(db)
    .selectFrom('ledger_transactions')
    .select(['bank_account_id', 'bank_transaction_id', 'bank_state', 'bank_missing_since'])
    .where('id', '=', rowId)
    .where('ledger_id', '=', ledgerId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .executeTakeFirst();
  const state = BANK_STATES.find((each) => each === found?.bank_state);
  if (!found || state === undefined || found.bank_account_id === null || found.bank_transaction_id === null) return null;
  return {
    key: { account: found.bank_account_id, transaction: found.bank_transaction_id },
    state,
    missingSince: found.bank_missing_since as IsoDate | null,
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
    .values({
      ledger_id: ledgerId,
      owner_iss: owner.issuer,
      owner_sub: owner.subject,
      bank_account_id: closed.key.account,
      bank_transaction_id: closed.key.transaction,
      reason: closed.reason,
      pending_date: closed.pending?.date ?? null,
      pending_type: closed.pending?.type ?? null,
      pending_amount_cents: closed.pending?.amount ?? null,
    })
    .execute();
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
