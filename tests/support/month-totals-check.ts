/**
 * The ledgers' month totals (issue 27, src/server/ledger/month-totals.ts) against the rows they
 * count: every test app checks them when it closes, so any write path that forgets to keep them in
 * step fails the test file that exercised it, whoever wrote it.
 */
import { type Kysely, sql } from 'kysely';

interface MonthRecord {
  ledger_id: string;
  owner_iss: string;
  owner_sub: string;
  month: string;
  row_count: number | string;
  signed_cents: number | string;
  cleared_cents: number | string;
  settled_cents: number | string;
}

function key(record: MonthRecord): string {
  return JSON.stringify([
    record.ledger_id,
    record.owner_iss,
    record.owner_sub,
    record.month,
    Number(record.row_count),
    Number(record.signed_cents),
    Number(record.cleared_cents),
    Number(record.settled_cents),
  ]);
}

/** Throws, naming the first difference, unless every ledger's month totals are exactly what its rows add up to. */
export async function checkMonthTotals<Schema>(db: Kysely<Schema>): Promise<void> {
  const stored = await sql<MonthRecord>`select ledger_id, owner_iss, owner_sub, month, row_count, signed_cents, cleared_cents, settled_cents
    from ledger_month_totals`.execute(db);
  // A row no longer at the bank counts in no sum (decision 0084).
  const signed = sql`case when bank_state = 'gone' then 0 when type = 'C' then amount_cents else -amount_cents end`;
  const counted = await sql<MonthRecord>`select ledger_id, owner_iss, owner_sub, substr(date, 1, 7) as month, count(*) as row_count,
      sum(${signed}) as signed_cents, sum(case when status = 'CLEARED' then ${signed} else 0 end) as cleared_cents,
      sum(case when status <> 'PENDING' then ${signed} else 0 end) as settled_cents
    from ledger_transactions group by ledger_id, owner_iss, owner_sub, substr(date, 1, 7)`.execute(db);
  const storedKeys = stored.rows.map(key).sort();
  const countedKeys = counted.rows.map(key).sort();
  const missing = countedKeys.filter((entry) => !storedKeys.includes(entry));
  const extra = storedKeys.filter((entry) => !countedKeys.includes(entry));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `ledger_month_totals do not match the rows: stored but not counted ${extra.slice(0, 3).join(' ')}; counted but not stored ${missing.slice(0, 3).join(' ')}`,
    );
  }
}
