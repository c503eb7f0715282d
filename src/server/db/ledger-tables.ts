/**
 * The ledger's way back to its own tables (issue 33): every handle outside server/ledger/ is typed
 * without them (database.ts), so `insertInto('ledger_transactions')` anywhere else fails the type
 * check. Only the ledger's module may import this (eslint.config.js holds it to that).
 */
import type { Database, WholeDatabase } from './database.js';

/** The same handle, typed with the ledger's tables. */
export function withLedgerTables(db: Database): WholeDatabase {
  return db;
}
