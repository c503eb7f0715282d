/**
 * The undo entries (decision 0040): what each undoable write did, kept for ten minutes under a
 * SHA-256 of the token the write answered with, so the token alone (never stored) can undo it.
 * Every query names the owner: another user's token finds nothing. Writes run in the caller's
 * transaction, under the owner's ledger lock, so an owner's entries are numbered one after another.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { ApiOperation } from '../../contract/common.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { withLedgerTables } from '../db/ledger-tables.js';
import { ownerColumns } from '../db/owner.js';
import type { Actor } from '../activity/activity-store.js';

/** How long a write can be undone, on the app's clock. */
export const UNDO_LIFETIME_MS = 10 * 60 * 1000;

/** An owner keeps at most this many entries: a write past it drops the oldest. */
export const MAX_UNDO_ENTRIES = 50;

/**
 * The writes that can be undone, named by their operation, each with what its undo answers: what
 * the write itself answered (decision 0040). The one list of them.
 */
export const UNDO_KINDS = {
  addTransaction: 'ledger',
  updateTransaction: 'ledger',
  deleteTransaction: 'ledger',
  extendLedger: 'ledger',
  importStatement: 'ledger',
  addTransfer: 'ledger',
  addDeposit: 'deposits',
  updateDeposit: 'deposits',
  deleteDeposit: 'deposits',
  addExpense: 'expenses',
  updateExpense: 'expenses',
  deleteExpense: 'expenses',
} as const satisfies { readonly [Operation in ApiOperation]?: 'ledger' | 'deposits' | 'expenses' };

export type UndoKind = keyof typeof UNDO_KINDS;

function isUndoKind(kind: string): kind is UndoKind {
  return Object.hasOwn(UNDO_KINDS, kind);
}

/** A token: 32 random bytes, base64url. */
const TOKEN_BYTES = 32;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** The stored key of a token, or undefined for text that is no token we could have given out. */
export function undoTokenKey(token: string): string | undefined {
  return TOKEN_FORMAT.test(token) ? crypto.hash('sha256', token, 'hex') : undefined;
}

/** What an entry holds: each part belongs to the module that wrote it (the ledger's journal, a schedule's change). */
export interface UndoJournal {
  readonly ledger: unknown;
  /** The other ledgers the write changed, when it wrote more than one (a schedule moved between accounts). */
  readonly more?: readonly unknown[];
  readonly schedule: unknown;
}

/**
 * Records an undo entry and answers its token. First drops the owner's expired entries and all but
 * the newest MAX_UNDO_ENTRIES - 1, in one statement: with this one, an owner keeps at most
 * MAX_UNDO_ENTRIES, so storage stays bounded per user.
 */
export async function saveUndoEntry(
  db: Database,
  owner: Caller,
  kind: UndoKind,
  journal: UndoJournal,
  now: Date,
  made: { readonly actor: Actor; readonly what: string | null },
): Promise<string> {
  const token = crypto.randomBytes(TOKEN_BYTES).toString('base64url');
  const owned = ownerColumns(owner);
  const createdAt = now.toISOString();
  const newestSeq = sql<number>`(select max(seq) from undo_entries where owner_iss = ${owner.issuer} and owner_sub = ${owner.subject})`;
  await withLedgerTables(db)
    .deleteFrom('undo_entries')
    .where((eb) => eb.and(owned))
    .where((eb) => eb.or([eb('expires_at', '<=', createdAt), eb('seq', '<=', sql<number>`${newestSeq} - ${MAX_UNDO_ENTRIES - 1}`)]))
    .execute();
  await withLedgerTables(db)
    .insertInto('undo_entries')
    .values({
      token_hash: crypto.hash('sha256', token, 'hex'),
      ...owned,
      // The owner's lock makes this race-free: no other write of theirs runs between the read and the insert.
      seq: sql<number>`coalesce(${newestSeq}, 0) + 1`,
      kind,
      created_at: createdAt,
      expires_at: new Date(now.getTime() + UNDO_LIFETIME_MS).toISOString(),
      journal: JSON.stringify(journal),
      actor_iss: made.actor?.issuer ?? null,
      actor_sub: made.actor?.subject ?? null,
      actor_name: made.actor?.name ?? null,
      what: made.what,
    })
    .execute();
  return token;
}

export interface StoredUndoEntry {
  readonly kind: UndoKind;
  /** Who made the write; null for an entry made before migration 0026 (the owner of the rows, decision 0094). */
  readonly actor: { readonly issuer: string; readonly subject: string; readonly name: string | null } | null;
  /** The write's words in the activity; null before migration 0026. */
  readonly what: string | null;
  readonly expiresAt: Date;
  /** As saved (JSON.parse of it); each part is checked by its own module. */
  readonly journal: unknown;
}

/** The owner's entry under this key, or undefined: another user's entry is not found, like a missing one. */
export async function findUndoEntry(db: Database, owner: Caller, key: string): Promise<StoredUndoEntry | undefined> {
  const record = await withLedgerTables(db)
    .selectFrom('undo_entries')
    .select(['kind', 'expires_at', 'journal', 'actor_iss', 'actor_sub', 'actor_name', 'what'])
    .where('token_hash', '=', key)
    .where((eb) => eb.and(ownerColumns(owner)))
    .executeTakeFirst();
  if (!record) return undefined;
  const { kind } = record;
  if (!isUndoKind(kind)) throw new Error(`unexpected undo_entries.kind value in the database: ${record.kind}`);
  const actor =
    record.actor_iss !== null && record.actor_sub !== null
      ? { issuer: record.actor_iss, subject: record.actor_sub, name: record.actor_name }
      : null;
  return { kind, actor, what: record.what, expiresAt: new Date(record.expires_at), journal: JSON.parse(record.journal) };
}

/** How long the owner's entry's journal is, in characters, without reading it; undefined when there is no such entry. */
export async function undoJournalLength(db: Database, owner: Caller, key: string): Promise<number | undefined> {
  const record = await withLedgerTables(db)
    .selectFrom('undo_entries')
    .select(sql<number>`length(journal)`.as('length'))
    .where('token_hash', '=', key)
    .where((eb) => eb.and(ownerColumns(owner)))
    .executeTakeFirst();
  return record === undefined ? undefined : Number(record.length);
}

/** Whether the owner's entry under this key is still there (not used since): its journal never changes once written. */
export async function undoEntryExists(db: Database, owner: Caller, key: string): Promise<boolean> {
  const record = await withLedgerTables(db)
    .selectFrom('undo_entries')
    .select('token_hash')
    .where('token_hash', '=', key)
    .where((eb) => eb.and(ownerColumns(owner)))
    .executeTakeFirst();
  return record !== undefined;
}

/** Uses up an entry: a token undoes once. */
export async function deleteUndoEntry(db: Database, owner: Caller, key: string): Promise<void> {
  await withLedgerTables(db)
    .deleteFrom('undo_entries')
    .where('token_hash', '=', key)
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
}

/** Every entry the owner has: an account delete or restore leaves nothing to undo. */
export async function deleteUndoEntries(db: Database, owner: Caller): Promise<void> {
  await withLedgerTables(db)
    .deleteFrom('undo_entries')
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
}
