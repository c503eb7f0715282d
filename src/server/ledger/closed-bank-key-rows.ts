/** A ledger's closed bank keys (ledger_bank_closed_keys, decision 0081) as the ledger's deletes see them. */
import { withLedgerTables } from '../db/ledger-tables.js';
import type { LedgerScope } from './ledger-record.js';

/** Forgets a ledger's closed keys: the ledger goes (deleted, or detached and dropped). */
export async function forgetClosedBankKeys({ db, owner }: LedgerScope, ledgerId: string): Promise<void> {
  await withLedgerTables(db)
    .deleteFrom('ledger_bank_closed_keys')
    .where('ledger_id', '=', ledgerId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .execute();
}
