/** A ledger's transaction rows as written after they are stored: change, delete, or clear them. */
import { type Expression, expressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { SourcedRow } from '../../domain/ledger-projection.js';
import type { RowChanges } from '../../domain/transaction-rules.js';
import type { Caller } from '../auth/access-token.js';
import { ownerColumns } from '../db/owner.js';
import type { DatabaseSchema } from '../db/schema.js';
import type { LedgerScope } from './ledger-record.js';

export interface StoredRow extends SourcedRow {
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

/**
 * False when the row changed since it was read (its version moved on); nothing is written then.
 * `edits`: the date, name or amount changed, so a generated row no longer follows its schedule.
 */
export async function updateRow(
  { db, owner }: LedgerScope,
  ledgerId: string,
  row: StoredRow,
  changes: RowChanges,
  edits: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('ledger_transactions')
    .set({
      date: changes.date,
      name: changes.name,
      amount_cents: changes.amount,
      status: changes.status,
      version: row.version + 1,
      ...(edits && row.source ? { edited: 1 } : {}),
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

/** Rows of a locked ledger that a schedule change replaces; the lock means none changed since they were read. */
export async function deleteRows({ db, owner }: LedgerScope, ledgerId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('ledger_transactions').where(rowsOf(owner, ledgerId)).where('id', 'in', ids).execute();
}

export async function deleteAllRows({ db, owner }: LedgerScope, ledgerId: string): Promise<void> {
  await db.deleteFrom('ledger_transactions').where(rowsOf(owner, ledgerId)).execute();
}
