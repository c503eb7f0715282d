/** A ledger's transaction rows as written after they are stored: change, delete, or clear them. */
import { type Expression, expressionBuilder, type RawBuilder, sql, type SqlBool } from 'kysely';
import type { IsoDate } from '../../domain/calendar-date.js';
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

/** A row of a locked ledger that a statement row matched: it becomes CLEARED on the bank's date. */
export interface ClearedMatch {
  readonly row: StoredRow;
  readonly date: IsoDate;
}

/** Matches per UPDATE: 3 values each. */
const CLEAR_BATCH = 500;

/**
 * Clears matched rows and moves each to the bank's date, a few hundred rows per statement (an
 * UPDATE ... FROM a VALUES list: SQLite 3.33+ and PostgreSQL both join it by id; correlated
 * subqueries instead cost 30 ms for 1,000 rows on SQLite). A
 * generated row whose date moves counts as edited, as if the user had moved it (decision 0016):
 * it then stands for its occurrence, and no schedule change projects that occurrence again.
 */
export async function clearMatchedRows({ db, owner }: LedgerScope, ledgerId: string, matches: readonly ClearedMatch[]): Promise<void> {
  for (let start = 0; start < matches.length; start += CLEAR_BATCH) {
    const batch = matches.slice(start, start + CLEAR_BATCH);
    const values = batch.map(({ row, date }) => {
      const edited = row.source !== null && (row.source.edited || row.date !== date) ? 1 : 0;
      // PostgreSQL types parameters in VALUES as text: the cast keeps edited an integer.
      return sql`(${row.id}, ${date}, cast(${edited} as integer))`;
    });
    const result = await sql`
      with matched (id, date, edited) as (values ${sql.join(values)})
      update ledger_transactions
      set status = 'CLEARED', date = matched.date, edited = matched.edited, version = version + 1
      from matched
      where ledger_transactions.id = matched.id and ledger_id = ${ledgerId} and owner_iss = ${owner.issuer} and owner_sub = ${owner.subject}`.execute(
      db,
    );
    // The ledger is locked and the rows were just read in it: anything else is a fault, not a race.
    if (result.numAffectedRows !== BigInt(batch.length)) throw new Error('matched ledger rows changed under the ledger lock');
  }
}
