import { type Kysely, type Migration, sql } from 'kysely';
import { compareRows } from '../../../domain/balances.js';
import { isoDate } from '../../../domain/calendar-date.js';
import { TRANSACTION_TYPES } from '../../../domain/ledger.js';
import { cutIntoBlocks } from '../../../domain/row-blocks.js';
import { storedValue } from '../stored-value.js';

/**
 * Issue 34: a row write on a ledger whose rows share one month (or one day) read and sorted every
 * row of that month to place the row it wrote. Each ledger's rows are now cut into blocks of about
 * 128 in row order (src/domain/row-blocks.ts), each row naming its block, each block its place in
 * row order (rank), low key, row count and signed sum (ledger_row_blocks), kept in step by the functions that write rows
 * (row-blocks.ts). The (ledger, block) index replaces the (ledger, date) one, which only read a
 * month's rows. Rows stored before this get their blocks here, ordered in JavaScript as the server
 * orders them (names compare as compareNames does, which no collation reproduces).
 */
export const ledgerRowBlocks: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('ledger_row_blocks')
      .addColumn('ledger_id', 'varchar(64)', (column) => column.notNull().references('ledgers.id').onDelete('cascade'))
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('block', 'integer', (column) => column.notNull())
      .addColumn('rank', 'integer', (column) => column.notNull())
      .addColumn('low_date', 'varchar(10)', (column) => column.notNull())
      .addColumn('low_type', 'varchar(1)', (column) => column.notNull())
      .addColumn('low_name', 'varchar(120)', (column) => column.notNull())
      .addColumn('low_sequence', 'integer', (column) => column.notNull())
      .addColumn('row_count', 'integer', (column) => column.notNull())
      .addColumn('signed_cents', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('ledger_row_blocks_key', ['ledger_id', 'block'])
      .execute();
    await db.schema.alterTable('ledger_transactions').addColumn('block', 'integer').execute();
    await db.schema.dropIndex('ledger_transactions_date').execute();
    await db.schema.createIndex('ledger_transactions_block').on('ledger_transactions').columns(['ledger_id', 'block']).execute();
    await cutStoredLedgers(db);
  },
};

interface StoredRow {
  id: string;
  date: string;
  type: string;
  name: string;
  sequence: number;
  amount_cents: number | string;
}

/** Gives every stored row its block, one ledger at a time, and each ledger its blocks' records. */
async function cutStoredLedgers(db: Kysely<unknown>): Promise<void> {
  const ledgers = await sql<{ id: string; owner_iss: string; owner_sub: string }>`select id, owner_iss, owner_sub from ledgers`.execute(db);
  for (const ledger of ledgers.rows) {
    const stored = await sql<StoredRow>`select id, date, type, name, sequence, amount_cents from ledger_transactions
      where ledger_id = ${ledger.id}`.execute(db);
    const rows = stored.rows
      .map((row) => ({
        id: row.id,
        date: isoDate(row.date),
        type: storedValue(TRANSACTION_TYPES, row.type, 'ledger_transactions.type'),
        name: row.name,
        sequence: row.sequence,
        signed: (row.type === 'C' ? 1 : -1) * Number(row.amount_cents),
      }))
      .sort(compareRows);
    for (const [index, piece] of cutIntoBlocks(rows).entries()) {
      const block = index + 1;
      const first = piece[0];
      if (!first) continue;
      await sql`update ledger_transactions set block = ${block} where ledger_id = ${ledger.id}
        and id in (${sql.join(piece.map((row) => row.id))})`.execute(db);
      const signed = piece.reduce((sum, row) => sum + row.signed, 0);
      await sql`insert into ledger_row_blocks
        (ledger_id, owner_iss, owner_sub, block, rank, low_date, low_type, low_name, low_sequence, row_count, signed_cents)
        values (${ledger.id}, ${ledger.owner_iss}, ${ledger.owner_sub}, ${block}, ${index}, ${first.date}, ${first.type}, ${first.name},
          ${first.sequence}, ${piece.length}, ${signed})`.execute(db);
    }
  }
}
