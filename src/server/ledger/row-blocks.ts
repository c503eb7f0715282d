/**
 * A ledger's row blocks as stored (issue 34, src/domain/row-blocks.ts): ledger_row_blocks, each
 * block with its rank (its place in row order), and each row's block in ledger_transactions.block.
 * The functions that write rows (row-insert.ts, transaction-rows.ts) keep them in step: new rows get
 * their block from the ledger's blocks, read in rank order; a rename, a new amount or a delete that
 * leaves its block big enough touches that block's record alone; a block taken past MAX_BLOCK_ROWS is
 * cut again, one left below MIN_BLOCK_ROWS joins its neighbour, an empty one goes, and the ranks are
 * numbered again. So a write reads and moves at most a few blocks' rows, however many rows share its
 * month or its day, and a Pay (a status alone) touches no block. Placing written rows
 * (LedgerStore.place) reads the rows of the blocks that hold them and what the blocks before sum to.
 */
import { sql } from 'kysely';
import { compareRows, type RowOrderKey, type RowsBefore } from '../../domain/balances.js';
import { isoDate } from '../../domain/calendar-date.js';
import { BANK_STATES, countedAmount, type CountedRow, TRANSACTION_TYPES } from '../../domain/ledger.js';
import { cents } from '../../domain/money.js';
import { blockIndexFor, cutIntoBlocks, MAX_BLOCK_ROWS, MIN_BLOCK_ROWS } from '../../domain/row-blocks.js';
import type { LedgerRowBlocksTable, OwnerColumns } from '../db/schema.js';
import { storedValue } from '../db/stored-value.js';
import type { LedgerScope } from './ledger-record.js';

/** What a block reads of a row: its place in row order and its signed amount, as every balance counts it (countedAmount). */
export type BlockedRow = RowOrderKey & CountedRow;

/** A row already stored, as a cut reads it. */
type HeldRow = BlockedRow & { readonly id: string };

interface Block {
  readonly id: number;
  /** Its place in row order as stored; renumbered when blocks are cut or merged. */
  rank: number;
  low: RowOrderKey;
  rows: number;
  signed: number;
}

/** Blocks per statement that stores them: 10 values each, far below either database's parameter limit. */
const SAVE_BATCH = 500;

function inRowOrder(rows: readonly RowOrderKey[]): boolean {
  for (let index = 1; index < rows.length; index += 1)
    if (compareRows(rows[index - 1] as RowOrderKey, rows[index] as RowOrderKey) > 0) return false;
  return true;
}

function keyOf(row: RowOrderKey): RowOrderKey {
  return { date: row.date, type: row.type, name: row.name, sequence: row.sequence };
}

export class RowBlocks {
  /** Blocks whose record the write changed or made, by number; read from `blocks` when saved. */
  private readonly changed = new Set<number>();
  /** Blocks whose record goes. */
  private readonly dropped = new Set<number>();
  /** Whether a block was added or removed: the blocks' ranks are then numbered again when saved. */
  private restructured = false;
  /** The blocks' low keys in row order, and the blocks by number, while no block was added or removed. */
  private lowKeys: RowOrderKey[] | undefined;
  private byId: Map<number, Block> | undefined;

  private constructor(
    private readonly scope: LedgerScope,
    private readonly ledgerId: string,
    /** In row order: by rank, which is the row order of their low keys. */
    private readonly blocks: Block[],
    private nextId: number,
  ) {}

  /** The ledger's blocks, in row order: one statement, one record per block (about 160 at 20,000 rows). */
  static async read(scope: LedgerScope, ledgerId: string): Promise<RowBlocks> {
    const records = await blockRecords(scope, ledgerId).orderBy('rank').execute();
    let nextId = 1;
    const blocks = records.map((record): Block => {
      nextId = Math.max(nextId, record.block + 1);
      return toBlock(record);
    });
    return new RowBlocks(scope, ledgerId, blocks, nextId);
  }

  /**
   * Gives each new row its block before the rows are stored, and counts them in: answers each one's
   * block, in the order given. A block the new rows would take past MAX_BLOCK_ROWS is cut anew
   * with the rows it already holds (read here), so new rows go straight to their final block and
   * only the rows already stored there may move: a new ledger's 20,000 rows are cut once, in memory.
   */
  async placeNew(rows: readonly (BlockedRow & { readonly id: string })[]): Promise<number[]> {
    const groups = new Map<Block | null, number[]>();
    for (const [index, row] of rows.entries()) {
      const block = this.blockFor(row) ?? null;
      const group = groups.get(block);
      if (group) group.push(index);
      else groups.set(block, [index]);
    }
    const answer: number[] = new Array<number>(rows.length).fill(0);
    for (const [block, indexes] of groups) {
      if (block !== null && block.rows + indexes.length <= MAX_BLOCK_ROWS) {
        for (const index of indexes) {
          this.countIn(block, rows[index] as BlockedRow);
          answer[index] = block.id;
        }
        continue;
      }
      const held = block === null ? [] : await this.readRows(block);
      const entering = indexes.map((index) => ({ ...(rows[index] as HeldRow), index }));
      // A restored ledger's rows come in row order: checking that is one pass, where sorting 20,000 held the event loop for 150 ms.
      const ordered = held.length === 0 && inRowOrder(entering) ? entering : [...held, ...entering].sort(compareRows);
      await this.cut(block, ordered, (row, id) => {
        if ('index' in row && typeof row.index === 'number') answer[row.index] = id;
      });
    }
    return answer;
  }

  /**
   * A stored row whose key or amount changes (a rename, a new date or amount, a Clear on the bank's
   * date): counted out of its block as it was and into the block its new key belongs in, which it
   * answers; the caller stores that block on the row before save().
   */
  moveRow(from: number, before: BlockedRow, after: BlockedRow): number {
    this.countOut(from, before);
    const target = this.blockFor(after);
    if (!target) throw new Error('a stored ledger row has no block to move from');
    this.countIn(target, after);
    return target.id;
  }

  /** A row deleted from block `from`. */
  removeRow(from: number, row: BlockedRow): void {
    this.countOut(from, row);
  }

  /**
   * Stores what the write changed, once its rows are stored: a block a moved row took past
   * MAX_BLOCK_ROWS is cut again, an empty block goes, and one below MIN_BLOCK_ROWS joins its
   * neighbour (and is cut again if that makes one too large). Then one statement per 500 blocks
   * changed, and one for the blocks gone.
   */
  async save(): Promise<void> {
    for (const block of [...this.blocks]) if (block.rows > MAX_BLOCK_ROWS) await this.recut(block);
    for (;;) {
      const index = this.blocks.findIndex((block) => block.rows === 0 || (block.rows < MIN_BLOCK_ROWS && this.blocks.length > 1));
      if (index < 0) break;
      await this.merge(index);
    }
    if (this.restructured) {
      for (const [rank, block] of this.blocks.entries()) {
        if (block.rank === rank) continue;
        block.rank = rank;
        this.changed.add(block.id);
      }
      this.restructured = false;
    }
    const { db, owner } = this.scope;
    if (this.dropped.size > 0) {
      await db
        .deleteFrom('ledger_row_blocks')
        .where('ledger_id', '=', this.ledgerId)
        .where('owner_iss', '=', owner.issuer)
        .where('owner_sub', '=', owner.subject)
        .where('block', 'in', [...this.dropped])
        .execute();
    }
    const changed = this.blocks.filter((block) => this.changed.has(block.id));
    for (let start = 0; start < changed.length; start += SAVE_BATCH) {
      const values = changed.slice(start, start + SAVE_BATCH).map((block) => ({
        ledger_id: this.ledgerId,
        owner_iss: owner.issuer,
        owner_sub: owner.subject,
        block: block.id,
        rank: block.rank,
        low_date: block.low.date,
        low_type: block.low.type,
        low_name: block.low.name,
        low_sequence: block.low.sequence,
        row_count: block.rows,
        signed_cents: block.signed,
      }));
      await db
        .insertInto('ledger_row_blocks')
        .values(values)
        .onConflict((conflict) =>
          conflict.columns(['ledger_id', 'block']).doUpdateSet((eb) => ({
            rank: eb.ref('excluded.rank'),
            low_date: eb.ref('excluded.low_date'),
            low_type: eb.ref('excluded.low_type'),
            low_name: eb.ref('excluded.low_name'),
            low_sequence: eb.ref('excluded.low_sequence'),
            row_count: eb.ref('excluded.row_count'),
            signed_cents: eb.ref('excluded.signed_cents'),
          })),
        )
        .execute();
    }
    this.changed.clear();
    this.dropped.clear();
  }

  /** The block a row with this key belongs in; undefined while the ledger has none. */
  private blockFor(key: RowOrderKey): Block | undefined {
    if (this.blocks.length === 0) return undefined;
    this.lowKeys ??= this.blocks.map((block) => block.low);
    return this.blocks[blockIndexFor(this.lowKeys, key)];
  }

  private forgetIndexes(): void {
    this.lowKeys = undefined;
    this.byId = undefined;
  }

  private countIn(block: Block, row: BlockedRow): void {
    block.rows += 1;
    block.signed += countedAmount(row);
    // Only the first block takes rows before its low key: it stays the lowest.
    if (compareRows(row, block.low) < 0) {
      block.low = keyOf(row);
      this.forgetIndexes();
    }
    this.changed.add(block.id);
  }

  private countOut(id: number, row: BlockedRow): void {
    this.byId ??= new Map(this.blocks.map((block) => [block.id, block]));
    const block = this.byId.get(id);
    if (!block || block.rows <= 0) throw new Error(`ledger row block ${id} does not hold the row counted out of it`);
    block.rows -= 1;
    block.signed -= countedAmount(row);
    this.changed.add(block.id);
  }

  /**
   * Cuts rows in row order into blocks in place of `block` (or the ledger's first blocks, when it has
   * none): the first keeps the block's number, the others take new ones. Rows already stored that
   * land in another block are moved there now; `assign` hears every row's block.
   */
  private async cut(block: Block | null, ordered: readonly HeldRow[], assign: (row: HeldRow, id: number) => void): Promise<void> {
    const made: Block[] = [];
    for (const [index, piece] of cutIntoBlocks(ordered).entries()) {
      const first = piece[0] as HeldRow;
      const signed = piece.reduce((sum, row) => sum + countedAmount(row), 0);
      let target: Block;
      if (index === 0 && block !== null) {
        target = block;
        target.low = keyOf(first);
        target.rows = piece.length;
        target.signed = signed;
      } else {
        // Ranked when saved, with every block after it.
        target = { id: this.nextId, rank: -1, low: keyOf(first), rows: piece.length, signed };
        this.nextId += 1;
        this.restructured = true;
      }
      made.push(target);
      this.changed.add(target.id);
      const moving: string[] = [];
      for (const row of piece) {
        assign(row, target.id);
        // Rows read from the block are stored; new rows (with an index) are not yet.
        if (target !== block && !('index' in row)) moving.push(row.id);
      }
      await this.moveStored(moving, target.id);
    }
    const at = block === null ? 0 : this.blocks.indexOf(block);
    this.blocks.splice(at, block === null ? 0 : 1, ...made);
    this.forgetIndexes();
  }

  /** A block a moved row took past MAX_BLOCK_ROWS, cut again from its rows as now stored. */
  private async recut(block: Block): Promise<void> {
    const held = await this.readRows(block);
    await this.cut(block, held.sort(compareRows), () => undefined);
  }

  /** An empty block goes; a small one's rows join the block before it (after it, for the first). */
  private async merge(index: number): Promise<void> {
    const small = this.blocks[index] as Block;
    this.blocks.splice(index, 1);
    this.forgetIndexes();
    this.restructured = true;
    this.changed.delete(small.id);
    this.dropped.add(small.id);
    if (small.rows === 0) return;
    const target = (this.blocks[index - 1] ?? this.blocks[index]) as Block;
    // Joining the block after it, the first block's rows keep the lowest low key.
    if (compareRows(small.low, target.low) < 0) target.low = small.low;
    target.rows += small.rows;
    target.signed += small.signed;
    this.changed.add(target.id);
    const { db, owner } = this.scope;
    await db
      .updateTable('ledger_transactions')
      .set({ block: target.id })
      .where('ledger_id', '=', this.ledgerId)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .where('block', '=', small.id)
      .execute();
    if (target.rows > MAX_BLOCK_ROWS) await this.recut(target);
  }

  /** The rows stored in a block, as a cut reads them; there must be exactly as many as it counts. */
  private async readRows(block: Block): Promise<HeldRow[]> {
    const { db, owner } = this.scope;
    const records = await db
      .selectFrom('ledger_transactions')
      .select(['id', 'date', 'type', 'name', 'sequence', 'amount_cents', 'bank_state'])
      .where('ledger_id', '=', this.ledgerId)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .where('block', '=', block.id)
      .execute();
    if (records.length !== block.rows)
      throw new Error(`ledger row block ${block.id} counts ${block.rows} rows but holds ${records.length}`);
    return records.map((record) => ({
      id: record.id,
      date: isoDate(record.date),
      type: storedValue(TRANSACTION_TYPES, record.type, 'ledger_transactions.type'),
      name: record.name,
      sequence: record.sequence,
      amount: cents(Number(record.amount_cents)),
      bank: record.bank_state === null ? null : { state: storedValue(BANK_STATES, record.bank_state, 'ledger_transactions.bank_state') },
    }));
  }

  private async moveStored(ids: readonly string[], id: number): Promise<void> {
    if (ids.length === 0) return;
    const { db, owner } = this.scope;
    await db
      .updateTable('ledger_transactions')
      .set({ block: id })
      .where('ledger_id', '=', this.ledgerId)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .where('id', 'in', ids)
      .execute();
  }
}

/** Every block of the ledger goes with its rows. */
export async function forgetRowBlocks({ db, owner }: LedgerScope, ledgerId: string): Promise<void> {
  await db
    .deleteFrom('ledger_row_blocks')
    .where('ledger_id', '=', ledgerId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .execute();
}

/** The owner's blocks of one ledger, every column a block is read with. */
function blockRecords({ db, owner }: LedgerScope, ledgerId: string) {
  return db
    .selectFrom('ledger_row_blocks')
    .select(['block', 'rank', 'low_date', 'low_type', 'low_name', 'low_sequence', 'row_count', 'signed_cents'])
    .where('ledger_id', '=', ledgerId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject);
}

/** A block's record as stored, without the columns that say whose ledger it is. */
type BlockRecord = Omit<LedgerRowBlocksTable, keyof OwnerColumns | 'ledger_id'>;

function toBlock(record: BlockRecord): Block {
  return {
    id: record.block,
    rank: record.rank,
    low: {
      date: isoDate(record.low_date),
      type: storedValue(TRANSACTION_TYPES, record.low_type, 'ledger_row_blocks.low_type'),
      name: record.low_name,
      sequence: record.low_sequence,
    },
    rows: Number(record.row_count),
    signed: Number(record.signed_cents),
  };
}

/** Where a stored row whose key or amount changes is to be stored, and what to save once it is. */
export interface RowMove {
  readonly block: number;
  save(): Promise<void>;
}

/**
 * A stored row whose date, name or amount changes: undefined when the row is gone. When its new key
 * still falls in its block (most renames, any new amount, a date within the same stretch), only that
 * block's sum moves, found from the block and the next one in rank (two records); otherwise every
 * block is read and the row moved to the block its key now belongs in (RowBlocks.moveRow).
 */
export async function planRowMove(
  scope: LedgerScope,
  ledgerId: string,
  id: string,
  before: BlockedRow,
  after: BlockedRow,
): Promise<RowMove | undefined> {
  const { db, owner } = scope;
  const stored = await db
    .selectFrom('ledger_transactions')
    .select('block')
    .where('ledger_id', '=', ledgerId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .where('id', '=', id)
    .executeTakeFirst();
  if (stored === undefined) return undefined;
  const from = storedBlock(stored.block);
  const [own, next] = (
    await blockRecords(scope, ledgerId)
      .where('rank', '>=', (eb) =>
        eb
          .selectFrom('ledger_row_blocks')
          .select('rank')
          .where('ledger_id', '=', ledgerId)
          .where('owner_iss', '=', owner.issuer)
          .where('owner_sub', '=', owner.subject)
          .where('block', '=', from),
      )
      .orderBy('rank')
      .limit(2)
      .execute()
  ).map(toBlock);
  if (own?.id !== from) throw new Error(`ledger row block ${from} of row ${id} is not stored`);
  const stays = (own.rank === 0 || compareRows(after, own.low) >= 0) && (next === undefined || compareRows(after, next.low) < 0);
  if (stays) {
    const moved = countedAmount(after) - countedAmount(before);
    return {
      block: from,
      save: async () => {
        if (moved !== 0) await adjustBlock(scope, ledgerId, from, 0, moved);
      },
    };
  }
  const blocks = await RowBlocks.read(scope, ledgerId);
  return { block: blocks.moveRow(from, before, after), save: () => blocks.save() };
}

/**
 * A row deleted from block `from`, counted out in one statement; only when that leaves the block
 * below MIN_BLOCK_ROWS are the blocks read, to drop it or merge it into a neighbour.
 */
export async function countDeletedRow(scope: LedgerScope, ledgerId: string, from: number, row: BlockedRow): Promise<void> {
  const left = await adjustBlock(scope, ledgerId, from, -1, -countedAmount(row));
  if (left >= MIN_BLOCK_ROWS) return;
  await (await RowBlocks.read(scope, ledgerId)).save();
}

/** Adds to a block's count and sum; answers its count after. */
async function adjustBlock({ db, owner }: LedgerScope, ledgerId: string, block: number, rows: number, signed: number): Promise<number> {
  const record = await db
    .updateTable('ledger_row_blocks')
    .set((eb) => ({ row_count: eb('row_count', '+', rows), signed_cents: eb('signed_cents', '+', signed) }))
    .where('ledger_id', '=', ledgerId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .where('block', '=', block)
    .returning('row_count')
    .executeTakeFirst();
  if (record === undefined) throw new Error(`ledger row block ${block} is not stored`);
  return Number(record.row_count);
}

/** A row's block as stored: every row has one since migration 0017. */
export function storedBlock(block: number | null | undefined): number {
  if (typeof block !== 'number') throw new Error(`unexpected ledger_transactions.block value in the database: ${String(block)}`);
  return block;
}

/**
 * The rows of the blocks before each of these in row order, and their signed sum: one statement
 * summing at most the ledger's block records (about 160 at 20,000 rows) in the database.
 */
export async function readRowsBefore(
  { db, owner }: LedgerScope,
  ledgerId: string,
  blocks: readonly number[],
): Promise<Map<number, RowsBefore>> {
  const before = (column: 'row_count' | 'signed_cents') =>
    sql<number | string | null>`(select sum(${sql.ref(`earlier.${column}`)}) from ledger_row_blocks as earlier
      where earlier.ledger_id = ${sql.ref('block.ledger_id')} and earlier.rank < ${sql.ref('block.rank')})`;
  const records = await db
    .selectFrom('ledger_row_blocks as block')
    .select(['block.block', before('row_count').as('rows'), before('signed_cents').as('signed')])
    .where('block.ledger_id', '=', ledgerId)
    .where('block.owner_iss', '=', owner.issuer)
    .where('block.owner_sub', '=', owner.subject)
    .where('block.block', 'in', blocks)
    .execute();
  // PostgreSQL answers sums as numeric text; no block before sums to null.
  return new Map(records.map((record) => [record.block, { rows: Number(record.rows ?? 0), signed: Number(record.signed ?? 0) }]));
}
