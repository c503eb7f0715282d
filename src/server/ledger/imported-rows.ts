/**
 * Statement rows a ledger has taken in (decision 0021). Each import records its rows' import ids
 * here, so importing the same file again finds them "already imported". Ids are stored as SHA-256
 * keys: a FITID alone may be 255 characters, and a fixed-size key indexes the same on both
 * databases whatever the bank sends.
 */
import crypto from 'node:crypto';
import { CompiledQuery, type Expression, expressionBuilder, sql, type SqlBool } from 'kysely';
import type { Caller } from '../auth/access-token.js';
import { ownerColumns } from '../db/owner.js';
import type { DatabaseSchema } from '../db/schema.js';
import type { LedgerScope } from './ledger-record.js';

/**
 * Records per INSERT: 2,048 records of 2 values each, plus the 4 every record shares, stay far
 * below SQLite's 32,766 and PostgreSQL's 65,535 parameters; a 2,000-row statement is one INSERT.
 */
const INSERT_BATCH = 2048;

/** Records per INSERT of a restore, each with its own time: 500 of 6 values each. */
const RESTORE_BATCH = 500;

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
 * The stored keys of a statement's import ids, each hashed once up front: an import looks its ids
 * up, perhaps more than once, and then records them. Lives as long as one call.
 */
export function importKeys(importIds: readonly string[]): (importId: string) => string {
  const keys = new Map(importIds.map((importId) => [importId, importKey(importId)]));
  return (importId) => keys.get(importId) ?? importKey(importId);
}

/** The owner's imports into one ledger, as a filter for any query on ledger_imported_rows. */
function importsOf(owner: Caller, ledgerId: string): Expression<SqlBool> {
  return expressionBuilder<DatabaseSchema, 'ledger_imported_rows'>().and({ ledger_id: ledgerId, ...ownerColumns(owner) });
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
  const records = await db.selectFrom('ledger_imported_rows').select('import_key').where(importsOf(owner, ledgerId)).execute();
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
  await db.deleteFrom('ledger_imported_rows').where(importsOf(owner, ledgerId)).execute();
}

/** Keys per DELETE of an undo, far below either database's parameter limit. */
const FORGET_BATCH = 1000;

/**
 * Forgets the statement rows an undone import recorded (by their stored keys), so the same file
 * imports again as new; answers how many were still recorded.
 */
export async function forgetImportKeys({ db, owner }: LedgerScope, ledgerId: string, keys: readonly string[]): Promise<number> {
  let forgotten = 0;
  for (let start = 0; start < keys.length; start += FORGET_BATCH) {
    const result = await db
      .deleteFrom('ledger_imported_rows')
      .where(importsOf(owner, ledgerId))
      .where('import_key', 'in', keys.slice(start, start + FORGET_BATCH))
      .executeTakeFirst();
    forgotten += Number(result.numDeletedRows);
  }
  return forgotten;
}

/** A recorded statement row as an export writes it and a restore stores it again. */
export interface ImportedStatementRow {
  /** Hex SHA-256 of the statement row's import id. */
  readonly key: string;
  readonly transactionId: string;
  readonly importedAt: string;
}

/** Every recorded statement row of the ledger, in key order (hex text: the same in both databases). */
export async function listImports({ db, owner }: LedgerScope, ledgerId: string): Promise<ImportedStatementRow[]> {
  const records = await db
    .selectFrom('ledger_imported_rows')
    .select(['import_key', 'transaction_id', 'imported_at'])
    .where(importsOf(owner, ledgerId))
    .orderBy('import_key')
    .execute();
  return records.map((record) => ({ key: record.import_key, transactionId: record.transaction_id, importedAt: record.imported_at }));
}

/** Stores the recorded statement rows of a restored ledger, keys and times as the export wrote them. */
export async function restoreImports({ db, owner }: LedgerScope, ledgerId: string, rows: readonly ImportedStatementRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += RESTORE_BATCH) {
    const values = rows
      .slice(start, start + RESTORE_BATCH)
      .map((row) => sql`(${ledgerId}, ${owner.issuer}, ${owner.subject}, ${row.key}, ${row.transactionId}, ${row.importedAt})`);
    await sql`insert into ledger_imported_rows (ledger_id, owner_iss, owner_sub, import_key, transaction_id, imported_at)
      values ${sql.join(values)}`.execute(db);
  }
}
