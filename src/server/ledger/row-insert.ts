/**
 * Storing many new rows quickly: a new ledger is filled with about 1,800 rows for five years, in a
 * few multi-row INSERTs whose statement text is compiled once per size.
 */
import { CompiledQuery, type Insertable } from 'kysely';
import type { BankMark } from '../../domain/bank-sync/bank-rows.js';
import type { Occurrence, TransactionDraft, TransactionStatus, TransferLink } from '../../domain/ledger.js';
import { newId } from '../db/ids.js';
import type { LedgerTransactionsTable } from '../db/schema.js';
import type { LedgerScope } from './ledger-record.js';
import { MonthTotalsChange, saveMonthTotals } from './month-totals.js';
import { RowBlocks } from './row-blocks.js';
import { ROW_COLUMNS, type StoredRow } from './transaction-rows.js';

/**
 * Rows per INSERT when a ledger is filled: a power of two from 512 down to 1, largest first, so a
 * 5-year ledger (~1,800 rows) takes about seven statements. 512 rows of 22 values is 11,264
 * parameters, far below SQLite's 32,766 and PostgreSQL's 65,535.
 */
const LARGEST_INSERT_BATCH = 512;

/** The ledger and owner, then the row's own columns, then its block: the order the values are laid out in. */
const INSERT_COLUMNS = ['ledger_id', 'owner_iss', 'owner_sub', ...ROW_COLUMNS, 'block'] as const;

/** INSERT texts by dialect and row count; at most two dialects times ten batch sizes. */
const compiledInserts = new Map<string, string>();

/** The largest power of two, up to LARGEST_INSERT_BATCH, that fits in the rows left. */
function insertBatchSize(rowsLeft: number, largest: number): number {
  let size = largest;
  while (size > rowsLeft) size /= 2;
  return size;
}

/** A row to store: generated rows name the occurrence they stand for, rows added by hand do not. */
export interface NewRow extends TransactionDraft {
  readonly sequence: number;
  /** A new id unless given: a restore keeps the ids of the document it restores. */
  readonly id?: string;
  /** `edited` is only ever set by a restore: a row generated now follows its schedule. */
  readonly source?: Occurrence & { readonly edited?: boolean };
  /** PENDING unless said otherwise: only a row the bank already reports (a statement import) starts CLEARED. */
  readonly status?: TransactionStatus;
  /** 1 unless given: an undo puts a row back at the version it had (decision 0040). */
  readonly version?: number;
  /** The other side, for one side of a transfer (decision 0043). */
  readonly transfer?: TransferLink | null;
  /** The bank's mark, for a row a bank sync brings in or an undo puts back (decision 0081); null unless given. */
  readonly bank?: BankMark | null;
}

/**
 * Stores new rows and answers them as stored, at version 1. New rows start PENDING (nothing is
 * paid before the user says so), except rows a bank statement brings in. An undo puts rows back
 * exactly as they were, version included. The rows' months count them in (month-totals.ts), and
 * each goes into its block (row-blocks.ts), given before it is stored.
 */
export async function insertRows(
  scope: LedgerScope,
  ledgerId: string,
  rows: readonly NewRow[],
  /** Rows per INSERT at most: a power of two. Staging outside any transaction (decision 0072) stores fewer, each its own short transaction. */
  largestBatch = LARGEST_INSERT_BATCH,
): Promise<StoredRow[]> {
  const stored = rows.map((row): StoredRow => ({
    id: row.id ?? newId(),
    sequence: row.sequence,
    date: row.date,
    name: row.name,
    type: row.type,
    amount: row.amount,
    status: row.status ?? 'PENDING',
    version: row.version ?? 1,
    source: row.source
      ? { kind: row.source.kind, id: row.source.id, occurrence: row.source.occurrence, edited: row.source.edited ?? false }
      : null,
    transfer: row.transfer ? { id: row.transfer.id, accountId: row.transfer.accountId } : null,
    bank: row.bank
      ? {
          key: { account: row.bank.key.account, transaction: row.bank.key.transaction },
          state: row.bank.state,
          missingSince: row.bank.missingSince,
        }
      : null,
  }));
  const blocks = await RowBlocks.read(scope, ledgerId);
  const placedIn = await blocks.placeNew(stored);
  let start = 0;
  while (start < stored.length) {
    const size = insertBatchSize(stored.length - start, largestBatch);
    await scope.db.executeQuery(insertStatement(scope, ledgerId, stored, placedIn, start, size));
    start += size;
    // Lets other requests in between batches: SQLite's driver stores each batch synchronously, so a
    // 20,000-row ledger would otherwise hold the event loop for its whole insert (issue 17).
    if (start < stored.length) await new Promise((resolve) => setImmediate(resolve));
  }
  const change = new MonthTotalsChange();
  for (const row of stored) change.add(row, 1);
  await saveMonthTotals(scope, ledgerId, change);
  await blocks.save();
  return stored;
}

/**
 * The INSERT for `size` rows from `start`. Kysely spends about as long building and compiling a
 * 512-row insert as SQLite spends storing it, and the statement text depends only on the dialect
 * and the row count, so the text is compiled once per (dialect, batch size) and after that only
 * the values are laid out, straight into one array in INSERT_COLUMNS order.
 */
function insertStatement(
  { db, owner, kind }: LedgerScope,
  ledgerId: string,
  rows: readonly StoredRow[],
  blocks: readonly number[],
  start: number,
  size: number,
): CompiledQuery {
  const parameters: unknown[] = [];
  for (let index = start; index < start + size; index += 1) {
    const row = rows[index] as StoredRow;
    parameters.push(
      ledgerId,
      owner.issuer,
      owner.subject,
      row.id,
      row.sequence,
      row.date,
      row.name,
      row.type,
      row.amount,
      row.status,
      row.version,
      row.source?.kind ?? null,
      row.source?.id ?? null,
      row.source?.occurrence ?? null,
      row.source?.edited ? 1 : 0,
      row.transfer?.id ?? null,
      row.transfer?.accountId ?? null,
      row.bank?.key.account ?? null,
      row.bank?.key.transaction ?? null,
      row.bank?.state ?? null,
      row.bank?.missingSince ?? null,
      blocks[index],
    );
  }
  const key = `${kind}:${size}`;
  const cached = compiledInserts.get(key);
  if (cached) return CompiledQuery.raw(cached, parameters);
  const values = Array.from({ length: size }, (_, offset): Insertable<LedgerTransactionsTable> => {
    const row = parameters.slice(offset * INSERT_COLUMNS.length, (offset + 1) * INSERT_COLUMNS.length);
    return Object.fromEntries(INSERT_COLUMNS.map((column, position) => [column, row[position]])) as Insertable<LedgerTransactionsTable>;
  });
  const compiled = db.insertInto('ledger_transactions').values(values).compile();
  // The cached text is only reusable if Kysely laid the values out row by row in column order.
  const sameLayout =
    compiled.parameters.length === parameters.length && compiled.parameters.every((parameter, index) => parameter === parameters[index]);
  if (!sameLayout) return compiled;
  compiledInserts.set(key, compiled.sql);
  return compiled;
}

/** Rows readied and stored per call of insertRows by insertRowsInSlices. */
const SLICE_ROWS = 1024;

/**
 * insertRows for a whole ledger's rows (a restore, a staged ledger, an undo's before-images), a
 * slice at a time with a turn of the event loop between: readying 20,000 rows at once (their ids,
 * blocks and month totals) held the event loop for 120 to 250 ms (decision 0072). Rows in row order
 * go each slice after the last, into the ledger's last block or new ones.
 */
export async function insertRowsInSlices<Row>(
  scope: LedgerScope,
  ledgerId: string,
  rows: readonly Row[],
  /** Each row as insertRows takes it, made a slice at a time too. */
  toNew: (row: Row) => NewRow,
  largestBatch = LARGEST_INSERT_BATCH,
): Promise<void> {
  for (let start = 0; start < rows.length; start += SLICE_ROWS) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    await insertRows(scope, ledgerId, rows.slice(start, start + SLICE_ROWS).map(toNew), largestBatch);
  }
}
