/**
 * Ledger writes racing each other through the real app on a real database. Requests are injected
 * together (Promise.all), so on PostgreSQL they run on separate pooled connections at the same
 * time and only the ledger row lock keeps them apart; on SQLite the single connection runs the
 * transactions one at a time. Either way every write must land once and the balances must add up.
 */
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withId } from '../../src/contract/common.js';
import { type Ledger, LEDGER_PATHS, ledgerInfoSchema, type LedgerTransaction } from '../../src/contract/ledger.js';
import type { TransactionType } from '../../src/domain/ledger.js';
import { expectConsistent, recomputeInDollars } from '../support/ledger-recomputation.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';

const PATHS = {
  create: LEDGER_PATHS.create,
  retrieve: LEDGER_PATHS.retrieve,
  add: LEDGER_PATHS.addTransaction,
  update: LEDGER_PATHS.updateTransaction,
  transaction: (id: string) => withId(LEDGER_PATHS.transaction, id),
};

function newUser(label: string): string {
  return `${label}-${crypto.randomBytes(4).toString('hex')}`;
}

function ledgerOf(response: LightMyRequestResponse): Ledger {
  expect(response.statusCode, response.body).toBe(200);
  const { ledger } = ledgerInfoSchema.parse(response.json());
  if (!ledger) throw new Error('expected a ledger in the answer');
  return ledger;
}

async function retrieve(client: UserClient): Promise<Ledger> {
  return ledgerOf(await client.get(PATHS.retrieve));
}

async function createLedger(client: UserClient, currentBalance: number): Promise<Ledger> {
  return ledgerOf(await client.post(PATHS.create, { ledger: { startDate: '2026-12-01', endDate: '2027-02-28', currentBalance } }));
}

describe.each(databaseKinds())('ledger writes at the same time on %s', (kind) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test.close());

  it('lands all of 100 parallel add-transaction calls, with the balances of a sequential recomputation', async () => {
    const user = newUser('adds');
    const client = test.as(user);
    await createLedger(client, 1000);

    const requests = Array.from({ length: 100 }, (_, index) => {
      // Amounts a float sum would get wrong (0.01, 0.1, 0.2, 0.3...), made from whole cents.
      const amountCents = index % 2 === 0 ? index + 1 : ((index % 10) + 1) * 10;
      const type: TransactionType = index % 3 === 0 ? 'C' : 'D';
      return {
        date: `2026-12-${String((index % 28) + 1).padStart(2, '0')}`,
        name: `Row ${String(index).padStart(3, '0')}`,
        type,
        amount: amountCents / 100,
      };
    });
    const responses = await Promise.all(requests.map((body) => client.post(PATHS.add, body)));
    for (const response of responses) {
      const answered = ledgerOf(response);
      // Every answer is a whole, consistent ledger at some moment between the adds.
      expectConsistent(answered);
    }

    const ledger = await retrieve(client);
    expect(ledger.transactions).toHaveLength(100);
    expect(new Set(ledger.transactions.map((row) => row.id)).size).toBe(100);

    // The same 100 rows added one by one, balanced by the domain: the order is fixed by date,
    // type and the unique names, so creation order cannot change it.
    const sequential = recomputeInDollars(1000, requests);
    expect(
      ledger.transactions.map((row) => ({
        date: row.date,
        name: row.name,
        type: row.type,
        amount: row.amount,
        balance: row.balance,
        status: row.status,
      })),
    ).toEqual(sequential.rows);
    expect(ledger).toMatchObject({ currentBalance: 1000, pendingBalance: 1000 });

    // Each add took its own creation-order number and the counter moved on by exactly 100.
    const stored = await withLedgerTables(test.app.database.db)
      .selectFrom('ledger_transactions')
      .select('sequence')
      .where('owner_sub', '=', user)
      .execute();
    expect(new Set(stored.map((row) => row.sequence)).size).toBe(100);
    const counter = await withLedgerTables(test.app.database.db)
      .selectFrom('ledgers')
      .select('next_sequence')
      .where('owner_sub', '=', user)
      .executeTakeFirstOrThrow();
    expect(counter.next_sequence).toBe(Math.max(...stored.map((row) => row.sequence)) + 1);
  });

  it('ends a pay and a clear racing on the same row in one valid status, CLEARED, with consistent balances', async () => {
    const user = newUser('pay-clear');
    const client = test.as(user);
    await createLedger(client, 0);
    let ledger: Ledger | undefined;
    for (let index = 0; index < 20; index += 1) {
      ledger = ledgerOf(
        await client.post(PATHS.add, { date: '2026-12-15', name: `Bill ${String(index).padStart(2, '0')}`, type: 'D', amount: 10 + index }),
      );
    }
    if (!ledger) throw new Error('no ledger');
    const rows = ledger.transactions;

    // For every row a pay and a clear are sent together, all rows at once, in both orders.
    const races = rows.map(async (row: LedgerTransaction, index) => {
      const pay = () => client.patch(PATHS.update, { ...row, status: 'PAID' });
      const clear = () => client.patch(PATHS.update, { ...row, status: 'CLEARED' });
      const [first, second] = await Promise.all(index % 2 === 0 ? [pay(), clear()] : [clear(), pay()]);
      return index % 2 === 0 ? { pay: first, clear: second } : { pay: second, clear: first };
    });
    const outcomes = await Promise.all(races);

    for (const { pay, clear } of outcomes) {
      // Clear is allowed from PENDING and from PAID, so it always succeeds. Pay succeeds when it ran
      // first, and is refused as CLEARED -> PAID when it ran second; never does PAID win last.
      expect(clear.statusCode, clear.body).toBe(200);
      expect([200, 409], pay.body).toContain(pay.statusCode);
      if (pay.statusCode === 409)
        expect(pay.json()).toMatchObject({
          error: { code: 'conflict', message: expect.stringContaining('CLEARED transaction cannot become PAID') },
        });
    }

    const final = await retrieve(client);
    expect(final.transactions.map((row) => row.status)).toEqual(rows.map(() => 'CLEARED'));
    const total = rows.reduce((sum, row) => sum + Math.round(row.amount * 100), 0);
    expect(final.currentBalance).toBe(-total / 100);
    expect(final.pendingBalance).toBe(-total / 100);
    expectConsistent(final);
    // One version step per successful write: a row never took both moves from PENDING.
    const versions = await withLedgerTables(test.app.database.db)
      .selectFrom('ledger_transactions')
      .select(['id', 'version'])
      .where('owner_sub', '=', user)
      .execute();
    const successfulMoves = outcomes.reduce((sum, outcome) => sum + 1 + (outcome.pay.statusCode === 200 ? 1 : 0), 0);
    expect(versions.reduce((sum, row) => sum + row.version - 1, 0)).toBe(successfulMoves);
  });

  it('ends a delete racing a pay on one row with exactly one of them done', async () => {
    const client = test.as(newUser('delete-pay'));
    await createLedger(client, 0);
    let ledger: Ledger | undefined;
    for (let index = 0; index < 10; index += 1) {
      ledger = ledgerOf(await client.post(PATHS.add, { date: '2026-12-20', name: `Item ${index}`, type: 'C', amount: 1 }));
    }
    if (!ledger) throw new Error('no ledger');
    const outcomes = await Promise.all(
      ledger.transactions.map(async (row) => {
        const [pay, remove] = await Promise.all([
          client.patch(PATHS.update, { ...row, status: 'PAID' }),
          client.delete(PATHS.transaction(row.id)),
        ]);
        return { row, pay: pay.statusCode, remove: remove.statusCode };
      }),
    );
    const final = await retrieve(client);
    for (const outcome of outcomes) {
      const survivor = final.transactions.find((row) => row.id === outcome.row.id);
      if (outcome.remove === 200) {
        // Deleted first: the pay found nothing. (Paid first, the delete would have been refused.)
        expect(outcome.pay).toBe(404);
        expect(survivor).toBeUndefined();
      } else {
        expect(outcome).toMatchObject({ pay: 200, remove: 409 });
        expect(survivor?.status).toBe('PAID');
      }
    }
    expectConsistent(final);
  });

  it('keeps two users writing at once apart: no answer ever shows the other user’s rows', async () => {
    const alice = test.as(newUser('alice'));
    const bob = test.as(newUser('bob'));
    await Promise.all([createLedger(alice, 100), createLedger(bob, 200)]);

    const writes = Array.from({ length: 30 }, (_, index) => [
      alice.post(PATHS.add, { date: '2026-12-10', name: `Alice ${index}`, type: 'D', amount: 1 }),
      bob.post(PATHS.add, { date: '2026-12-10', name: `Bob ${index}`, type: 'C', amount: 2 }),
    ]).flat();
    const responses = await Promise.all(writes);
    responses.forEach((response, index) => {
      const owner = index % 2 === 0 ? 'Alice' : 'Bob';
      const answered = ledgerOf(response);
      expect(answered.transactions.every((row) => row.name.startsWith(owner))).toBe(true);
      expect(answered.openingBalance).toBe(owner === 'Alice' ? 100 : 200);
    });

    const [aliceLedger, bobLedger] = await Promise.all([retrieve(alice), retrieve(bob)]);
    expect(aliceLedger.transactions).toHaveLength(30);
    expect(bobLedger.transactions).toHaveLength(30);
    expect(aliceLedger.transactions.every((row) => row.name.startsWith('Alice'))).toBe(true);
    expect(bobLedger.transactions.every((row) => row.name.startsWith('Bob'))).toBe(true);
    expect(aliceLedger.transactions.at(-1)?.balance).toBe(70);
    expect(bobLedger.transactions.at(-1)?.balance).toBe(260);
  });

  it('turns parallel first-time creates into one ledger, never a 500', async () => {
    const user = newUser('creates');
    const client = test.as(user);
    const balances = [1, 2, 3, 4, 5, 6, 7, 8];
    const responses = await Promise.all(
      balances.map((currentBalance) =>
        client.post(PATHS.create, { ledger: { startDate: '2026-12-01', endDate: '2026-12-31', currentBalance } }),
      ),
    );
    for (const response of responses) ledgerOf(response);
    const ledgers = await withLedgerTables(test.app.database.db)
      .selectFrom('ledgers')
      .select('opening_balance_cents')
      .where('owner_sub', '=', user)
      .execute();
    expect(ledgers).toHaveLength(1);
    // The last create to commit decides; whichever it was, the stored ledger is one of the requests.
    expect(balances).toContain((await retrieve(client)).openingBalance);
  });

  it('serializes adds with a replacement: every add lands in the ledger it saw, none is half-applied', async () => {
    const user = newUser('replace-race');
    const client = test.as(user);
    await createLedger(client, 0);
    const adds = Array.from({ length: 20 }, (_, index) =>
      client.post(PATHS.add, { date: '2026-12-05', name: `Add ${index}`, type: 'D', amount: 1 }),
    );
    const replace = client.post(PATHS.create, { ledger: { startDate: '2026-12-01', endDate: '2026-12-31', currentBalance: 50 } });
    const [replaced, ...added] = await Promise.all([replace, ...adds]);
    const replacement = ledgerOf(replaced);
    for (const response of added) expect(response.statusCode, response.body).toBe(200);

    // The replacement wiped the adds that committed before it and kept the ones after it.
    const final = await retrieve(client);
    expect(final.openingBalance).toBe(50);
    const addedAfter = added.filter((response) => ledgerOf(response).openingBalance === 50).length;
    expect(final.transactions).toHaveLength(replacement.transactions.length + addedAfter);
    expectConsistent(final);
  });
});
