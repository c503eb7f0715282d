/**
 * Each ledger's rows counted and summed per month (issue 27): how many rows a month holds and the
 * signed sums (credits plus, debits minus) of all of them, of the CLEARED ones and of the PAID and
 * CLEARED ones. The functions that write rows (row-insert.ts, transaction-rows.ts) keep them in step
 * in the same transaction, so a row write answers the ledger's count and balances from one total per
 * month instead of reading every row of a 20,000-row ledger (a row's place comes from its block,
 * row-blocks.ts). A month has a record exactly while the ledger has rows in it.
 */
import { CompiledQuery, sql } from 'kysely';
import type { IsoDate } from '../../domain/calendar-date.js';
import { countedAmount, type CountedRow, type TransactionDraft, type TransactionStatus } from '../../domain/ledger.js';
import type { LedgerScope } from './ledger-record.js';

/** What a month's totals are read and summed from: a row's date, type, amount and status, and whether it counts (isCounted). */
export type TotalledRow = Pick<TransactionDraft, 'date'> & CountedRow & { readonly status: TransactionStatus };

/** The month a date falls in, as the totals are keyed: YYYY-MM, which orders as the dates do. */
function monthOf(date: IsoDate | string): string {
  return date.slice(0, 7);
}

/** A month's change: rows, and the three signed sums, in cents. */
type MonthDelta = [rows: number, signed: number, cleared: number, settled: number];

/** What a write adds to (+1) or takes from (-1) its months' totals, gathered before one statement stores them. */
export class MonthTotalsChange {
  private readonly months = new Map<string, MonthDelta>();

  /** Counts the row in (+1) or out (-1) of its month. */
  add(row: TotalledRow, sign: 1 | -1): this {
    const month = monthOf(row.date);
    const delta = this.months.get(month) ?? [0, 0, 0, 0];
    const signed = sign * countedAmount(row);
    delta[0] += sign;
    delta[1] += signed;
    if (row.status === 'CLEARED') delta[2] += signed;
    if (row.status !== 'PENDING') delta[3] += signed;
    this.months.set(month, delta);
    return this;
  }

  /** Each month whose totals move, once; a month whose changes cancel out is left out. */
  entries(): [string, MonthDelta][] {
    return [...this.months].filter(([, delta]) => delta.some((value) => value !== 0));
  }
}

/** Months per statement: 8 values each, far below either database's parameter limit; a 5-year ledger has 61. */
const MONTH_BATCH = 250;

/** Adds a write's changes to the ledger's month totals, and drops the months it left without rows. */
export async function saveMonthTotals(scope: LedgerScope, ledgerId: string, change: MonthTotalsChange): Promise<void> {
  const entries = change.entries();
  if (entries.length === 0) return;
  const { db, owner, kind } = scope;
  for (let start = 0; start < entries.length; start += MONTH_BATCH) {
    const batch = entries.slice(start, start + MONTH_BATCH);
    const parameters: unknown[] = [];
    for (const [month, [rows, signed, cleared, settled]] of batch)
      parameters.push(ledgerId, owner.issuer, owner.subject, month, rows, signed, cleared, settled);
    await db.executeQuery(CompiledQuery.raw(upsertText(kind, batch.length), parameters));
  }
  if (entries.some(([, [rows]]) => rows < 0)) {
    await db
      .deleteFrom('ledger_month_totals')
      .where('ledger_id', '=', ledgerId)
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .where('row_count', '<=', 0)
      .execute();
  }
}

/** Upsert texts by dialect and month count: laid out by hand, as the rows' INSERT is (row-insert.ts). */
const upsertTexts = new Map<string, string>();

function upsertText(kind: LedgerScope['kind'], count: number): string {
  const key = `${kind}:${count}`;
  const known = upsertTexts.get(key);
  if (known !== undefined) return known;
  const placeholder = kind === 'postgres' ? (position: number) => `$${position}` : () => '?';
  const values = Array.from({ length: count }, (_, index) => {
    const at = 1 + 8 * index;
    return `(${Array.from({ length: 8 }, (_unused, offset) => placeholder(at + offset)).join(', ')})`;
  });
  const add = (column: string) => `${column} = ledger_month_totals.${column} + excluded.${column}`;
  const text = `insert into ledger_month_totals
    (ledger_id, owner_iss, owner_sub, month, row_count, signed_cents, cleared_cents, settled_cents)
    values ${values.join(', ')}
    on conflict (ledger_id, month) do update set ${['row_count', 'signed_cents', 'cleared_cents', 'settled_cents'].map(add).join(', ')}`;
  upsertTexts.set(key, text);
  return text;
}

/** Forgets every month of the ledger: its rows are all gone. */
export async function forgetMonthTotals({ db, owner }: LedgerScope, ledgerId: string): Promise<void> {
  await db
    .deleteFrom('ledger_month_totals')
    .where('ledger_id', '=', ledgerId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .execute();
}

/** The ledger's rows counted and summed. */
export interface LedgerTotals {
  readonly rows: number;
  /** Signed sums of the CLEARED rows, and of the PAID and CLEARED rows. */
  readonly cleared: number;
  readonly settled: number;
}

/** Every month of the ledger summed in one statement (at most a few dozen records). */
export async function readLedgerTotals({ db, owner }: LedgerScope, ledgerId: string): Promise<LedgerTotals> {
  const record = await db
    .selectFrom('ledger_month_totals')
    .select([
      sql<number | string | null>`sum(row_count)`.as('rows'),
      sql<number | string | null>`sum(cleared_cents)`.as('cleared'),
      sql<number | string | null>`sum(settled_cents)`.as('settled'),
    ])
    .where('ledger_id', '=', ledgerId)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .executeTakeFirst();
  // PostgreSQL answers sums of bigint as numeric text; an empty ledger has no records and sums to null.
  const number = (value: number | string | null | undefined) => Number(value ?? 0);
  return { rows: number(record?.rows), cleared: number(record?.cleared), settled: number(record?.settled) };
}

/**
 * How many rows the owner's ledgers hold together, leaving out one ledger when named: the row limit
 * counts every account's rows (MAX_LEDGER_ROWS). From the totals, a few dozen records per ledger.
 */
export async function countOwnerRowsFromTotals({ db, owner }: LedgerScope, except?: string): Promise<number> {
  // A ledger in no account is staged or detached by a big restore (decision 0072): not the owner's yet, or no longer.
  let ledgers = db
    .selectFrom('ledgers')
    .select('id')
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .where('account_id', 'is not', null);
  if (except !== undefined) ledgers = ledgers.where('id', '<>', except);
  const record = await db
    .selectFrom('ledger_month_totals')
    .select(sql<number | string | null>`sum(row_count)`.as('rows'))
    .where('ledger_id', 'in', ledgers)
    .where('owner_iss', '=', owner.issuer)
    .where('owner_sub', '=', owner.subject)
    .executeTakeFirst();
  return Number(record?.rows ?? 0);
}
