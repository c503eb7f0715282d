/**
 * Existing ledgers survive the living ledger's migration (issue 11), on SQLite and (with
 * TEST_POSTGRES_URL) PostgreSQL: a database at the released version (0002) holding ledgers, upgraded
 * by the app's own start, answers every row as before. A row gets the source it provably has (it is
 * exactly what the owner's schedules generate over the ledger's dates, each occurrence claimed
 * once); every other row has none. Running the migrations again changes nothing, and the first
 * schedule change afterwards neither doubles nor touches what it should not.
 */
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withId } from '../../src/contract/common.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { type Ledger, LEDGER_PATHS, ledgerInfoSchema, type LedgerTransaction, type RowSourceInfo } from '../../src/contract/ledger.js';
import { migrateToLatest } from '../../src/server/db/migrations.js';
import { expectConsistent } from '../support/ledger-recomputation.js';
import { migratorOf, openRawDatabase } from '../support/raw-database.js';
import type { ReleasedSchema } from '../support/released-schema.js';
import { createTestDatabase, databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { startTestIssuer } from '../support/test-issuer.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';

const RELEASED = ['0001_initial', '0002_drop_ledger_rows_owner_index'];

/** A stored row before the upgrade, and the source the upgrade must give it (undefined: none). */
interface StoredRow {
  readonly date: string;
  readonly name: string;
  readonly type: 'C' | 'D';
  readonly amount: number;
  readonly status?: 'PENDING' | 'PAID' | 'CLEARED';
  readonly version?: number;
  readonly from?: { readonly kind: RowSourceInfo['kind']; readonly schedule: 'acme' | 'rent' | 'otherRent' };
}

const ACME = { from: { kind: 'deposit', schedule: 'acme' } } as const;
const RENT = { from: { kind: 'expense', schedule: 'rent' } } as const;

/**
 * Alice's ledger, 2026-11-01 to 2027-01-31, as the released version stored it, in creation order:
 * the rows it generated (some paid since), rows the user edited or added by hand, and the rows of
 * a bill whose amount changed after the ledger was made (Phone: 45 then, 50 now).
 */
const ALICE_ROWS: readonly StoredRow[] = [
  { date: '2026-11-01', name: 'Rent', type: 'D', amount: 1200, status: 'CLEARED', version: 3, ...RENT },
  { date: '2026-11-06', name: 'Acme Paycheck', type: 'C', amount: 2000, status: 'CLEARED', version: 2, ...ACME },
  { date: '2026-11-15', name: 'Phone', type: 'D', amount: 45, status: 'PAID', version: 2 },
  { date: '2026-11-20', name: 'Acme Paycheck', type: 'C', amount: 2000, status: 'PAID', version: 2, ...ACME },
  { date: '2026-12-01', name: 'Rent', type: 'D', amount: 1200, ...RENT },
  { date: '2026-12-04', name: 'Acme Paycheck', type: 'C', amount: 2000, ...ACME },
  { date: '2026-12-15', name: 'Phone', type: 'D', amount: 45 },
  // Edited by the user: no longer what the schedule generates.
  { date: '2026-12-18', name: 'Acme Paycheck', type: 'C', amount: 2500, version: 2 },
  { date: '2027-01-01', name: 'Acme Paycheck', type: 'C', amount: 2000, ...ACME },
  { date: '2027-01-01', name: 'Rent', type: 'D', amount: 1200, ...RENT },
  { date: '2027-01-15', name: 'Acme Paycheck', type: 'C', amount: 2000, ...ACME },
  { date: '2027-01-15', name: 'Phone', type: 'D', amount: 45 },
  { date: '2027-01-29', name: 'Acme Paycheck', type: 'C', amount: 2000, ...ACME },
  // Added by hand, the same as a generated row: the generated one, made first, claims the occurrence.
  { date: '2026-12-01', name: 'Rent', type: 'D', amount: 1200 },
  { date: '2026-12-10', name: 'Coffee', type: 'D', amount: 4.5 },
];

/** Bob has a bill named like Alice's: his row must name his bill, never hers. */
const BOB_ROWS: readonly StoredRow[] = [
  { date: '2026-12-01', name: 'Rent', type: 'D', amount: 1200, from: { kind: 'expense', schedule: 'otherRent' } },
];

function ledgerOf(response: LightMyRequestResponse): Ledger {
  expect(response.statusCode, response.body).toBe(200);
  const { ledger } = ledgerInfoSchema.parse(response.json());
  if (!ledger) throw new Error('expected a ledger in the answer');
  return ledger;
}

function withoutBalance(row: LedgerTransaction) {
  return { id: row.id, date: row.date, name: row.name, type: row.type, amount: row.amount, status: row.status, source: row.source };
}

describe.each(databaseKinds())('the living ledger upgrade on %s', (kind) => {
  const alice = `alice-${crypto.randomUUID()}`;
  const bob = `bob-${crypto.randomUUID()}`;
  const schedules = { acme: crypto.randomUUID(), rent: crypto.randomUUID(), phone: crypto.randomUUID(), otherRent: crypto.randomUUID() };
  const rowIds = new Map<StoredRow, string>();
  /** The transaction rows as the released version stored them, read before the upgrade. */
  let storedBefore: unknown[];
  let test: TestApp;

  beforeAll(async () => {
    const issuer = await startTestIssuer();
    const database = await createTestDatabase(kind);
    try {
      const raw = openRawDatabase(kind, database.url);
      try {
        const released = await (await migratorOf(raw, kind, RELEASED)).migrateToLatest();
        expect(released.error).toBeUndefined();
        const db = raw as unknown as Kysely<ReleasedSchema>;
        const owner = (subject: string) => ({ owner_iss: issuer.issuer, owner_sub: subject });
        const createdAt = (second: number) => new Date(Date.UTC(2026, 9, 1, 0, 0, second)).toISOString();
        await db
          .insertInto('deposits')
          .values({
            id: schedules.acme,
            ...owner(alice),
            name: 'Acme',
            type: 'Direct Deposit',
            day: 'Friday',
            amount_cents: 200000,
            start_date: '2026-11-06',
            frequency: 'BW',
            created_at: createdAt(1),
          })
          .execute();
        await db
          .insertInto('expenses')
          .values([
            {
              id: schedules.rent,
              ...owner(alice),
              name: 'Rent',
              type: 'Housing',
              day: 1,
              amount_cents: 120000,
              end_date: null,
              created_at: createdAt(2),
            },
            {
              id: schedules.phone,
              ...owner(alice),
              name: 'Phone',
              type: 'Bill',
              day: 15,
              amount_cents: 5000,
              end_date: null,
              created_at: createdAt(3),
            },
            {
              id: schedules.otherRent,
              ...owner(bob),
              name: 'Rent',
              type: 'Housing',
              day: 1,
              amount_cents: 120000,
              end_date: null,
              created_at: createdAt(4),
            },
          ])
          .execute();
        const storeLedger = async (
          subject: string,
          startDate: string,
          endDate: string,
          openingCents: number,
          rows: readonly StoredRow[],
        ) => {
          const ledgerId = crypto.randomUUID();
          await db
            .insertInto('ledgers')
            .values({
              id: ledgerId,
              ...owner(subject),
              start_date: startDate,
              end_date: endDate,
              opening_balance_cents: openingCents,
              next_sequence: rows.length + 1,
              created_at: createdAt(10),
            })
            .execute();
          await db
            .insertInto('ledger_transactions')
            .values(
              rows.map((row, index) => {
                const id = crypto.randomUUID();
                rowIds.set(row, id);
                return {
                  id,
                  ledger_id: ledgerId,
                  ...owner(subject),
                  sequence: index + 1,
                  date: row.date,
                  name: row.name,
                  type: row.type,
                  amount_cents: Math.round(row.amount * 100),
                  status: row.status ?? 'PENDING',
                  version: row.version ?? 1,
                };
              }),
            )
            .execute();
        };
        await storeLedger(alice, '2026-11-01', '2027-01-31', 100000, ALICE_ROWS);
        await storeLedger(bob, '2026-12-01', '2026-12-31', 0, BOB_ROWS);
        storedBefore = await db.selectFrom('ledger_transactions').selectAll().orderBy('id').execute();
      } finally {
        await raw.destroy();
      }
    } catch (error) {
      await issuer.close();
      await database.drop();
      throw error;
    }
    // The app migrates the database on start, as a server started on the new version does.
    test = await startTestApp(kind, { database, issuer });
  });
  afterAll(() => test.close());

  function expectedSource(row: StoredRow): RowSourceInfo | null {
    return row.from ? { kind: row.from.kind, id: schedules[row.from.schedule], occurrence: row.date, edited: false } : null;
  }

  it('answers every stored row as before, with the source it provably has and null for the rest', async () => {
    const ledger = ledgerOf(await test.as(alice).get(LEDGER_PATHS.retrieve));
    expect(ledger).toMatchObject({ startDate: '2026-11-01', endDate: '2027-01-31', openingBalance: 1000 });
    const expected = ALICE_ROWS.map((row) => ({
      id: rowIds.get(row),
      date: row.date,
      name: row.name,
      type: row.type,
      amount: row.amount,
      status: row.status ?? 'PENDING',
      source: expectedSource(row),
    }));
    // Row order: date, credits first, then name and creation order (no two rows here tie on date
    // and type but the two December rents, which are in creation order already; the sort is stable).
    const inRowOrder = [...expected].sort((a, b) => a.date.localeCompare(b.date) || (a.type === b.type ? 0 : a.type === 'C' ? -1 : 1));
    expect(ledger.transactions.map(withoutBalance)).toEqual(inRowOrder);
    expect(ledger.transactions.filter((row) => row.source !== null)).toHaveLength(9);
    expect(ledger).toMatchObject({ currentBalance: 1000 - 1200 + 2000, pendingBalance: 1000 - 1200 + 2000 - 45 + 2000 });
    expectConsistent(ledger);

    const other = ledgerOf(await test.as(bob).get(LEDGER_PATHS.retrieve));
    expect(other.transactions.map((row) => row.source)).toEqual([expectedSource(BOB_ROWS[0] as StoredRow)]);

    // Nothing lost or changed in what was stored: every released column of every row as it was.
    const db = withLedgerTables(test.app.database.db);
    const storedAfter = await db
      .selectFrom('ledger_transactions')
      .select(['id', 'ledger_id', 'owner_iss', 'owner_sub', 'sequence', 'date', 'name', 'type', 'amount_cents', 'status', 'version'])
      .orderBy('id')
      .execute();
    expect(storedAfter).toEqual(storedBefore);
    expect(await db.selectFrom('ledger_transactions').select('edited').where('edited', '<>', 0).execute()).toEqual([]);
    expect(await db.selectFrom('ledger_skipped_occurrences').selectAll().execute()).toEqual([]);
  });

  it('lets the migrations run again without changing anything', async () => {
    const before = await test.snapshot();
    const answer = (await test.as(alice).get(LEDGER_PATHS.retrieve)).body;
    await migrateToLatest(test.app.database.db, kind);
    await migrateToLatest(test.app.database.db, kind);
    expect(await test.snapshot()).toBe(before);
    expect((await test.as(alice).get(LEDGER_PATHS.retrieve)).body).toBe(answer);
  });

  it('after the upgrade, a schedule change replaces only the rows that follow it, without doubling any, and the ledger extends', async () => {
    const client = test.as(alice);
    const before = ledgerOf(await client.get(LEDGER_PATHS.retrieve));
    const rent = { name: 'Rent', type: 'Housing', day: 1, amount: 1300, endDate: null };
    expect((await client.put(withId(EXPENSES_PATHS.one, schedules.rent), rent)).statusCode).toBe(200);

    const after = ledgerOf(await client.get(LEDGER_PATHS.retrieve));
    const rentRows = (ledger: Ledger) => ledger.transactions.filter((row) => row.name === 'Rent');
    // The cleared November rent and the hand-added December one stay; the future generated ones follow.
    expect(rentRows(after).map((row) => `${row.date} ${row.amount} ${row.status} ${row.source ? 'generated' : 'by hand'}`)).toEqual([
      '2026-11-01 1200 CLEARED generated',
      '2026-12-01 1200 PENDING by hand',
      '2026-12-01 1300 PENDING generated',
      '2027-01-01 1300 PENDING generated',
    ]);
    const untouched = (ledger: Ledger) =>
      ledger.transactions.filter((row) => row.name !== 'Rent' || row.source === null || row.date < '2026-11-21').map(withoutBalance);
    expect(untouched(after)).toEqual(untouched(before));

    const extended = ledgerOf(await client.post(LEDGER_PATHS.extend, { endDate: '2027-02-28' }));
    expect(extended.transactions.filter((row) => row.date > '2027-01-31').map((row) => `${row.date} ${row.name} ${row.amount}`)).toEqual([
      '2027-02-01 Rent 1300',
      '2027-02-12 Acme Paycheck 2000',
      '2027-02-15 Phone 50',
      '2027-02-26 Acme Paycheck 2000',
    ]);
    expectConsistent(extended);
  });
});
