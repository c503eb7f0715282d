/** A ledger's transaction rows as written after they are stored: change, delete, or clear them. */
import { CompiledQuery, type Expression, expressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { BankMark } from '../../domain/bank-sync/bank-rows.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import type { SourcedRow } from '../../domain/ledger-projection.js';
import type { RowChanges } from '../../domain/transaction-rules.js';
import type { Caller } from '../auth/access-token.js';
import { ownerColumns } from '../db/owner.js';
import type { DatabaseSchema, LedgerTransactionsTable } from '../db/schema.js';
import type { LedgerScope } from './ledger-record.js';
import { forgetMonthTotals, MonthTotalsChange, saveMonthTotals } from './month-totals.js';
import { countDeletedRow, forgetRowBlocks, planRowMove, RowBlocks, type RowMove, storedBlock } from './row-blocks.js';

/** The columns of a row, in the order it is read (ledger-reads) and laid out to insert (row-insert). */
export const ROW_COLUMNS = [
  'id',
  'sequence',
  'date',
  'name',
  'type',
  'amount_cents',
  'status',
  'version',
  'source_kind',
  'source_id',
  'source_occurrence',
  'edited',
  'transfer_id',
  'transfer_account_id',
  // The bank's mark (decision 0081): a row no longer at the bank counts in no balance (decision 0084).
  'bank_account_id',
  'bank_transaction_id',
  'bank_state',
  'bank_missing_since',
] as const satisfies readonly (keyof LedgerTransactionsTable)[];

export interface StoredRow extends SourcedRow {
  /** Raised on every change; a write names the version it read so a lost update cannot go unnoticed. */
  readonly version: number;
  /** The bank's whole mark (decision 0081), as stored; null (or absent) for a row the bank never touched. */
  readonly bank?: BankMark | null;
}

/**
 * The owner's rows of one ledger, as a filter for any query on ledger_transactions. The ledger may
 * be named by a reference to it, when the rows are read along with their ledger.
 */
export function rowsOf(owner: Caller, ledgerId: string | RawBuilder<string>): Expression<SqlBool> {
  return expressionBuilder<DatabaseSchema, 'ledger_transactions'>().and({ ledger_id: ledgerId, ...ownerColumns(owner) });
}

/**
 * False when the row changed since it was read (its version moved on); nothing is written then.
 * `edits`: the date, name or amount changed, so a generated row no longer follows its schedule.
 * Every function here that changes a row's date, name, amount or status, adds or removes rows keeps
 * the ledger's month totals (month-totals.ts) and row blocks (row-blocks.ts) in step. A new status
 * alone (a Pay, a Clear) moves no block: blocks count rows and their amounts, not their statuses.
 */
export async function updateRow(
  scope: LedgerScope,
  ledgerId: string,
  row: StoredRow,
  changes: RowChanges,
  edits: boolean,
): Promise<boolean> {
  const { db, owner } = scope;
  const moved = {
    date: changes.date,
    type: row.type,
    name: changes.name,
    sequence: row.sequence,
    amount: changes.amount,
    status: changes.status,
    bank: row.bank,
  };
  let move: RowMove | undefined;
  if (changes.date !== row.date || changes.name !== row.name || changes.amount !== row.amount) {
    move = await planRowMove(scope, ledgerId, row.id, row, moved);
    if (move === undefined) return false;
  }
  const block = move?.block;
  const result = await db
    .updateTable('ledger_transactions')
    .set({
      date: changes.date,
      name: changes.name,
      amount_cents: changes.amount,
      status: changes.status,
      version: row.version + 1,
      ...(edits && row.source ? { edited: 1 } : {}),
      ...(block !== undefined && { block }),
    })
    .where(rowsOf(owner, ledgerId))
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .executeTakeFirst();
  if (result.numUpdatedRows !== 1n) return false;
  await saveMonthTotals(scope, ledgerId, new MonthTotalsChange().add(row, -1).add(moved, 1));
  await move?.save();
  return true;
}

/** The row's link to the other side of its transfer, set or cleared; false when the row changed since it was read, like updateRow. */
export async function setRowTransfer(
  { db, owner }: LedgerScope,
  ledgerId: string,
  row: StoredRow,
  transfer: { readonly id: string; readonly accountId: string } | null,
): Promise<boolean> {
  const result = await db
    .updateTable('ledger_transactions')
    .set({ transfer_id: transfer?.id ?? null, transfer_account_id: transfer?.accountId ?? null, version: row.version + 1 })
    .where(rowsOf(owner, ledgerId))
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** False when the row changed since it was read, like updateRow. */
export async function deleteRow(scope: LedgerScope, ledgerId: string, row: StoredRow): Promise<boolean> {
  const deleted = await scope.db
    .deleteFrom('ledger_transactions')
    .where(rowsOf(scope.owner, ledgerId))
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .returning('block')
    .executeTakeFirst();
  if (deleted === undefined) return false;
  await saveMonthTotals(scope, ledgerId, new MonthTotalsChange().add(row, -1));
  await countDeletedRow(scope, ledgerId, storedBlock(deleted.block), row);
  return true;
}

/** Ids per DELETE: far below either database's parameter limit, whatever a schedule change or an undo removes. */
const DELETE_BATCH = 1000;

/**
 * Rows of a locked ledger that a schedule change replaces, or an undo takes back, as read under the
 * lock: none changed since, so each goes, and leaves its month's totals and its block, as read.
 */
export async function deleteRows(scope: LedgerScope, ledgerId: string, rows: readonly StoredRow[]): Promise<void> {
  if (rows.length === 0) return;
  const change = new MonthTotalsChange();
  const blocks = await RowBlocks.read(scope, ledgerId);
  for (let start = 0; start < rows.length; start += DELETE_BATCH) {
    const batch = rows.slice(start, start + DELETE_BATCH);
    const deleted = await scope.db
      .deleteFrom('ledger_transactions')
      .where(rowsOf(scope.owner, ledgerId))
      .where(
        'id',
        'in',
        batch.map((row) => row.id),
      )
      .returning(['id', 'block'])
      .execute();
    countOut(deleted, batch, change, blocks);
  }
  await saveMonthTotals(scope, ledgerId, change);
  await blocks.save();
}

/** Takes deleted rows out of their month totals and blocks, each by the block its DELETE returned. */
function countOut(
  deleted: readonly { readonly id: string; readonly block: number | null }[],
  rows: readonly StoredRow[],
  change: MonthTotalsChange,
  blocks: RowBlocks,
): void {
  const blockById = new Map(deleted.map((record) => [record.id, storedBlock(record.block)]));
  for (const row of rows) {
    const block = blockById.get(row.id);
    // The ledger is locked and the rows were just read in it: a row not there is a fault, not a race.
    if (block === undefined) throw new Error('a ledger row read under the ledger lock was not there to delete');
    change.add(row, -1);
    blocks.removeRow(block, row);
  }
}

/**
 * Rows of a locked ledger that fill runs of creation order (an Extend's rows, a statement's): one
 * DELETE per run, by its first and last sequence, where `runs` holds every row of the ledger in
 * that range. By id, 20,000 rows took twenty statements and 140 ms on SQLite; by range, 35 ms.
 */
export async function deleteRowRuns(scope: LedgerScope, ledgerId: string, runs: readonly (readonly StoredRow[])[]): Promise<void> {
  const change = new MonthTotalsChange();
  const blocks = await RowBlocks.read(scope, ledgerId);
  for (const [index, run] of runs.entries()) {
    // A turn of the event loop between runs; the blocks and month totals are read and saved once for all.
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    const first = run[0];
    const last = run[run.length - 1];
    if (!first || !last) continue;
    const deleted = await scope.db
      .deleteFrom('ledger_transactions')
      .where(rowsOf(scope.owner, ledgerId))
      .where('sequence', '>=', first.sequence)
      .where('sequence', '<=', last.sequence)
      .returning(['id', 'block'])
      .execute();
    // The ledger is locked and its rows were just read in it: any other count is a fault, not a race.
    if (deleted.length !== run.length) throw new Error('a run of ledger rows read under the ledger lock was not what it deleted');
    countOut(deleted, run, change, blocks);
  }
  await saveMonthTotals(scope, ledgerId, change);
  await blocks.save();
}

/** Every row of the ledger, and its month totals and blocks with them; answers how many went. */
export async function deleteAllRows(scope: LedgerScope, ledgerId: string): Promise<number> {
  const result = await scope.db.deleteFrom('ledger_transactions').where(rowsOf(scope.owner, ledgerId)).executeTakeFirst();
  await forgetMonthTotals(scope, ledgerId);
  await forgetRowBlocks(scope, ledgerId);
  return Number(result.numDeletedRows);
}

/**
 * Up to `limit` rows of a detached ledger (decision 0072), deleted in one statement of their own;
 * answers how many went, none once the ledger is in an account (a drop never takes an attached
 * ledger's rows, whatever it was told). Its month totals and blocks go with the ledger, once its rows are gone.
 */
export async function deleteSomeRows({ db, owner }: LedgerScope, ledgerId: string, limit: number): Promise<number> {
  const detached = db.selectFrom('ledgers').select('id').where('id', '=', ledgerId).where('account_id', 'is', null);
  const some = db.selectFrom('ledger_transactions').select('id').where(rowsOf(owner, ledgerId)).limit(limit);
  const result = await db
    .deleteFrom('ledger_transactions')
    .where(rowsOf(owner, ledgerId))
    .where('ledger_id', 'in', detached)
    .where('id', 'in', some)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A row of a locked ledger that a statement row matched: it becomes CLEARED on the bank's date. */
export interface ClearedMatch {
  readonly row: StoredRow;
  readonly date: IsoDate;
}

/** Matches per UPDATE: 5 values each. */
const CLEAR_BATCH = 500;

/**
 * Clears matched rows and moves each to the bank's date, a few hundred rows per statement (an
 * UPDATE ... FROM a VALUES list: SQLite 3.33+ and PostgreSQL both join it by id; correlated
 * subqueries instead cost 30 ms for 1,000 rows on SQLite). A
 * generated row whose date moves counts as edited, as if the user had moved it (decision 0016):
 * it then stands for its occurrence, and no schedule change projects that occurrence again. A row
 * whose date moves may move to another block (row-blocks.ts); the others keep theirs.
 * Answers the rows as they are now stored, in the order of `matches`.
 */
export async function clearMatchedRows(scope: LedgerScope, ledgerId: string, matches: readonly ClearedMatch[]): Promise<StoredRow[]> {
  const { db, owner, kind } = scope;
  const cleared = matches.map(({ row, date }): StoredRow => {
    const source = row.source && { ...row.source, edited: row.source.edited || row.date !== date };
    return { ...row, date, status: 'CLEARED', version: row.version + 1, source };
  });
  const moving = matches.filter(({ row, date }) => row.date !== date);
  const blocks = moving.length > 0 ? await RowBlocks.read(scope, ledgerId) : undefined;
  const movedTo = new Map<string, number>();
  if (blocks) {
    const from = await blocksOf(
      scope,
      ledgerId,
      moving.map(({ row }) => row.id),
    );
    for (const { row, date } of moving) {
      const block = from.get(row.id);
      if (block === undefined) throw new Error('a matched ledger row read under the ledger lock is not there');
      movedTo.set(row.id, blocks.moveRow(block, row, { ...row, date }));
    }
  }
  for (let start = 0; start < cleared.length; start += CLEAR_BATCH) {
    const batch = matches.slice(start, start + CLEAR_BATCH);
    // In the order the text names them: SQLite numbers its placeholders as they appear.
    const parameters: unknown[] = [];
    batch.forEach(({ row, date }, offset) =>
      parameters.push(row.id, date, cleared[start + offset]?.source?.edited ? 1 : 0, row.version, movedTo.get(row.id) ?? null),
    );
    parameters.push(ledgerId, owner.issuer, owner.subject);
    const result = await db.executeQuery(CompiledQuery.raw(clearText(kind, batch.length), parameters));
    // The ledger is locked and the rows were just read in it: anything else is a fault, not a race.
    if (result.numAffectedRows !== BigInt(batch.length)) throw new Error('matched ledger rows changed under the ledger lock');
  }
  const change = new MonthTotalsChange();
  matches.forEach(({ row }, index) => change.add(row, -1).add(cleared[index] as StoredRow, 1));
  await saveMonthTotals(scope, ledgerId, change);
  await blocks?.save();
  return cleared;
}

/** The blocks of stored rows, by id. */
async function blocksOf({ db, owner }: LedgerScope, ledgerId: string, ids: readonly string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (let start = 0; start < ids.length; start += DELETE_BATCH) {
    const records = await db
      .selectFrom('ledger_transactions')
      .select(['id', 'block'])
      .where(rowsOf(owner, ledgerId))
      .where('id', 'in', ids.slice(start, start + DELETE_BATCH))
      .execute();
    for (const record of records) found.set(record.id, storedBlock(record.block));
  }
  return found;
}

/**
 * The UPDATE for `count` matches, laid out here rather than through the query builder (which
 * spent about as long building a 500-row statement as SQLite spent running it): (id, date,
 * edited, version, block) per match, then the ledger and owner. PostgreSQL types parameters in
 * VALUES as text: the casts keep edited, the version and the block integers; a null block keeps
 * the row's own. Each row is updated only at the version
 * it was read at, so the rows answered are exactly the rows stored. The unary + keeps SQLite from
 * joining on the version (an automatic index on matched.version, nearly all 1s, made the join
 * quadratic: 90 ms for 1,000 rows) instead of the id.
 */
function clearText(kind: LedgerScope['kind'], count: number): string {
  const placeholder = kind === 'postgres' ? (position: number) => `$${position}` : () => '?';
  const values = Array.from({ length: count }, (_, index) => {
    const at = 1 + 5 * index;
    return `(${placeholder(at)}, ${placeholder(at + 1)}, cast(${placeholder(at + 2)} as integer), cast(${placeholder(at + 3)} as integer), cast(${placeholder(at + 4)} as integer))`;
  });
  const owner = 1 + 5 * count;
  return `with matched (id, date, edited, version, block) as (values ${values.join(', ')})
    update ledger_transactions
    set status = 'CLEARED', date = matched.date, edited = matched.edited, version = ledger_transactions.version + 1,
      block = coalesce(matched.block, ledger_transactions.block)
    from matched
    where ledger_transactions.id = matched.id and ledger_transactions.version = +matched.version
      and ledger_id = ${placeholder(owner)} and owner_iss = ${placeholder(owner + 1)} and owner_sub = ${placeholder(owner + 2)}`;
}

/** The other accounts this ledger's transfer sides name: read in the database, not by reading every row. */
export async function transferAccountsOf({ db, owner }: LedgerScope, ledgerId: string): Promise<string[]> {
  const found = await db
    .selectFrom('ledger_transactions')
    .select('transfer_account_id')
    .distinct()
    .where(rowsOf(owner, ledgerId))
    .where('transfer_account_id', 'is not', null)
    .execute();
  return found.flatMap((row) => (row.transfer_account_id === null ? [] : [row.transfer_account_id]));
}

/**
 * Rows of one ledger that are transfers' other sides in an account whose rows are all going (an
 * account delete, a New Ledger): they become ordinary rows (decision 0043), each at a new version.
 * Answers how many changed.
 */
export async function unlinkTransfersTo({ db, owner }: LedgerScope, ledgerId: string, accountId: string): Promise<number> {
  const result = await db
    .updateTable('ledger_transactions')
    .set((eb) => ({ transfer_id: null, transfer_account_id: null, version: eb('version', '+', 1) }))
    .where(rowsOf(owner, ledgerId))
    .where('transfer_account_id', '=', accountId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Rows that stop being generated rows and sides of a transfer: a deleted card's payments that stand
 * in its Pay From ledger (decision 0045) become ordinary rows there, each at a new version.
 */
export async function makeOrdinaryRows({ db, owner }: LedgerScope, ledgerId: string, ids: readonly string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += DELETE_BATCH) {
    await db
      .updateTable('ledger_transactions')
      .set((eb) => ({
        source_kind: null,
        source_id: null,
        source_occurrence: null,
        edited: 0,
        transfer_id: null,
        transfer_account_id: null,
        version: eb('version', '+', 1),
      }))
      .where(rowsOf(owner, ledgerId))
      .where('id', 'in', ids.slice(start, start + DELETE_BATCH))
      .execute();
  }
}
