/**
 * Statement rows a ledger has taken in (decision 0021). Each import records its rows' import ids
 * here, so importing the same file again finds them "already imported". Ids are stored as SHA-256
 * keys: a FITID alone may be 255 characters, and a fixed-size key indexes the same on both
 * databases whatever the bank sends.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { ownerColumns } from '../db/owner.js';
import type { LedgerScope } from './ledger-record.js';

/** Records per INSERT: 6 values each, far below either database's parameter limit. */
const INSERT_BATCH = 500;

export interface ImportedRow {
  /** The statement row's import id. */
  readonly importId: string;
  /** The ledger row it matched or created. */
  readonly transactionId: string;
}

/** The stored key of an import id. */
export function importKey(importId: string): string {
  return crypto.createHash('sha256').update(importId, 'utf8').digest('hex');
}

/** The import ids among `importIds` that this ledger took in before. */
export async function importedIds({ db, owner }: LedgerScope, ledgerId: string, importIds: readonly string[]): Promise<Set<string>> {
  if (importIds.length === 0) return new Set();
  // Every key of the ledger, not an IN list of the file's: one statement whatever the file's size.
  const records = await db
    .selectFrom('ledger_imported_rows')
    .select('import_key')
    .where('ledger_id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
  const stored = new Set(records.map((record) => record.import_key));
  return new Set(importIds.filter((importId) => stored.has(importKey(importId))));
}

/** Remembers rows of an import; the caller holds the ledger lock and passes only rows not imported before. */
export async function recordImports({ db, owner }: LedgerScope, ledgerId: string, rows: readonly ImportedRow[], now: Date): Promise<void> {
  const importedAt = now.toISOString();
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    // Plain SQL rather than the query builder: building 500-row inserts object by object cost as much as storing them.
    const values = rows
      .slice(start, start + INSERT_BATCH)
      .map((row) => sql`(${ledgerId}, ${owner.issuer}, ${owner.subject}, ${importKey(row.importId)}, ${row.transactionId}, ${importedAt})`);
    await sql`insert into ledger_imported_rows (ledger_id, owner_iss, owner_sub, import_key, transaction_id, imported_at)
      values ${sql.join(values)}`.execute(db);
  }
}

/** Forgets every import of the ledger: a replaced ledger starts over, and may take the same files in again. */
export async function forgetImports({ db, owner }: LedgerScope, ledgerId: string): Promise<void> {
  await db
    .deleteFrom('ledger_imported_rows')
    .where('ledger_id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
}
