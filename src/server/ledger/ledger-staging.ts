/**
 * Big restores on SQLite (issue 34 item 5, decision 0072). SQLite has one connection: a write
 * transaction that stores 20,000 rows holds it for all of them, and every other user's query waits.
 * So a restore stages each new ledger first, in a ledger of no account (account_id null), a few
 * hundred rows per statement, each statement its own short transaction, yielding to the event loop
 * between them; its unit of work then only attaches the staged ledgers and detaches the old ones;
 * and the detached ledgers' rows go afterwards, a thousand per statement. A ledger in no account is
 * read by no account and left out of the owner's row count, so a crash anywhere leaves the user's
 * data as it was before the restore or as after it, never half of each; what it left in no account
 * is garbage, dropped at the next start and by the owner's next restore.
 */
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { withLedgerTables } from '../db/ledger-tables.js';
import { type LedgerData, deleteLedgerData } from './ledger-data.js';
import { insertDetachedLedger, isDetached, type LedgerScope, listDetachedLedgers } from './ledger-record.js';
import { restoreClosedBankKeys } from './closed-bank-key-rows.js';
import { restoreImports } from './imported-rows.js';
import { insertRowsInSlices } from './row-insert.js';
import { restoreSkipped } from './skipped-occurrences.js';
import { deleteSomeRows } from './transaction-rows.js';

/** Rows per staging INSERT: each its own transaction of a few milliseconds. */
const STAGE_BATCH = 256;

/** Rows per DELETE of a detached ledger's rows. */
const DROP_BATCH = 1000;

/** A ledger staged for a restore: its rows are stored, in no account, until the restore's unit of work attaches it. */
export interface StagedLedger {
  readonly stagedId: string;
  readonly rows: number;
}

/** What a restore's unit of work stores for an account: a ledger staged beforehand, or its data, stored in the unit's transaction. */
export type RestorableLedger = StagedLedger | LedgerData;

function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function outsideAnyTransaction(database: OpenDatabase, owner: Caller): LedgerScope {
  return { db: withLedgerTables(database.db), owner, kind: database.kind };
}

/** Stores the ledger in no account, in short transactions of their own (insertRows yields between them). */
export async function stageLedger(
  database: OpenDatabase,
  owner: Caller,
  data: LedgerData,
  now: Date,
  /** Told the staged ledger's id before its first row is stored: no cleaning may take it for garbage. */
  started: (ledgerId: string) => void,
): Promise<StagedLedger> {
  const scope = outsideAnyTransaction(database, owner);
  const ledger = await insertDetachedLedger(scope, { ...data.fields, nextSequence: data.nextSequence }, now);
  started(ledger.id);
  await yieldToOthers();
  await insertRowsInSlices(scope, ledger.id, data.rows, (row) => ({ ...row, source: row.source ?? undefined }), STAGE_BATCH);
  await restoreSkipped(scope, ledger.id, data.skipped);
  await restoreImports(scope, ledger.id, data.imported);
  await restoreClosedBankKeys(scope, ledger.id, data.closedBankKeys);
  return { stagedId: ledger.id, rows: data.rows.length };
}

/** Drops a ledger in no account: its rows a thousand at a time, yielding between, then the ledger with what is left of it. */
export async function dropDetachedLedger(database: OpenDatabase, owner: Caller, ledgerId: string): Promise<void> {
  const scope = outsideAnyTransaction(database, owner);
  while ((await deleteSomeRows(scope, ledgerId, DROP_BATCH)) > 0) await yieldToOthers();
  await database.db.transaction().execute(async (trx) => {
    const locked = { ...scope, db: withLedgerTables(trx) };
    // Only while it is still in no account: a ledger attached meanwhile is someone's data.
    if (await isDetached(locked, ledgerId)) await deleteLedgerData(locked, ledgerId);
  });
}

/**
 * Drops the ledgers in no account that no write of this process is still staging (`busy`): the
 * owner's, or everyone's when none is named (at start, when nothing is).
 */
export async function dropDetachedLedgers(database: OpenDatabase, owner?: Caller, busy: ReadonlySet<string> = new Set()): Promise<void> {
  for (const ledger of await listDetachedLedgers(withLedgerTables(database.db), owner)) {
    if (!busy.has(ledger.id)) await dropDetachedLedger(database, ledger.owner, ledger.id);
  }
}
