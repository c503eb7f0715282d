/**
 * A ledger row of the owner's: its account, dates, opening balance and the next creation-order
 * number. An account has at most one ledger (decision 0042). The ledger's storage is built for one
 * owner and one database transaction (a LedgerScope), so every query is scoped by the owner's
 * issuer and subject and takes part in the caller's transaction.
 * Rows come back as domain values (IsoDate, Cents, statuses); no rule lives in storage.
 */
import { type Expression, expressionBuilder, sql, type SqlBool } from 'kysely';
import { isoDate, type IsoDate } from '../../domain/calendar-date.js';
import { type Cents, cents } from '../../domain/money.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase, WholeDatabase } from '../db/database.js';
import { newId } from '../db/ids.js';
import { ownerColumns } from '../db/owner.js';
import type { DatabaseSchema } from '../db/schema.js';

export interface LedgerScope {
  readonly db: WholeDatabase;
  readonly owner: Caller;
  readonly kind: OpenDatabase['kind'];
}

export interface LedgerFields {
  readonly startDate: IsoDate;
  readonly endDate: IsoDate;
  readonly openingBalance: Cents;
}

export interface StoredLedger extends LedgerFields {
  readonly id: string;
  /** Moved on by every write that changes the ledger (advanceVersion): what a changes answer is based on. */
  readonly version: number;
}

export interface NewLedgerFields extends LedgerFields {
  /** The creation-order number the next added row will take. */
  readonly nextSequence: number;
}

const LEDGER_COLUMNS = ['id', 'start_date', 'end_date', 'opening_balance_cents', 'version'] as const;

interface LedgerRecord {
  id: string;
  start_date: string;
  end_date: string;
  opening_balance_cents: number;
  version: number;
}

export function toLedger(record: LedgerRecord): StoredLedger {
  return {
    id: record.id,
    startDate: isoDate(record.start_date),
    endDate: isoDate(record.end_date),
    openingBalance: cents(record.opening_balance_cents),
    version: record.version,
  };
}

/** The owner's ledger row with this id, as a filter for any query on ledgers. */
function ledgerOf(owner: Caller, ledgerId: string): Expression<SqlBool> {
  return expressionBuilder<DatabaseSchema, 'ledgers'>().and({ id: ledgerId, ...ownerColumns(owner) });
}

/** Selects the ledger row of the owner's account; a caller adds what else to read of it. */
export function ledgerQuery({ db, owner }: LedgerScope, accountId: string) {
  return db
    .selectFrom('ledgers')
    .select(LEDGER_COLUMNS)
    .where((eb) => eb.and({ ...ownerColumns(owner), account_id: accountId }));
}

/** The ledger of the owner's account, read under the owner's lock (db/owner-lock.ts) and locked with it. */
export async function lockedLedger(scope: LedgerScope, accountId: string): Promise<StoredLedger | undefined> {
  const query = ledgerQuery(scope, accountId);
  const record = await (scope.kind === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return record && toLedger(record);
}

/**
 * Makes the account's one ledger carry these fields. An upsert rather than delete + insert: the
 * ledger row survives a replacement, so a write queued on its lock sees the new ledger instead of
 * a vanished one, and two first-time creates meet on the unique account key (the second waits and
 * updates) instead of one failing on it. The caller then replaces the rows.
 */
export async function saveLedger({ db, owner }: LedgerScope, accountId: string, fields: NewLedgerFields, now: Date): Promise<StoredLedger> {
  const values = {
    start_date: fields.startDate,
    end_date: fields.endDate,
    opening_balance_cents: fields.openingBalance,
    next_sequence: fields.nextSequence,
    created_at: now.toISOString(),
  };
  const nextVersion = sql<number>`${sql.ref('ledgers.version')} + 1`;
  const record = await db
    .insertInto('ledgers')
    .values({ id: newId(), ...ownerColumns(owner), account_id: accountId, ...values })
    // A replaced ledger keeps its id, so its version goes on from the old one's (decision 0030), and
    // it notes that version as where its rows began: an undo recorded before it must not touch them (decision 0040).
    .onConflict((conflict) =>
      conflict.columns(['account_id']).doUpdateSet({ ...values, version: nextVersion, replaced_at_version: nextVersion }),
    )
    .returning(LEDGER_COLUMNS)
    .executeTakeFirstOrThrow();
  return toLedger(record);
}

/**
 * Gives the ledger a new version (decision 0030): every write that changes the ledger or its rows
 * calls this once, under the owner's lock; a write that changes nothing leaves the version as it
 * was, so a client holding it still holds the ledger as it is.
 */
export async function advanceVersion({ db, owner }: LedgerScope, ledger: StoredLedger): Promise<StoredLedger> {
  const record = await db
    .updateTable('ledgers')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where(ledgerOf(owner, ledger.id))
    .returning('version')
    .executeTakeFirstOrThrow();
  return { ...ledger, version: record.version };
}

/**
 * Takes the next `count` creation-order numbers atomically and answers the first (the unique
 * sequence key backs this up).
 */
export async function takeSequences({ db, owner }: LedgerScope, ledgerId: string, count = 1): Promise<number> {
  const record = await db
    .updateTable('ledgers')
    .set((eb) => ({ next_sequence: eb('next_sequence', '+', count) }))
    .where(ledgerOf(owner, ledgerId))
    .returning('next_sequence')
    .executeTakeFirstOrThrow();
  return record.next_sequence - count;
}

/**
 * The version at which the ledger's rows were last replaced (a New Ledger), 1 when never: a write
 * recorded at an earlier version was a write to rows that are gone (decision 0040).
 */
export async function readReplacedAt({ db, owner }: LedgerScope, ledgerId: string): Promise<number> {
  const record = await db.selectFrom('ledgers').select('replaced_at_version').where(ledgerOf(owner, ledgerId)).executeTakeFirstOrThrow();
  return record.replaced_at_version;
}

/**
 * Gives back creation-order numbers an undone write took, if none was taken since (the counter is
 * still where the write left it); otherwise the gap stays, which orders nothing differently.
 */
export async function returnSequences({ db, owner }: LedgerScope, ledgerId: string, taken: { from: number; to: number }): Promise<void> {
  await db
    .updateTable('ledgers')
    .set({ next_sequence: taken.from })
    .where(ledgerOf(owner, ledgerId))
    .where('next_sequence', '=', taken.to)
    .execute();
}

/** The ledger's new last day, after an extension. */
export async function setLedgerEnd({ db, owner }: LedgerScope, ledgerId: string, endDate: IsoDate): Promise<void> {
  await db.updateTable('ledgers').set({ end_date: endDate }).where(ledgerOf(owner, ledgerId)).execute();
}

/** The creation-order number the next added row will take: what an export writes down. */
export async function readNextSequence({ db, owner }: LedgerScope, ledgerId: string): Promise<number> {
  const record = await db.selectFrom('ledgers').select('next_sequence').where(ledgerOf(owner, ledgerId)).executeTakeFirstOrThrow();
  return record.next_sequence;
}

/** Removes the ledger row itself; its rows, skipped occurrences and imports go first. */
export async function deleteLedger({ db, owner }: LedgerScope, ledgerId: string): Promise<void> {
  await db.deleteFrom('ledgers').where(ledgerOf(owner, ledgerId)).execute();
}

/**
 * A ledger in no account, for a big restore to stage its rows in before its short transaction
 * (decision 0072): no account reads it and the owner's row count leaves it out until it is attached.
 */
export async function insertDetachedLedger({ db, owner }: LedgerScope, fields: NewLedgerFields, now: Date): Promise<StoredLedger> {
  const record = await db
    .insertInto('ledgers')
    .values({
      id: newId(),
      ...ownerColumns(owner),
      account_id: null,
      start_date: fields.startDate,
      end_date: fields.endDate,
      opening_balance_cents: fields.openingBalance,
      next_sequence: fields.nextSequence,
      created_at: now.toISOString(),
    })
    .returning(LEDGER_COLUMNS)
    .executeTakeFirstOrThrow();
  return toLedger(record);
}

/** Gives a staged ledger its account; false when it is no longer there to attach (cleaned as garbage). */
export async function attachLedger(
  { db, owner }: LedgerScope,
  ledgerId: string,
  accountId: string,
  now: Date,
): Promise<StoredLedger | undefined> {
  const record = await db
    .updateTable('ledgers')
    .set({ account_id: accountId, created_at: now.toISOString() })
    .where(ledgerOf(owner, ledgerId))
    .where('account_id', 'is', null)
    .returning(LEDGER_COLUMNS)
    .executeTakeFirst();
  return record && toLedger(record);
}

/** Takes the ledger out of its account: its rows then go in chunks, after the write that detached it (decision 0072). */
export async function detachLedger({ db, owner }: LedgerScope, ledgerId: string): Promise<void> {
  await db.updateTable('ledgers').set({ account_id: null }).where(ledgerOf(owner, ledgerId)).execute();
}

/**
 * The owner's ledger by id, read outside any lock for an undo to check its journal before it takes
 * the lock (decision 0072), with where its creation order ends and where its rows began; undefined
 * when it is gone or in no account. One statement, so one snapshot of the three.
 */
export async function readLedgerOutsideLock(
  { db, owner }: LedgerScope,
  ledgerId: string,
): Promise<{ readonly ledger: StoredLedger; readonly nextSequence: number; readonly replacedAt: number } | undefined> {
  const record = await db
    .selectFrom('ledgers')
    .select([...LEDGER_COLUMNS, 'next_sequence', 'replaced_at_version'])
    .where(ledgerOf(owner, ledgerId))
    .where('account_id', 'is not', null)
    .executeTakeFirst();
  return record && { ledger: toLedger(record), nextSequence: record.next_sequence, replacedAt: record.replaced_at_version };
}

/** Whether the owner's ledger is in no account (locked with the transaction on PostgreSQL); false when it is gone. */
export async function isDetached({ db, owner, kind }: LedgerScope, ledgerId: string): Promise<boolean> {
  const query = db.selectFrom('ledgers').select('account_id').where(ledgerOf(owner, ledgerId));
  const record = await (kind === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return record !== undefined && record.account_id === null;
}

/** The owner's ledgers in no account (every owner's, when none is named): staged or detached ones, left by a write that stopped midway. */
export async function listDetachedLedgers(db: WholeDatabase, owner?: Caller): Promise<{ id: string; owner: Caller }[]> {
  let query = db.selectFrom('ledgers').select(['id', 'owner_iss', 'owner_sub']).where('account_id', 'is', null);
  if (owner) query = query.where('owner_iss', '=', owner.issuer).where('owner_sub', '=', owner.subject);
  const records = await query.execute();
  return records.map((record) => ({ id: record.id, owner: { issuer: record.owner_iss, subject: record.owner_sub } }));
}
