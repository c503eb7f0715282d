/**
 * The ledgers' row blocks (issue 34, src/server/ledger/row-blocks.ts) against the rows they cut:
 * every test app checks them when it closes, as it checks the month totals, so any write path that
 * leaves a row without its block, a count or a sum wrong, or a block out of row order fails the test
 * file that exercised it, on both databases.
 */
import { type Kysely, sql } from 'kysely';
import { compareRows, type RowOrderKey } from '../../src/domain/balances.js';
import { isoDate } from '../../src/domain/calendar-date.js';
import { MAX_BLOCK_ROWS } from '../../src/domain/row-blocks.js';

interface BlockRecord {
  ledger_id: string;
  owner_iss: string;
  owner_sub: string;
  block: number;
  rank: number;
  low_date: string;
  low_type: string;
  low_name: string;
  low_sequence: number;
  row_count: number | string;
  signed_cents: number | string;
}

interface RowRecord {
  ledger_id: string;
  owner_iss: string;
  owner_sub: string;
  id: string;
  block: number | null;
  date: string;
  type: string;
  name: string;
  sequence: number;
  amount_cents: number | string;
  bank_state: string | null;
}

function orderKey(record: { date: string; type: string; name: string; sequence: number }): RowOrderKey {
  return { date: isoDate(record.date), type: record.type === 'C' ? 'C' : 'D', name: record.name, sequence: record.sequence };
}

/**
 * Throws, naming the first fault, unless every row has a block of its own ledger and owner, every
 * block counts and sums exactly its rows, holds at least one and at most MAX_BLOCK_ROWS, the blocks
 * are ranked 0, 1, 2... in the row order of their low keys, and taken in that order hold the rows in
 * row order: each block's rows come after the block's low key (but the first block's) and before the
 * next block's.
 */
export async function checkRowBlocks<Schema>(db: Kysely<Schema>): Promise<void> {
  const blocks = await sql<BlockRecord>`select ledger_id, owner_iss, owner_sub, block, rank, low_date, low_type, low_name, low_sequence,
      row_count, signed_cents from ledger_row_blocks`.execute(db);
  const rows = await sql<RowRecord>`select ledger_id, owner_iss, owner_sub, id, block, date, type, name, sequence, amount_cents,
      bank_state from ledger_transactions`.execute(db);
  const byLedger = new Map<string, { blocks: BlockRecord[]; rows: RowRecord[] }>();
  const ledgerOf = (id: string) => {
    const found = byLedger.get(id) ?? { blocks: [], rows: [] };
    byLedger.set(id, found);
    return found;
  };
  for (const block of blocks.rows) ledgerOf(block.ledger_id).blocks.push(block);
  for (const row of rows.rows) ledgerOf(row.ledger_id).rows.push(row);
  for (const [ledgerId, ledger] of byLedger) {
    const fault = (what: string) => new Error(`ledger_row_blocks of ledger ${ledgerId} do not match its rows: ${what}`);
    const ordered = ledger.blocks
      .map((block) => ({
        block,
        low: orderKey({ date: block.low_date, type: block.low_type, name: block.low_name, sequence: block.low_sequence }),
      }))
      .sort((a, b) => compareRows(a.low, b.low));
    // Ranked 0, 1, 2... in the row order of their low keys.
    const ranks = ordered.map(({ block }) => Number(block.rank));
    if (ranks.some((rank, index) => rank !== index)) throw fault(`blocks in row order are ranked ${ranks.join(', ')}`);
    const rank = new Map(ordered.map(({ block }, index) => [block.block, index]));
    const counted = new Map<number, { rows: number; signed: number }>();
    for (const row of ledger.rows) {
      const at = row.block === null ? undefined : rank.get(row.block);
      if (row.block === null || at === undefined) throw fault(`row ${row.id} is in no block of its ledger (${String(row.block)})`);
      const block = ordered[at]?.block;
      if (block?.owner_iss !== row.owner_iss || block.owner_sub !== row.owner_sub) throw fault(`row ${row.id}'s block has another owner`);
      const sums = counted.get(row.block) ?? { rows: 0, signed: 0 };
      sums.rows += 1;
      // A row no longer at the bank counts in no sum (decision 0084).
      if (row.bank_state !== 'gone') sums.signed += (row.type === 'C' ? 1 : -1) * Number(row.amount_cents);
      counted.set(row.block, sums);
      const key = orderKey(row);
      const low = ordered[at]?.low;
      const next = ordered[at + 1]?.low;
      if (at > 0 && low && compareRows(key, low) < 0) throw fault(`row ${row.id} comes before its block's low key`);
      if (next && compareRows(key, next) >= 0) throw fault(`row ${row.id} comes at or after the next block's low key`);
    }
    for (const { block } of ordered) {
      const sums = counted.get(block.block) ?? { rows: 0, signed: 0 };
      if (sums.rows !== Number(block.row_count) || sums.signed !== Number(block.signed_cents))
        throw fault(
          `block ${block.block} counts ${block.row_count} rows summing ${block.signed_cents}, holds ${sums.rows} summing ${sums.signed}`,
        );
      if (sums.rows < 1 || sums.rows > MAX_BLOCK_ROWS) throw fault(`block ${block.block} holds ${sums.rows} rows`);
    }
  }
}
