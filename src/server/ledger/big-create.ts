/**
 * Which creates are big (decision 0123): a create that may write thousands of rows runs in the big
 * writes' thread, as a long undo does (decision 0103), and answers there as the JSON text the
 * route sends. Judged before any lock and without projecting a row.
 */
import { mostOccurrences } from '../../domain/schedules.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { schedulesOf } from './account-schedules.js';
import type { LedgerFields } from './ledger-record.js';
import { type AccountChoice, ledgerScope, readAccount } from './ledger-store.js';
import type { LedgerWrites } from './ledger-write.js';
import { countOwnerRowsFromTotals } from './month-totals.js';

/**
 * A create that may write this many rows runs in the big writes' thread when there is one (decision
 * 0123): projecting, storing and answering them costs the server's thread about 25 microseconds a
 * row, so 4,000 would hold it for about 100 ms in all. A create also runs there when the owner
 * holds this many rows already: on SQLite deleting the rows it replaces holds the thread too.
 */
const BIG_CREATE_ROWS = 4_000;
const BIG_REPLACED_ROWS = 10_000;

/** A ledger made elsewhere (the big writes' thread), answered as the JSON text the route sends, with its version and counts. */
export interface LedgerText {
  readonly answer: 'ledger-text';
  readonly etag: string;
  readonly body: string;
  /** Rows in the answer, charged as read. */
  readonly rows: number;
  /** Rows the create stored, charged as written. */
  readonly written: number;
}

/** Where a big create runs (the app's big writes' thread). */
export type CreateElsewhere = (owner: Caller, account: AccountChoice, fields: LedgerFields, expected: string | null) => Promise<LedgerText>;

/**
 * Whether a create of these fields is big (BIG_CREATE_ROWS, BIG_REPLACED_ROWS): the most dates
 * each of the account's schedules may have between them (never fewer than projecting gives,
 * mostOccurrences), and the rows the owner holds now. Read outside the lock; an overcount only
 * sends a middling create to the thread.
 */
export async function isBigCreate(
  database: OpenDatabase,
  writes: LedgerWrites,
  owner: Caller,
  account: AccountChoice,
  fields: LedgerFields,
): Promise<boolean> {
  const shown = await readAccount(database, owner, account);
  if (!shown) return false;
  const { deposits, expenses } = schedulesOf(await writes.schedulesOutsideLock(owner), shown.id);
  const range = { from: fields.startDate, to: fields.endDate };
  let rows = 0;
  for (const deposit of deposits) rows += mostOccurrences(deposit.frequency, range);
  for (const expense of expenses) rows += mostOccurrences(expense.frequency ?? 'M', range);
  return rows >= BIG_CREATE_ROWS || (await countOwnerRowsFromTotals(ledgerScope(database, owner))) >= BIG_REPLACED_ROWS;
}
