/**
 * Access control (OWASP ASVS 8.2): one user's ids are invisible to every other user on every call
 * (404, exactly as an unknown id, and nothing changes), and whatever a client sends about owners,
 * ids, balances or statuses is ignored or refused, never trusted (mass assignment).
 */
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositsInfoSchema } from '../../src/contract/deposits.js';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { expensesInfoSchema } from '../../src/contract/expenses.js';
import { type LedgerInfo, ledgerInfoSchema, type LedgerTransaction } from '../../src/contract/ledger.js';
import { API_CALLS, VALID_DEPOSIT, VALID_EXPENSE, VALID_LEDGER, VALID_TRANSACTION } from '../support/api-calls.js';
import { seedUser, type SeededUser } from '../support/seed.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';

function answer(response: LightMyRequestResponse): unknown {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function ledgerOf(response: LightMyRequestResponse): NonNullable<LedgerInfo['ledger']> {
  const { ledger } = ledgerInfoSchema.parse(answer(response));
  if (!ledger) throw new Error('expected a ledger');
  return ledger;
}

/** The error body of a 404, to compare a foreign id's answer with an unknown id's. */
function notFound(response: LightMyRequestResponse): unknown {
  expect(response.statusCode, response.body).toBe(404);
  return strictErrorBodySchema.parse(response.json());
}

describe.each(databaseKinds())('access control on %s', (kind) => {
  let test: TestApp;
  let alice: SeededUser;
  let aliceClient: UserClient;
  /** Bob has data of his own, so his calls reach his ledger and rows before they miss Alice's. */
  let bob: UserClient;
  /** Carol has nothing at all: no ledger to look in. */
  let carol: UserClient;

  beforeAll(async () => {
    test = await startTestApp(kind);
    aliceClient = test.as('alice');
    alice = await seedUser(aliceClient, 'Alice');
    bob = test.as('bob');
    await seedUser(bob, 'Bob');
    carol = test.as('carol');
  });
  afterAll(() => test?.close());

  /** Every call that names a row, aimed at a given id, as the page would send it. */
  function callsNaming(
    id: string,
    row?: LedgerTransaction,
  ): { label: string; send: (user: UserClient) => Promise<LightMyRequestResponse> }[] {
    const update = row ?? { id, ...VALID_TRANSACTION, balance: 0, status: 'PENDING' };
    return [
      { label: 'PUT deposit', send: (user) => user.put(`/api/deposits/${id}`, VALID_DEPOSIT) },
      { label: 'DELETE deposit', send: (user) => user.delete(`/api/deposits/${id}`) },
      { label: 'PUT expense', send: (user) => user.put(`/api/expenses/${id}`, VALID_EXPENSE) },
      { label: 'DELETE expense', send: (user) => user.delete(`/api/expenses/${id}`) },
      { label: 'edit transaction', send: (user) => user.patch('/api/ledger/update-transaction', { ...update, id, name: 'Taken over' }) },
      { label: 'pay transaction', send: (user) => user.patch('/api/ledger/update-transaction', { ...update, id, status: 'PAID' }) },
      { label: 'clear transaction', send: (user) => user.patch('/api/ledger/update-transaction', { ...update, id, status: 'CLEARED' }) },
      { label: 'reopen transaction', send: (user) => user.patch('/api/ledger/update-transaction', { ...update, id, status: 'PENDING' }) },
      { label: 'DELETE transaction', send: (user) => user.delete(`/api/ledger/transactions/${id}`) },
    ];
  }

  it('names every call that takes an id', () => {
    const naming = API_CALLS.filter((call) => call.idPlace !== 'none').map((call) => `${call.method} ${call.route}`);
    expect(naming.sort()).toEqual(
      [
        'DELETE /api/accounts/:id',
        'DELETE /api/accounts/:id/ledger/transactions/:transaction',
        'DELETE /api/deposits/:id',
        'DELETE /api/expenses/:id',
        'GET /api/accounts/:id/ledger/export.csv',
        'GET /api/accounts/:id/ledger/forecast',
        'GET /api/accounts/:id/ledger/retrieve-ledger',
        'PATCH /api/accounts/:id',
        'PATCH /api/accounts/:id/ledger/update-transaction',
        'POST /api/accounts/:id/ledger/add-transaction',
        'POST /api/accounts/:id/ledger/create-ledger',
        'POST /api/accounts/:id/ledger/extend-ledger',
        'POST /api/accounts/:id/ledger/statements/import',
        'POST /api/accounts/:id/ledger/statements/preview',
        'DELETE /api/ledger/transactions/:id',
        'PATCH /api/ledger/update-transaction',
        'PUT /api/deposits/:id',
        'PUT /api/expenses/:id',
        'DELETE /api/notifications/channels/:id',
        'POST /api/notifications/channels/:id/test',
        'PUT /api/bank-connections/:id/accounts/:remoteId',
        'POST /api/bank-connections/:id/sync',
        'DELETE /api/bank-connections/:id',
        'PATCH /api/budgets/:id',
        'DELETE /api/budgets/:id',
        'GET /api/budgets/:id/members',
        'PATCH /api/budgets/:id/members/:member',
        'DELETE /api/budgets/:id/members/:member',
        'POST /api/budgets/:id/leave',
        'PUT /api/budgets/:id/notifications',
        'GET /api/budgets/:id/activity',
        'GET /api/budgets/:id/invitations',
        'POST /api/budgets/:id/invitations',
        'DELETE /api/budgets/:id/invitations/:invitation',
        'POST /api/budgets/:id/invitations/:invitation/send',
      ].sort(),
    );
  });

  it("answers another user's ids exactly as unknown ones (404), on every call, and changes nothing", async () => {
    const unknownId = crypto.randomUUID();
    const before = await test.snapshot();
    for (const intruder of [bob, carol]) {
      const unknownAnswers = new Map<string, unknown>();
      for (const { label, send } of callsNaming(unknownId)) unknownAnswers.set(label, notFound(await send(intruder)));
      const aliceRows = [alice.pending, alice.paid, alice.cleared];
      for (const id of alice.allIds) {
        for (const { label, send } of callsNaming(
          id,
          aliceRows.find((row) => row.id === id),
        )) {
          expect(notFound(await send(intruder)), `${label} ${id}`).toEqual(unknownAnswers.get(label));
        }
      }
    }
    expect(await test.snapshot()).toBe(before);
  });

  it("shows no one else's rows in any read", async () => {
    const reads = [
      JSON.stringify(answer(await bob.get('/api/deposits/retrieve-deposits'))),
      JSON.stringify(answer(await bob.get('/api/expenses/retrieve-expenses'))),
      JSON.stringify(answer(await bob.get('/api/ledger/retrieve-ledger'))),
      JSON.stringify(answer(await carol.get('/api/ledger/retrieve-ledger'))),
    ];
    for (const read of reads) {
      expect(read).not.toContain('Alice');
      for (const id of alice.allIds) expect(read).not.toContain(id);
    }
    expect(answer(await carol.get('/api/ledger/retrieve-ledger'))).toEqual({ ledger: null });
  });

  describe('client-sent owners, ids, balances and statuses are never trusted', () => {
    const aliceOwner = () => ({
      owner_iss: test.issuer.issuer,
      owner_sub: 'alice',
      ownerSub: 'alice',
      owner: 'alice',
      sub: 'alice',
      user_id: 'alice',
    });

    it("adds a new deposit or expense when the body carries another user's id and owner, leaving theirs alone", async () => {
      const aliceBefore = JSON.stringify([
        answer(await aliceClient.get('/api/deposits/retrieve-deposits')),
        answer(await aliceClient.get('/api/expenses/retrieve-expenses')),
      ]);
      const depositId = alice.depositIds[0] ?? '';
      const expenseId = alice.expenseIds[0] ?? '';
      const bobDeposits = depositsInfoSchema.parse(answer(await bob.get('/api/deposits/retrieve-deposits'))).deposits;
      const bobExpenses = expensesInfoSchema.parse(answer(await bob.get('/api/expenses/retrieve-expenses'))).expenses;

      const deposits = depositsInfoSchema.parse(
        answer(
          await bob.post('/api/deposits/add-deposit', {
            ...VALID_DEPOSIT,
            name: 'Mass assigned',
            id: depositId,
            ...aliceOwner(),
            created_at: '2000-01-01',
            amount_cents: 1,
          }),
        ),
      ).deposits;
      const added = deposits.filter((deposit) => !bobDeposits.some((existing) => existing.id === deposit.id));
      expect(added).toHaveLength(1);
      expect(added[0]).toMatchObject({ name: 'Mass assigned', amount: VALID_DEPOSIT.amount });
      expect(added[0]?.id).not.toBe(depositId);

      const expenses = expensesInfoSchema.parse(
        answer(
          await bob.post('/api/expenses/add-expense', {
            ...VALID_EXPENSE,
            name: 'Mass assigned',
            id: expenseId,
            ...aliceOwner(),
            amount_cents: 1,
          }),
        ),
      ).expenses;
      const addedExpense = expenses.filter((expense) => !bobExpenses.some((existing) => existing.id === expense.id));
      expect(addedExpense).toHaveLength(1);
      expect(addedExpense[0]?.id).not.toBe(expenseId);

      // Even the caller's own existing id in the body only adds: it never overwrites.
      const ownId = bobDeposits[0]?.id ?? '';
      const again = depositsInfoSchema.parse(
        answer(await bob.post('/api/deposits/add-deposit', { ...VALID_DEPOSIT, name: 'Another', id: ownId })),
      ).deposits;
      expect(again.find((deposit) => deposit.id === ownId)).toEqual(bobDeposits[0]);
      expect(again).toHaveLength(bobDeposits.length + 2);

      const aliceAfter = JSON.stringify([
        answer(await aliceClient.get('/api/deposits/retrieve-deposits')),
        answer(await aliceClient.get('/api/expenses/retrieve-expenses')),
      ]);
      expect(aliceAfter).toBe(aliceBefore);
      const owners = await withLedgerTables(test.app.database.db)
        .selectFrom('deposits')
        .select(['id', 'owner_sub'])
        .where('name', 'in', ['Mass assigned', 'Another'])
        .execute();
      expect(owners.map((row) => row.owner_sub)).toEqual(['bob', 'bob']);
    });

    it('changes the row named by the address, for its owner only, whatever the body says', async () => {
      const bobDeposits = depositsInfoSchema.parse(answer(await bob.get('/api/deposits/retrieve-deposits'))).deposits;
      const target = bobDeposits[0];
      if (!target) throw new Error('Bob has deposits');
      const aliceBefore = JSON.stringify(answer(await aliceClient.get('/api/deposits/retrieve-deposits')));
      const changed = depositsInfoSchema.parse(
        answer(
          await bob.put(`/api/deposits/${target.id}`, { ...VALID_DEPOSIT, name: 'Renamed', id: alice.depositIds[0], ...aliceOwner() }),
        ),
      ).deposits;
      expect(changed.find((deposit) => deposit.id === target.id)?.name).toBe('Renamed');
      expect(JSON.stringify(answer(await aliceClient.get('/api/deposits/retrieve-deposits')))).toBe(aliceBefore);
      const row = await withLedgerTables(test.app.database.db)
        .selectFrom('deposits')
        .select(['owner_iss', 'owner_sub'])
        .where('id', '=', target.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ owner_iss: test.issuer.issuer, owner_sub: 'bob' });
    });

    it('creates a ledger from the caller’s own schedules only, ignoring sent rows, ids, balances and owners', async () => {
      const dave = test.as(`dave-${crypto.randomUUID()}`);
      const aliceLedgerBefore = JSON.stringify(answer(await aliceClient.get('/api/ledger/retrieve-ledger')));
      const ledger = ledgerOf(
        await dave.post('/api/ledger/create-ledger', {
          ledger: {
            ...VALID_LEDGER.ledger,
            id: 'chosen',
            openingBalance: 1_000_000,
            pendingBalance: 1_000_000,
            transactions: [
              { id: alice.pending.id, date: '2026-11-02', name: 'Planted', type: 'C', amount: 5000, status: 'CLEARED', balance: 5000 },
            ],
            ...aliceOwner(),
          },
          ...aliceOwner(),
        }),
      );
      expect(ledger).toEqual({
        startDate: '2026-11-01',
        endDate: '2026-12-31',
        openingBalance: 500,
        currentBalance: 500,
        pendingBalance: 500,
        transactions: [],
      });
      expect(JSON.stringify(answer(await aliceClient.get('/api/ledger/retrieve-ledger')))).toBe(aliceLedgerBefore);
    });

    it('adds a transaction as a new PENDING row with a fresh id, whatever status, id, balance or ledger the body names', async () => {
      const erin = test.as(`erin-${crypto.randomUUID()}`);
      ledgerOf(await erin.post('/api/ledger/create-ledger', VALID_LEDGER));
      const aliceLedgerId = (
        await withLedgerTables(test.app.database.db)
          .selectFrom('ledgers')
          .select('id')
          .where('owner_sub', '=', 'alice')
          .executeTakeFirstOrThrow()
      ).id;
      const ledger = ledgerOf(
        await erin.post('/api/ledger/add-transaction', {
          ...VALID_TRANSACTION,
          id: alice.pending.id,
          status: 'CLEARED',
          balance: 1_000_000,
          ledger_id: aliceLedgerId,
          ledgerId: aliceLedgerId,
          sequence: 1,
          version: 99,
          ...aliceOwner(),
        }),
      );
      expect(ledger.transactions).toHaveLength(1);
      const [row] = ledger.transactions;
      expect(row).toMatchObject({ ...VALID_TRANSACTION, status: 'PENDING', balance: 495.5 });
      expect(row?.id).not.toBe(alice.pending.id);
      expect(ledger.currentBalance).toBe(500);
      const stored = await withLedgerTables(test.app.database.db)
        .selectFrom('ledger_transactions')
        .select(['owner_sub', 'ledger_id', 'version'])
        .where('id', '=', row?.id ?? '')
        .executeTakeFirstOrThrow();
      expect(stored.owner_sub).toMatch(/^erin-/);
      expect(stored.ledger_id).not.toBe(aliceLedgerId);
      expect(stored.version).toBe(1);
    });

    it('derives every balance, ignoring a sent one, and refuses a status move the rules forbid (409, nothing changes)', async () => {
      const frank = test.as(`frank-${crypto.randomUUID()}`);
      ledgerOf(await frank.post('/api/ledger/create-ledger', VALID_LEDGER));
      const [row] = ledgerOf(await frank.post('/api/ledger/add-transaction', VALID_TRANSACTION)).transactions;
      if (!row) throw new Error('a row was added');

      const paid = ledgerOf(await frank.patch('/api/ledger/update-transaction', { ...row, status: 'PAID', balance: 1_000_000 }));
      expect(paid.transactions[0]).toMatchObject({ id: row.id, status: 'PAID', balance: 495.5 });
      expect(paid.pendingBalance).toBe(495.5);
      expect(paid.currentBalance).toBe(500);

      const before = await test.snapshot();
      for (const refused of [
        { ...row, status: 'PENDING' },
        { ...row, status: 'PAID', name: 'Edited while paid' },
        { ...row, status: 'PAID', amount: 1 },
      ]) {
        const response = await frank.patch('/api/ledger/update-transaction', refused);
        expect(response.statusCode, response.body).toBe(409);
        strictErrorBodySchema.parse(response.json());
      }
      const typeChange = await frank.patch('/api/ledger/update-transaction', { ...row, status: 'PAID', type: 'C' });
      expect(typeChange.statusCode).toBe(400);
      for (const status of ['VOID', 'paid', 'DELETED', '', null, 1]) {
        expect((await frank.patch('/api/ledger/update-transaction', { ...row, status })).statusCode, String(status)).toBe(400);
      }
      expect(await test.snapshot()).toBe(before);
    });
  });
});
