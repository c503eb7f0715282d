/** A ledger's transaction rows as written one at a time: change, delete, or clear them all. */
import { type Expression, expressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { LedgerRow } from '../../domain/ledger.js';
import type { RowChanges } from '../../domain/transaction-rules.js';
import type { Caller } from '../auth/access-token.js';
import { ownerColumns } from '../db/owner.js';
import type { DatabaseSchema } from '../db/schema.js';
import type { LedgerScope } from './ledger-record.js';

export interface StoredRow extends LedgerRow {
  /** Raised on every change; a write names the version it read so a lost update cannot go unnoticed. */
  readonly version: number;
}

/**
 * The owner's rows of one ledger, as a filter for any query on ledger_transactions. The ledger may
 * be named by a reference to it, when the rows are read along with their ledger.
 */
export function rowsOf(owner: Caller, ledgerId: string | RawBuilder<string>): Expression<SqlBool> {
  return expressionBuilder<DatabaseSchema, 'ledger_transactions'>().and({ ledger_id: ledgerId, ...ownerColumns(owner) });
}

/** False when the row changed since it was read (its version moved on); nothing is written then. */
export async function updateRow({ db, owner }: LedgerScope, ledgerId: string, row: StoredRow, changes: RowChanges): Promise<boolean> {
  const result = await db
    .updateTable('ledger_transactions')
    .set({
      date: changes.date,
      name: changes.name,
      amount_cents: changes.amount,
      status: changes.status,
      version: row.version + 1,
    })
    .where(rowsOf(owner, ledgerId))
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** False when the row changed since it was read, like updateRow. */
export async function deleteRow({ db, owner }: LedgerScope, ledgerId: string, row: StoredRow): Promise<boolean> {
  const result = await db
    .deleteFrom('ledger_transactions')
    .where(rowsOf(owner, ledgerId))
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .executeTakeFirst();
  return result.numDeletedRows === 1n;
}

export async function deleteAllRows({ db, owner }: LedgerScope, ledgerId: string): Promise<void> {
  await db.deleteFrom('ledger_transactions').where(rowsOf(owner, ledgerId)).execute();
}
