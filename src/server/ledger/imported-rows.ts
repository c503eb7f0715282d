/**
 * Statement rows a ledger has taken in (decision 0021). Each import records its rows' import ids
 * here, so importing the same file again finds them "already imported". Ids are stored as SHA-256
 * keys: a FITID alone may be 255 characters, and a fixed-size key indexes the same on both
 * databases whatever the bank sends.
 */
import crypto from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { ownerColumns } from '../db/owner.js';
import type { LedgerScope } from './ledger-record.js';

/**
 * Records per INSERT: 2,048 records of 2 values each, plus the 4 every record shares, stay far
 * below SQLite's 32,766 and PostgreSQL's 65,535 parameters; a 2,000-row statement is one INSERT.
 */
const INSERT_BATCH = 2048;

export interface ImportedRow {
  /** The statement row's import id. */
  readonly importId: string;
  /** The ledger row it matched or created. */
  readonly transactionId: string;
}

/** The stored key of an import id: hex SHA-256 of its UTF-8 text (crypto.hash, without a Hash object per id). */
export function importKey(importId: string): string {
  return crypto.hash('sha256', importId, 'hex');
}

/**
 * importKey, remembering each id's key: one import looks its ids up and then records them, and
 * hashing each id once is enough. Lives as long as one call.
 */
export function importKeyCache(): (importId: string) => string {
  const keys = new Map<string, string>();
  return (importId) => {
    let key = keys.get(importId);
    if (key === undefined) {
      key = importKey(importId);
      keys.set(importId, key);
    }
    return key;
  };
}

/** The import ids among `importIds` that this ledger took in before. */
export async function importedIds(
  { db, owner }: LedgerScope,
  ledgerId: string,
  importIds: readonly string[],
  keyOf: (importId: string) => string = importKey,
): Promise<Set<string>> {
  if (importIds.length === 0) return new Set();
  // Every key of the ledger, not an IN list of the file's: one statement whatever the file's size.
  const records = await db
    .selectFrom('ledger_imported_rows')
    .select('import_key')
    .where('ledger_id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
  // A ledger that took nothing in yet (every first import) has no key to compare: nothing to hash.
  if (records.length === 0) return new Set();
  const stored = new Set(records.map((record) => record.import_key));
  return new Set(importIds.filter((importId) => stored.has(keyOf(importId))));
}

/** Remembers rows of an import; the caller holds the ledger lock and passes only rows not imported before. */
export async function recordImports(
  { db, owner, kind }: LedgerScope,
  ledgerId: string,
  rows: readonly ImportedRow[],
  now: Date,
  keyOf: (importId: string) => string = importKey,
): Promise<void> {
  const importedAt = now.toISOString();
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    const batch = rows.slice(start, start + INSERT_BATCH);
    // Laid out here, the values straight into one array: building a 2,000-record insert through
    // the query builder, value by value, cost as much as storing it. The values every record
    // shares are passed once rather than once per record, which also halves SQLite's binding work.
    const parameters: unknown[] = [ledgerId, owner.issuer, owner.subject, importedAt];
    for (const row of batch) parameters.push(keyOf(row.importId), row.transactionId);
    await db.executeQuery(CompiledQuery.raw(insertText(kind, batch.length), parameters));
  }
}

/**
 * The INSERT of `count` records, in the dialect's placeholders: the shared values first, then a
 * VALUES list of (import key, transaction id), whose columns both databases name column1 and column2.
 */
function insertText(kind: LedgerScope['kind'], count: number): string {
  const placeholder = kind === 'postgres' ? (position: number) => `$${position}` : () => '?';
  const records = Array.from({ length: count }, (_, index) => `(${placeholder(5 + 2 * index)}, ${placeholder(6 + 2 * index)})`);
  return `insert into ledger_imported_rows (ledger_id, owner_iss, owner_sub, import_key, transaction_id, imported_at)
    select ${placeholder(1)}, ${placeholder(2)}, ${placeholder(3)}, records.column1, records.column2, ${placeholder(4)}
    from (values ${records.join(', ')}) as records`;
}

/** Forgets every import of the ledger: a replaced ledger starts over, and may take the same files in again. */
export async function forgetImports({ db, owner }: LedgerScope, ledgerId: string): Promise<void> {
  await db
    .deleteFrom('ledger_imported_rows')
    .where('ledger_id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
}
