/**
 * Concurrency beyond tests/api/ledger-concurrency.test.ts, which races calls through app.inject()
 * inside one process. Here the calls go over real sockets to the built server:
 *  - several users writing deposits, expenses and ledger rows at once never see each other's rows
 *    (the API test covers the ledger only);
 *  - on PostgreSQL, two server processes share one database, the way more users are served
 *    (docs: "more server processes behind a load balancer, all on one PostgreSQL"): 100 parallel
 *    add-transaction calls spread over both all land with the balances of a sequential
 *    recomputation, and a pay and a clear of one row sent to different processes end in one valid
 *    status. Only the database's row lock can keep them apart there; no in-process queue helps;
 *  - on PostgreSQL, a server starts on its own schema of a database whose other schemas already hold
 *    Leftover's tables.
 * Two processes on one SQLite file are not a supported set-up (SQLite is the single-process default).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { depositsInfoSchema } from '../../src/contract/deposits.js';
import { expensesInfoSchema } from '../../src/contract/expenses.js';
import { type Ledger, ledgerInfoSchema } from '../../src/contract/ledger.js';
import type { TransactionType } from '../../src/domain/ledger.js';
import { openDatabaseReader } from '../support/database-reader.js';
import { expectConsistent, recomputeInDollars } from '../support/ledger-recomputation.js';
import { type HttpAnswer, httpUser } from '../support/http-user.js';
import { type ProcessRun, processRunOn } from '../support/process-run.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { createTestDatabase, type DatabaseKind, databaseKinds } from '../support/test-databases.js';

const LEDGER = { startDate: '2026-12-01', endDate: '2027-02-28' } as const;

function ledgerOf(answer: HttpAnswer): Ledger {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const { ledger } = ledgerInfoSchema.parse(answer.body);
  if (!ledger) throw new Error('expected a ledger in the answer');
  return ledger;
}

interface Running extends Pick<ProcessRun, 'issuer' | 'database'> {
  readonly servers: readonly ServerProcess[];
}

/** Starts `count` server processes on one fresh database for the enclosing describe block. */
function serversOn(kind: DatabaseKind, count: number): () => Running {
  const processes = processRunOn(kind);
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    for (let index = 0; index < count; index += 1) servers.push(await processes().start());
  });
  return () => ({ ...processes(), servers });
}

describe.each(databaseKinds())('writes at the same time over HTTP on %s', (kind) => {
  const running = serversOn(kind, 1);

  it('keeps users writing deposits, expenses and ledger rows at once apart: no answer shows another user’s rows', async () => {
    const { issuer, servers } = running();
    const names = ['ann', 'ben', 'cai', 'dee'];
    const users = await Promise.all(
      names.map((name, index) => httpUser((servers[index % servers.length] as ServerProcess).origin, issuer, `${kind}-${name}`)),
    );
    await Promise.all(
      users.map((user, index) =>
        user.call('POST', '/api/ledger/create-ledger', { ledger: { ...LEDGER, currentBalance: index } }).then(ledgerOf),
      ),
    );

    const WRITES_PER_KIND = 15;
    const calls = users.flatMap((user, index) => {
      const tag = names[index] as string;
      return Array.from({ length: WRITES_PER_KIND }, (_, n) => [
        {
          tag,
          kind: 'deposits',
          answer: user.call('POST', '/api/deposits/add-deposit', {
            name: `${tag} pay ${n}`,
            type: 'Check',
            day: 'N/A',
            amount: 10,
            startDate: '2026-12-31',
            frequency: 'EOM',
          }),
        },
        {
          tag,
          kind: 'expenses',
          answer: user.call('POST', '/api/expenses/add-expense', {
            name: `${tag} bill ${n}`,
            type: 'Bills',
            day: 3,
            amount: 5,
            endDate: null,
          }),
        },
        {
          tag,
          kind: 'ledger',
          answer: user.call('POST', '/api/ledger/add-transaction', { date: '2027-01-02', name: `${tag} row ${n}`, type: 'D', amount: 1 }),
        },
      ]).flat();
    });
    const answers = await Promise.all(calls.map(async (call) => ({ ...call, answer: await call.answer })));

    for (const { tag, kind: answerKind, answer } of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const shown =
        answerKind === 'deposits'
          ? depositsInfoSchema.parse(answer.body).deposits.map((deposit) => deposit.name)
          : answerKind === 'expenses'
            ? expensesInfoSchema.parse(answer.body).expenses.map((expense) => expense.name)
            : ledgerOf(answer).transactions.map((row) => row.name);
      expect(
        shown.filter((name) => !name.startsWith(`${tag} `)),
        `${tag} was shown another user's ${answerKind}`,
      ).toEqual([]);
    }
    for (const [index, user] of users.entries()) {
      const tag = names[index] as string;
      expect(depositsInfoSchema.parse((await user.call('GET', '/api/deposits/retrieve-deposits')).body).deposits).toHaveLength(
        WRITES_PER_KIND,
      );
      expect(expensesInfoSchema.parse((await user.call('GET', '/api/expenses/retrieve-expenses')).body).expenses).toHaveLength(
        WRITES_PER_KIND,
      );
      const ledger = ledgerOf(await user.call('GET', '/api/ledger/retrieve-ledger'));
      expect(ledger.transactions.map((row) => row.name).every((name) => name.startsWith(`${tag} `))).toBe(true);
      expect(ledger).toMatchObject({ openingBalance: index, pendingBalance: index });
      // Each row added by hand is there once; the deposits and expenses added meanwhile brought
      // their own rows (issue 11), however many fall between today and the ledger's end.
      const byHand = ledger.transactions.filter((row) => row.source === null);
      expect(byHand.map((row) => row.name).sort()).toEqual(Array.from({ length: WRITES_PER_KIND }, (_, n) => `${tag} row ${n}`).sort());
      const signedSum = ledger.transactions.reduce((sum, row) => sum + (row.type === 'C' ? 100 : -100) * row.amount, 0);
      expect(Math.round((ledger.transactions.at(-1)?.balance ?? 0) * 100)).toBe(index * 100 + signedSum);
    }
  });
});

// Runs only where PostgreSQL is configured (always in CI, where a skipped test fails the run). On a
// SQLite-only machine it is reported skipped: a file with no suite at all would fail `npm test` there.
describe.runIf(databaseKinds().includes('postgres'))('two server processes on one PostgreSQL database', () => {
  const kind = 'postgres';
  const running = serversOn(kind, 2);

  it('lands 100 parallel add-transaction calls spread over two server processes, with sequentially recomputed balances', async () => {
    const { issuer, database, servers } = running();
    const subject = `${kind}-two-processes-adds`;
    const [first, second] = await Promise.all(servers.map((server) => httpUser(server.origin, issuer, subject)));
    if (!first || !second) throw new Error('two servers expected');
    ledgerOf(await first.call('POST', '/api/ledger/create-ledger', { ledger: { ...LEDGER, currentBalance: 1000 } }));

    const requests = Array.from({ length: 100 }, (_, index) => ({
      date: `2027-01-${String((index % 28) + 1).padStart(2, '0')}`,
      name: `Row ${String(index).padStart(3, '0')}`,
      type: (index % 3 === 0 ? 'C' : 'D') as TransactionType,
      // Whole cents a float sum would get wrong (0.1, 0.2, 0.3...).
      amount: ((index % 10) + 1) / 10,
    }));
    const answers = await Promise.all(
      requests.map((body, index) => (index % 2 === 0 ? first : second).call('POST', '/api/ledger/add-transaction', body)),
    );
    for (const answer of answers) expectConsistent(ledgerOf(answer));

    const ledger = ledgerOf(await second.call('GET', '/api/ledger/retrieve-ledger'));
    expect(ledger.transactions).toHaveLength(100);
    const sequential = recomputeInDollars(1000, requests);
    expect(ledger.transactions.map((row) => [row.date, row.name, row.type, row.amount, row.balance])).toEqual(
      sequential.rows.map((row) => [row.date, row.name, row.type, row.amount, row.balance]),
    );

    // Each add took its own creation-order number from the shared counter, in either process.
    const reader = openDatabaseReader(database.url);
    try {
      const stored = await reader.db.selectFrom('ledger_transactions').select('sequence').where('owner_sub', '=', subject).execute();
      expect(new Set(stored.map((row) => row.sequence)).size).toBe(100);
    } finally {
      await reader.close();
    }
  });

  it('ends a pay and a clear of one row, sent to different server processes at once, in CLEARED', async () => {
    const { issuer, servers } = running();
    const subject = `${kind}-two-processes-pay-clear`;
    const [first, second] = await Promise.all(servers.map((server) => httpUser(server.origin, issuer, subject)));
    if (!first || !second) throw new Error('two servers expected');
    ledgerOf(await first.call('POST', '/api/ledger/create-ledger', { ledger: { ...LEDGER, currentBalance: 0 } }));
    let ledger: Ledger | undefined;
    for (let index = 0; index < 20; index += 1) {
      ledger = ledgerOf(
        await first.call('POST', '/api/ledger/add-transaction', {
          date: '2026-12-15',
          name: `Bill ${String(index).padStart(2, '0')}`,
          type: 'D',
          amount: 10 + index,
        }),
      );
    }
    if (!ledger) throw new Error('no ledger');

    const outcomes = await Promise.all(
      ledger.transactions.map(async (row, index) => {
        // Alternate which process gets which move, so neither process always wins the race.
        const [payer, clearer] = index % 2 === 0 ? [first, second] : [second, first];
        const [pay, clear] = await Promise.all([
          payer.call('PATCH', '/api/ledger/update-transaction', { ...row, status: 'PAID' }),
          clearer.call('PATCH', '/api/ledger/update-transaction', { ...row, status: 'CLEARED' }),
        ]);
        return { pay: pay.status, clear: clear.status };
      }),
    );
    for (const outcome of outcomes) {
      // Clear is allowed from PENDING and PAID; pay is refused (409) once the row is CLEARED.
      expect(outcome.clear).toBe(200);
      expect([200, 409]).toContain(outcome.pay);
    }
    const final = ledgerOf(await second.call('GET', '/api/ledger/retrieve-ledger'));
    expect(final.transactions.map((row) => row.status)).toEqual(final.transactions.map(() => 'CLEARED'));
    const total = ledger.transactions.reduce((sum, row) => sum + Math.round(row.amount * 100), 0);
    expect(final.currentBalance).toBe(-total / 100);
    expectConsistent(final);
  });
});

/**
 * One PostgreSQL database often holds several schemas (one per app, per environment, or per test
 * file). Leftover, pointed at its own schema by search_path, must migrate and start there whatever
 * the other schemas hold. Found by these tests: two test runs on one database stopped each other's
 * servers with "Database migration failed" (relation "kysely_migration_lock" does not exist).
 */
describe.runIf(databaseKinds().includes('postgres'))('a PostgreSQL database shared with other schemas', () => {
  const running = serversOn('postgres', 1);

  it('starts, migrates and serves on a fresh schema while another schema already holds Leftover’s tables', async () => {
    const { issuer } = running();
    const other = await createTestDatabase('postgres');
    let server: ServerProcess | undefined;
    try {
      server = await startServerProcess({ databaseUrl: other.url, issuer });
      const user = await httpUser(server.origin, issuer, 'shared-schema-user');
      const answer = await user.call('POST', '/api/expenses/add-expense', {
        name: 'Rent',
        type: 'Housing',
        day: 1,
        amount: 900,
        endDate: null,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    } finally {
      await server?.stop();
      await other.drop();
    }
  });
});
