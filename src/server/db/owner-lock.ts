/**
 * The owner's lock (decision 0004): every write of a user's data runs in one database transaction
 * that holds it, so no two writes of the same user interleave, and limits counted under it hold
 * whatever runs at once. On PostgreSQL it is a transaction-scoped advisory lock on the owner's
 * key, taken before anything is read. SQLite has no row locks; there Kysely runs every
 * transaction on its single connection, one at a time.
 */
import { sql } from 'kysely';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from './database.js';

/** Takes the owner's lock in the transaction `trx` (held until it ends). */
export async function lockOwner(trx: Database, kind: OpenDatabase['kind'], owner: Caller): Promise<void> {
  if (kind !== 'postgres') return;
  // An issuer is a URL, which cannot hold a space; PostgreSQL text cannot hold U+0000.
  const key = `leftover-owner ${owner.issuer} ${owner.subject}`;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

/** Runs `work` in one database transaction holding the owner's lock: a refusal thrown inside rolls all of it back. */
export function withOwnerLock<T>(database: OpenDatabase, owner: Caller, work: (trx: Database) => Promise<T>): Promise<T> {
  return database.db.transaction().execute(async (trx) => {
    await lockOwner(trx, database.kind, owner);
    return work(trx);
  });
}
