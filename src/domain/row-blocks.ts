/**
 * A ledger's rows cut into blocks (issue 34): each block is an unbroken stretch of row order,
 * known by its low key (every row of a later block comes after it, every row of the block itself at
 * or after it but in the first block), with its row count and signed sum. A row's index and running
 * balance then come from the counts and sums of the blocks before its own and the rows of its own
 * block alone (placeInBlock), whatever the ledger's shape: months and days hold any number of rows,
 * a block never more than MAX_BLOCK_ROWS. Row order compares names in JavaScript (compareNames),
 * which no database collation reproduces, so blocks are found and cut here, never by SQL order.
 */
import { compareRows, type RowOrderKey } from './balances.js';

/** The rows a block is cut to: a 20,000-row ledger has about 160 blocks, each read whole to place a row in it. */
export const BLOCK_ROWS = 128;

/** Past this a block is cut again (into blocks of about BLOCK_ROWS): what one write reads to place a row. */
export const MAX_BLOCK_ROWS = 2 * BLOCK_ROWS;

/**
 * Below this a block is merged into its neighbour, so deleting rows cannot leave thousands of
 * nearly empty blocks behind: a ledger of n rows has at most n / MIN_BLOCK_ROWS + 1 blocks.
 */
export const MIN_BLOCK_ROWS = BLOCK_ROWS / 2;

/**
 * How many rows each block holds when `count` rows in row order are cut into blocks: as evenly as
 * possible, none above BLOCK_ROWS, and none below BLOCK_ROWS / 2 unless all of them are.
 */
export function blockSizes(count: number): number[] {
  if (count <= 0) return [];
  const blocks = Math.ceil(count / BLOCK_ROWS);
  const base = Math.floor(count / blocks);
  const larger = count % blocks;
  return Array.from({ length: blocks }, (_, index) => base + (index < larger ? 1 : 0));
}

/** Rows already in row order, cut into consecutive blocks of blockSizes. */
export function cutIntoBlocks<Row>(ordered: readonly Row[]): Row[][] {
  const blocks: Row[][] = [];
  let start = 0;
  for (const size of blockSizes(ordered.length)) {
    blocks.push(ordered.slice(start, start + size));
    start += size;
  }
  return blocks;
}

/**
 * The index of the block a row with this key belongs in, among blocks in row order given by their
 * low keys: the last block whose low key is at or before the key, or the first when the key comes
 * before them all. A binary search: log2 of the blocks' count comparisons.
 */
export function blockIndexFor(lows: readonly RowOrderKey[], key: RowOrderKey): number {
  let low = 0;
  let high = lows.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (compareRows(lows[middle] as RowOrderKey, key) <= 0) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}
