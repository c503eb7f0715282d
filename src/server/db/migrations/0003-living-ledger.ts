import { type Kysely, type Migration, sql } from 'kysely';
import { isIsoDate, isoDate } from '../../../domain/calendar-date.js';
import { projectSchedules } from '../../../domain/ledger-projection.js';
import { cents } from '../../../domain/money.js';
import { FREQUENCIES } from '../../../domain/schedules.js';

/**
 * The living ledger (issue 11): a generated row names its schedule and the occurrence it stands
 * for, and says whether the user edited it; an occurrence the user deleted is remembered as skipped
 * so neither a schedule change nor an extension brings it back. Rows stored before this get the
 * source that can be proved (attributeSources); the rest have none (null) and are left alone by
 * schedule changes, like rows added by hand.
 */
export const livingLedger: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('ledger_transactions').addColumn('source_kind', 'varchar(8)').execute();
    await db.schema.alterTable('ledger_transactions').addColumn('source_id', 'varchar(64)').execute();
    await db.schema.alterTable('ledger_transactions').addColumn('source_occurrence', 'varchar(10)').execute();
    await db.schema
      .alterTable('ledger_transactions')
      .addColumn('edited', 'integer', (column) => column.notNull().defaultTo(sql`0`))
      .execute();

    await db.schema
      .createTable('ledger_skipped_occurrences')
      .addColumn('ledger_id', 'varchar(64)', (column) => column.notNull().references('ledgers.id').onDelete('cascade'))
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('source_kind', 'varchar(8)', (column) => column.notNull())
      .addColumn('source_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('occurrence', 'varchar(10)', (column) => column.notNull())
      .addPrimaryKeyConstraint('ledger_skipped_occurrences_key', ['ledger_id', 'source_kind', 'source_id', 'occurrence'])
      .execute();

    await attributeSources(db);
  },
};

/**
 * Gives each stored row the source it provably has: the row is exactly what the owner's schedules,
 * as they are now, generate over the ledger's dates (same date, type, name and amount), each
 * generated occurrence claimed by one row at most, in creation order. A row the user edited, or
 * one whose schedule changed since the ledger was made, matches nothing and keeps no source:
 * without it, the first change of its schedule after the upgrade would add that schedule's rows a
 * second time beside the old ones. Uses today's projection; ledgers of later versions are made
 * with sources, so what this finds never changes after the upgrade.
 */
async function attributeSources(db: Kysely<unknown>): Promise<void> {
  const ledgers = await sql<{ id: string; owner_iss: string; owner_sub: string; start_date: string; end_date: string }>`
    select id, owner_iss, owner_sub, start_date, end_date from ledgers`.execute(db);
  for (const ledger of ledgers.rows) {
    const deposits = await sql<{ id: string; name: string; amount_cents: number | string; start_date: string; frequency: string }>`
      select id, name, amount_cents, start_date, frequency from deposits
      where owner_iss = ${ledger.owner_iss} and owner_sub = ${ledger.owner_sub} order by created_at, id`.execute(db);
    const expenses = await sql<{ id: string; name: string; amount_cents: number | string; day: number; end_date: string | null }>`
      select id, name, amount_cents, day, end_date from expenses
      where owner_iss = ${ledger.owner_iss} and owner_sub = ${ledger.owner_sub} order by created_at, id`.execute(db);
    const drafts = projectSchedules(
      {
        deposits: deposits.rows.flatMap((deposit) => {
          const frequency = FREQUENCIES.find((known) => known === deposit.frequency);
          if (!frequency || !isIsoDate(deposit.start_date)) return [];
          return [
            { id: deposit.id, name: deposit.name, amount: cents(Number(deposit.amount_cents)), startDate: deposit.start_date, frequency },
          ];
        }),
        expenses: expenses.rows.map((expense) => ({
          id: expense.id,
          name: expense.name,
          amount: cents(Number(expense.amount_cents)),
          day: Number(expense.day),
          endDate: expense.end_date !== null && isIsoDate(expense.end_date) ? expense.end_date : null,
        })),
      },
      { from: isoDate(ledger.start_date), to: isoDate(ledger.end_date) },
    );
    const unclaimed = new Map<string, (typeof drafts)[number][]>();
    for (const draft of drafts) {
      const key = `${draft.date} ${draft.type} ${draft.amount} ${draft.name}`;
      unclaimed.set(key, [...(unclaimed.get(key) ?? []), draft]);
    }
    const rows = await sql<{ id: string; date: string; name: string; type: string; amount_cents: number | string }>`
      select id, date, name, type, amount_cents from ledger_transactions where ledger_id = ${ledger.id} order by sequence`.execute(db);
    for (const row of rows.rows) {
      const draft = unclaimed.get(`${row.date} ${row.type} ${Number(row.amount_cents)} ${row.name}`)?.shift();
      if (!draft) continue;
      await sql`update ledger_transactions
        set source_kind = ${draft.source.kind}, source_id = ${draft.source.id}, source_occurrence = ${draft.source.occurrence}
        where id = ${row.id}`.execute(db);
    }
  }
}
