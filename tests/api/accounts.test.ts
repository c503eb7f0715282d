/**
 * Accounts (issue 25 phase A, decision 0042), on SQLite and (with TEST_POSTGRES_URL) PostgreSQL:
 * an existing user's ledger becomes their primary "Checking" account on upgrade; accounts are
 * listed, added, renamed, made primary and deleted with their name as confirmation; at most 20;
 * the 20,000-row limit counts every account's rows; another user's account ids answer 404 and
 * change nothing; each ledger call under /api/accounts/:id/ledger answers as its /api/ledger twin;
 * schedules project into their account and move between accounts (undo puts both ledgers back);
 * export version 2 restores exactly, and version 1 restores into the primary account.
 *
 * One app per database: each starts on a database at the last release before accounts (0007)
 * holding a user's ledger, deposit and expense, and upgrades it as a server started on this
 * version does.
 */
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type YourDataExport, yourDataExportSchema, YOUR_DATA_PATHS } from '../../src/contract/your-data.js';
import { type AccountInfo, accountSchema, accountsInfoSchema, ACCOUNTS_PATHS } from '../../src/contract/accounts.js';
import { UNDO_HEADER, withId } from '../../src/contract/common.js';
import { DEPOSITS_PATHS, depositsInfoSchema } from '../../src/contract/deposits.js';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { type Ledger, LEDGER_PATHS, ledgerInfoSchema } from '../../src/contract/ledger.js';
import { STATEMENT_PATHS } from '../../src/contract/statements.js';
import { MAX_ACCOUNTS, MAX_LEDGER_ROWS } from '../../src/domain/limits.js';
import { migrations } from '../../src/server/db/migrations.js';
import { expectBadRequest, expectNotFound, inAccount, newSubject } from '../support/api-expectations.js';
import { migratorOf, openRawDatabase } from '../support/raw-database.js';
import { byName, depositInput, expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { createTestDatabase, type DatabaseKind, databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';
import { startTestIssuer } from '../support/test-issuer.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';

const RELEASED = Object.keys(migrations).filter((name) => name < '0008');
const NOVEMBER = { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 500 } };
const LEGACY = 'legacy-user';

/** A database at the last release before accounts, with one user's ledger, deposit and expense stored as that release did. */
async function releasedDatabaseWithLegacyUser(kind: DatabaseKind, issuer: string) {
  const database = await createTestDatabase(kind);
  const raw = openRawDatabase(kind, database.url);
  try {
    const migrator = await migratorOf(raw, kind, RELEASED);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const db = raw as Kysely<Record<string, Record<string, unknown>>>;
    const owner = { owner_iss: issuer, owner_sub: LEGACY };
    const ledgerId = crypto.randomUUID();
    await db
      .insertInto('deposits')
      .values({
        id: crypto.randomUUID(),
        ...owner,
        name: 'Acme',
        type: 'Direct Deposit',
        day: 'Friday',
        amount_cents: 100000,
        start_date: '2026-11-20',
        frequency: 'BW',
        created_at: '2026-10-01T00:00:00.000Z',
      })
      .execute();
    await db
      .insertInto('expenses')
      .values({
        id: crypto.randomUUID(),
        ...owner,
        name: 'Rent',
        type: 'Housing',
        frequency: 'M',
        day: 1,
        amount_cents: 120000,
        start_date: null,
        end_date: null,
        created_at: '2026-10-01T00:00:01.000Z',
      })
      .execute();
    await db
      .insertInto('ledgers')
      .values({
        id: ledgerId,
        ...owner,
        start_date: '2026-11-01',
        end_date: '2026-12-31',
        opening_balance_cents: 50000,
        next_sequence: 3,
        created_at: '2026-10-01T00:00:02.000Z',
        version: 4,
        replaced_at_version: 1,
      })
      .execute();
    await db
      .insertInto('ledger_transactions')
      .values([
        {
          id: crypto.randomUUID(),
          ledger_id: ledgerId,
          ...owner,
          sequence: 1,
          date: '2026-11-20',
          name: 'Acme Paycheck',
          type: 'C',
          amount_cents: 100000,
          status: 'CLEARED',
          version: 2,
          source_kind: null,
          source_id: null,
          source_occurrence: null,
          edited: 0,
        },
        {
          id: crypto.randomUUID(),
          ledger_id: ledgerId,
          ...owner,
          sequence: 2,
          date: '2026-12-01',
          name: 'Rent',
          type: 'D',
          amount_cents: 120000,
          status: 'PAID',
          version: 2,
          source_kind: null,
          source_id: null,
          source_occurrence: null,
          edited: 0,
        },
      ])
      .execute();
  } finally {
    await raw.destroy();
  }
  return database;
}

function accountsOf(response: LightMyRequestResponse): AccountInfo[] {
  return accountsInfoSchema.parse(okJson(response)).accounts;
}

function accountOf(response: LightMyRequestResponse): AccountInfo {
  return accountSchema.parse(okJson(response));
}

function expectConflict(response: LightMyRequestResponse, message: string | RegExp): void {
  expect(response.statusCode, response.body).toBe(409);
  expect(strictErrorBodySchema.parse(response.json()).error.message).toMatch(message);
}

/** A schedule of a version 2 document as version 1 wrote it: without the account it is in. */
function withoutAccount(schedule: object): object {
  return Object.fromEntries(Object.entries(schedule).filter(([key]) => key !== 'accountId'));
}

/** Refusals the service words itself carry their own message, not the schema's "Some fields need attention.". */
const ANY_MESSAGE = expect.any(String) as unknown as string;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The texts with every id replaced by its place of first appearance: equal when only the ids differ. */
function withoutIds(reads: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return reads.map((read) =>
    read.replace(UUID, (id) => {
      if (!seen.has(id)) seen.set(id, seen.size);
      return `<id ${seen.get(id)}>`;
    }),
  );
}

describe.each(databaseKinds())('accounts on %s', (kind) => {
  let test: TestApp;

  beforeAll(async () => {
    const issuer = await startTestIssuer();
    let database;
    try {
      database = await releasedDatabaseWithLegacyUser(kind, issuer.issuer);
    } catch (error) {
      await issuer.close();
      throw error;
    }
    test = await startTestApp(kind, { database, issuer });
  });
  afterAll(() => test?.close());

  /** A user with a primary account whose ledger has their deposit and expense, and a Savings account. */
  async function userWithSavings(label: string): Promise<{ user: UserClient; checking: AccountInfo; savings: AccountInfo }> {
    const user = test.as(newSubject(label));
    okJson(await user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1000, startDate: '2026-11-20', frequency: 'BW' })));
    okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 1200, day: 1 })));
    okJson(await user.post(LEDGER_PATHS.create, NOVEMBER));
    const savings = accountOf(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' }));
    const [checking] = accountsOf(await user.get(ACCOUNTS_PATHS.list));
    if (!checking) throw new Error('expected the primary account');
    return { user, checking, savings };
  }

  it("makes an existing user's ledger their primary Checking account, unchanged, and answers SPEC.md's calls byte for byte", async () => {
    const user = test.as(LEGACY);
    const [checking, ...others] = accountsOf(await user.get(ACCOUNTS_PATHS.list));
    expect(others).toEqual([]);
    expect(checking).toMatchObject({
      name: 'Checking',
      kind: 'CHECKING',
      primary: true,
      card: null,
      currentBalance: 1500,
      pendingBalance: 300,
    });
    const ledger = ledgerOf(await user.get(LEDGER_PATHS.retrieve));
    expect(ledger).toMatchObject({
      startDate: '2026-11-01',
      endDate: '2026-12-31',
      openingBalance: 500,
      currentBalance: 1500,
      pendingBalance: 300,
    });
    expect(ledger.transactions.map((row) => `${row.date} ${row.name} ${row.amount} ${row.status}`)).toEqual([
      '2026-11-20 Acme Paycheck 1000 CLEARED',
      '2026-12-01 Rent 1200 PAID',
    ]);
    // The same ledger under its account, byte for byte, ETag too.
    const twin = await user.get(inAccount(LEDGER_PATHS.retrieve, checking?.id ?? ''));
    const spec = await user.get(LEDGER_PATHS.retrieve);
    expect(twin.body).toBe(spec.body);
    expect(twin.headers.etag).toBe(spec.headers.etag);
    // With one account, a deposit and an expense answer exactly as before: no accountId.
    const deposits = await user.get(DEPOSITS_PATHS.retrieve);
    expect(deposits.body).not.toContain('accountId');
    expect(Object.keys(depositsInfoSchema.parse(okJson(deposits)).deposits[0] ?? {})).toEqual([
      'id',
      'name',
      'type',
      'day',
      'amount',
      'startDate',
      'frequency',
    ]);
    expect((await user.get(EXPENSES_PATHS.retrieve)).body).not.toContain('accountId');
    // Their schedules are the primary account's in the database too.
    const stored = await withLedgerTables(test.app.database.db)
      .selectFrom('deposits')
      .select('account_id')
      .where('owner_sub', '=', LEGACY)
      .execute();
    expect(stored).toEqual([{ account_id: checking?.id }]);
  });

  it('gives a new user a primary Checking account on first need, or makes their first account primary', async () => {
    const fresh = test.as(newSubject('fresh'));
    expect(ledgerInfoSchema.parse(okJson(await fresh.get(LEDGER_PATHS.retrieve)))).toEqual({ ledger: null });
    const [first] = accountsOf(await fresh.get(ACCOUNTS_PATHS.list));
    expect(first).toMatchObject({ name: 'Checking', kind: 'CHECKING', primary: true, currentBalance: 0, pendingBalance: 0, card: null });
    // The listing made it once: listing again answers the same account.
    expect(accountsOf(await fresh.get(ACCOUNTS_PATHS.list))).toEqual([first]);

    const other = test.as(newSubject('first-own'));
    const wallet = accountOf(await other.post(ACCOUNTS_PATHS.list, { name: 'Wallet', kind: 'CASH' }));
    expect(wallet).toMatchObject({ name: 'Wallet', kind: 'CASH', primary: true });
    expect(accountsOf(await other.get(ACCOUNTS_PATHS.list))).toEqual([wallet]);
  });

  it('adds accounts and cards, refusing bad input field by field and changing nothing', async () => {
    const { user, checking, savings } = await userWithSavings('add');
    expect(savings).toEqual({
      id: savings.id,
      name: 'Savings',
      kind: 'SAVINGS',
      currentBalance: 0,
      pendingBalance: 0,
      primary: false,
      card: null,
    });
    const card = { closingDay: 25, dueDay: 20, payFromAccountId: checking.id, rule: 'FIXED', amount: 150.5, creditLimit: 1000 };
    const visa = accountOf(await user.post(ACCOUNTS_PATHS.list, { name: ' Visa ', kind: 'CARD', card }));
    expect(visa).toMatchObject({ name: 'Visa', kind: 'CARD', primary: false, card });
    const statement = accountOf(
      await user.post(ACCOUNTS_PATHS.list, {
        name: 'Amex',
        kind: 'CARD',
        card: { ...card, rule: 'STATEMENT', amount: null, creditLimit: null },
      }),
    );
    expect(statement.card).toEqual({ ...card, rule: 'STATEMENT', amount: null, creditLimit: null });

    const before = await test.snapshot();
    const refusals: [unknown, Record<string, string>][] = [
      [{ name: '', kind: 'CASH' }, { name: 'Name is required.' }],
      [{ name: 'x'.repeat(51), kind: 'CASH' }, { name: 'Name must be at most 50 characters.' }],
      [{ name: 'SAVINGS', kind: 'CASH' }, { name: 'Name is already used by another of your accounts.' }],
      [{ name: 'Loose', kind: 'BANK' }, { kind: 'Kind must be CHECKING, SAVINGS, CARD or CASH.' }],
      [{ name: 'Card', kind: 'CARD' }, { card: 'Card is required for a credit card: its closing day, due day, Pay From and rule.' }],
      [{ name: 'Cash', kind: 'CASH', card }, { card: 'Only a credit card has card settings.' }],
      [
        { name: 'Card', kind: 'CARD', card: { ...card, closingDay: 32, dueDay: 0 } },
        {
          'card.closingDay': 'Closing Day must be a whole number from 1 to 31.',
          'card.dueDay': 'Due Day must be a whole number from 1 to 31.',
        },
      ],
      [
        { name: 'Card', kind: 'CARD', card: { ...card, rule: 'MINIMUM', amount: null } },
        { 'card.amount': 'Amount is required for the MINIMUM and FIXED rules.' },
      ],
      [
        { name: 'Card', kind: 'CARD', card: { ...card, rule: 'STATEMENT', amount: 10 } },
        { 'card.amount': 'Amount must be empty for the STATEMENT rule: the payment is the statement balance.' },
      ],
      [{ name: 'Card', kind: 'CARD', card: { ...card, creditLimit: 0 } }, { 'card.creditLimit': 'Credit Limit must be greater than 0.' }],
      [
        { name: 'Card', kind: 'CARD', card: { ...card, payFromAccountId: visa.id } },
        { 'card.payFromAccountId': 'Pay From must be the id of one of your accounts that is not a card.' },
      ],
      [
        { name: 'Card', kind: 'CARD', card: { ...card, payFromAccountId: crypto.randomUUID() } },
        { 'card.payFromAccountId': 'Pay From must be the id of one of your accounts that is not a card.' },
      ],
    ];
    for (const [body, fields] of refusals) expectBadRequest(await user.post(ACCOUNTS_PATHS.list, body), fields, ANY_MESSAGE);
    expect(await test.snapshot()).toBe(before);
    expect(accountsOf(await user.get(ACCOUNTS_PATHS.list)).map((account) => account.name)).toEqual(['Checking', 'Savings', 'Visa', 'Amex']);
  });

  it(`holds at most ${MAX_ACCOUNTS} accounts`, async () => {
    const user = test.as(newSubject('many'));
    for (let index = 0; index < MAX_ACCOUNTS; index += 1)
      okJson(await user.post(ACCOUNTS_PATHS.list, { name: `Jar ${index}`, kind: 'CASH' }));
    expect(accountsOf(await user.get(ACCOUNTS_PATHS.list))).toHaveLength(MAX_ACCOUNTS);
    const before = await test.snapshot();
    expectConflict(
      await user.post(ACCOUNTS_PATHS.list, { name: 'One too many', kind: 'CASH' }),
      'You can have at most 20 accounts. Delete one before adding another.',
    );
    expect(await test.snapshot()).toBe(before);
  });

  it('renames an account and makes it primary: /api/ledger then acts on it', async () => {
    const { user, checking, savings } = await userWithSavings('rename');
    const checkingLedger = (await user.get(LEDGER_PATHS.retrieve)).body;
    expect(accountOf(await user.patch(withId(ACCOUNTS_PATHS.one, savings.id), { name: 'Rainy Day' }))).toMatchObject({
      name: 'Rainy Day',
      primary: false,
    });
    // The same name in another case is the account's own: allowed.
    expect(accountOf(await user.patch(withId(ACCOUNTS_PATHS.one, savings.id), { name: 'RAINY DAY' })).name).toBe('RAINY DAY');
    expectBadRequest(
      await user.patch(withId(ACCOUNTS_PATHS.one, savings.id), { name: 'checking' }),
      { name: 'Name is already used by another of your accounts.' },
      ANY_MESSAGE,
    );
    expectBadRequest(await user.patch(withId(ACCOUNTS_PATHS.one, savings.id), { primary: false }), {
      primary: 'Primary can only be true: to change the primary account, make another one primary.',
    });

    expect(accountOf(await user.patch(withId(ACCOUNTS_PATHS.one, savings.id), { primary: true }))).toMatchObject({ primary: true });
    expect(accountsOf(await user.get(ACCOUNTS_PATHS.list)).map((account) => [account.name, account.primary])).toEqual([
      ['Checking', false],
      ['RAINY DAY', true],
    ]);
    expect(ledgerInfoSchema.parse(okJson(await user.get(LEDGER_PATHS.retrieve)))).toEqual({ ledger: null });
    expect((await user.get(inAccount(LEDGER_PATHS.retrieve, checking.id))).body).toBe(checkingLedger);
    // The schedules stay where they were: in Checking, whose ledger still holds them.
    const deposits = depositsInfoSchema.parse(okJson(await user.get(DEPOSITS_PATHS.retrieve))).deposits;
    expect(deposits.map((deposit) => deposit.accountId)).toEqual([checking.id]);

    const card = accountOf(
      await user.post(ACCOUNTS_PATHS.list, {
        name: 'Visa',
        kind: 'CARD',
        card: { closingDay: 1, dueDay: 20, payFromAccountId: checking.id, rule: 'STATEMENT' },
      }),
    );
    const before = await test.snapshot();
    expectConflict(await user.patch(withId(ACCOUNTS_PATHS.one, card.id), { primary: true }), /A credit card cannot be the primary account/);
    expect(await test.snapshot()).toBe(before);
  });

  it('deletes an account with its name as confirmation: never the last one, its schedules and cards move to the primary', async () => {
    const { user, checking, savings } = await userWithSavings('delete');
    okJson(await user.post(inAccount(LEDGER_PATHS.create, savings.id), NOVEMBER));
    okJson(
      await user.post(DEPOSITS_PATHS.add, {
        ...depositInput({ name: 'Interest', amount: 5, startDate: '2026-11-30', frequency: 'EOM' }),
        accountId: savings.id,
      }),
    );
    const card = accountOf(
      await user.post(ACCOUNTS_PATHS.list, {
        name: 'Visa',
        kind: 'CARD',
        card: { closingDay: 1, dueDay: 20, payFromAccountId: savings.id, rule: 'STATEMENT' },
      }),
    );
    const one = withId(ACCOUNTS_PATHS.one, savings.id);

    const before = await test.snapshot();
    expectBadRequest(
      await user.request('DELETE', one, { confirm: 'savings' }),
      { confirm: "Type the account's name, Savings, to confirm." },
      ANY_MESSAGE,
    );
    expectBadRequest(await user.request('DELETE', one, {}), { confirm: "Type the account's name to confirm." });
    expectBadRequest(await user.delete(one), { body: 'The request body must be a JSON object.' }, ANY_MESSAGE);
    expectNotFound(
      await user.request('DELETE', withId(ACCOUNTS_PATHS.one, crypto.randomUUID()), { confirm: 'Savings' }),
      'No such account.',
    );
    expect(await test.snapshot()).toBe(before);

    const left = accountsOf(await user.request('DELETE', one, { confirm: 'Savings' }));
    expect(left.map((account) => account.name)).toEqual(['Checking', 'Visa']);
    expect(left.find((account) => account.id === card.id)?.card?.payFromAccountId).toBe(checking.id);
    expectNotFound(await user.get(inAccount(LEDGER_PATHS.retrieve, savings.id)), 'No such account.');
    // Its deposit is the primary account's now, projected into its ledger from today on.
    const interest = byName(ledgerOf(await user.get(LEDGER_PATHS.retrieve)), 'Interest Paycheck', '2026-11-30');
    expect(interest.status).toBe('PENDING');
    const left2 = await withLedgerTables(test.app.database.db)
      .selectFrom('ledgers')
      .select('account_id')
      .where('account_id', '=', savings.id)
      .execute();
    expect(left2).toEqual([]);

    // Never the last account that is not a card, nor the last one.
    expectConflict(
      await user.request('DELETE', withId(ACCOUNTS_PATHS.one, checking.id), { confirm: 'Checking' }),
      /Keep at least one account that is not a credit card/,
    );
    okJson(await user.request('DELETE', withId(ACCOUNTS_PATHS.one, card.id), { confirm: 'Visa' }));
    expectConflict(
      await user.request('DELETE', withId(ACCOUNTS_PATHS.one, checking.id), { confirm: 'Checking' }),
      'You cannot delete your only account.',
    );
  });

  it('deleting the primary account makes the oldest remaining one primary', async () => {
    const { user, checking, savings } = await userWithSavings('delete-primary');
    const cash = accountOf(await user.post(ACCOUNTS_PATHS.list, { name: 'Cash', kind: 'CASH' }));
    const left = accountsOf(await user.request('DELETE', withId(ACCOUNTS_PATHS.one, checking.id), { confirm: 'Checking' }));
    expect(left.map((account) => [account.id, account.primary])).toEqual([
      [savings.id, true],
      [cash.id, false],
    ]);
    // The schedules went with the primary role: into Savings, which has no ledger yet.
    const expenses = expensesInfoSchema.parse(okJson(await user.get(EXPENSES_PATHS.retrieve))).expenses;
    expect(expenses.map((expense) => expense.accountId)).toEqual([savings.id]);
    const created = ledgerOf(await user.post(LEDGER_PATHS.create, NOVEMBER));
    expect(created.transactions.map((row) => row.name)).toEqual(['Rent', 'Acme Paycheck', 'Rent', 'Acme Paycheck', 'Acme Paycheck']);
  });

  it("answers another user's account ids as unknown ones (404) on every account call, and changes nothing", async () => {
    const { savings } = await userWithSavings('victim');
    const intruder = test.as(newSubject('intruder'));
    okJson(await intruder.post(LEDGER_PATHS.create, NOVEMBER));
    const calls = (id: string): [string, string, unknown][] => [
      ['PATCH', withId(ACCOUNTS_PATHS.one, id), { name: 'Mine now' }],
      ['PATCH', withId(ACCOUNTS_PATHS.one, id), { primary: true }],
      ['DELETE', withId(ACCOUNTS_PATHS.one, id), { confirm: 'Savings' }],
      ['GET', inAccount(LEDGER_PATHS.retrieve, id), undefined],
      ['GET', inAccount(LEDGER_PATHS.forecast, id), undefined],
      ['GET', inAccount(YOUR_DATA_PATHS.ledgerCsv, id), undefined],
      ['POST', inAccount(LEDGER_PATHS.create, id), NOVEMBER],
      ['POST', inAccount(LEDGER_PATHS.extend, id), { endDate: '2027-01-31' }],
      ['POST', inAccount(LEDGER_PATHS.addTransaction, id), { date: '2026-11-25', name: 'Coffee', type: 'D', amount: 4.5 }],
      ['POST', inAccount(STATEMENT_PATHS.preview, id), { fileName: 's.csv', content: 'Date,Description,Amount\n2026-11-25,X,-1.00\n' }],
    ];
    const before = await test.snapshot();
    const unknown = crypto.randomUUID();
    for (const [index, [method, url, body]] of calls(savings.id).entries()) {
      const theirs = await intruder.request(method as 'GET', url, body);
      const [, unknownUrl, unknownBody] = calls(unknown)[index] ?? [];
      const missing = await intruder.request(method as 'GET', unknownUrl ?? '', unknownBody);
      expect(theirs.statusCode, `${method} ${url}`).toBe(404);
      expect(theirs.body).toBe(missing.body);
    }
    // A deposit or an expense cannot be put in another user's account either.
    expectBadRequest(
      await intruder.post(DEPOSITS_PATHS.add, {
        ...depositInput({ name: 'Sneaky', amount: 1, startDate: '2026-11-20', frequency: 'BW' }),
        accountId: savings.id,
      }),
      { accountId: 'Account must be the id of one of your accounts.' },
      ANY_MESSAGE,
    );
    expect(await test.snapshot()).toBe(before);
  });

  it('answers every per-account ledger call as its /api/ledger twin: shapes, changes, If-Match and undo', async () => {
    const subjectB = newSubject('twin-b');
    const a = test.as(newSubject('twin-a'));
    const b = test.as(subjectB);
    const [primaryB] = accountsOf(await b.get(ACCOUNTS_PATHS.list));
    const at = (path: string) => inAccount(path, primaryB?.id ?? '');
    for (const user of [a, b]) {
      okJson(await user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1000, startDate: '2026-11-20', frequency: 'BW' })));
      okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 1200, day: 1 })));
    }
    const pairs: [LightMyRequestResponse, LightMyRequestResponse][] = [];
    const both = async (send: (user: UserClient, path: (spec: string) => string) => Promise<LightMyRequestResponse>) => {
      const pair: [LightMyRequestResponse, LightMyRequestResponse] = [await send(a, (spec) => spec), await send(b, (spec) => at(spec))];
      pairs.push(pair);
      return pair;
    };
    await both((user, path) => user.get(path(LEDGER_PATHS.retrieve)));
    await both((user, path) => user.post(path(LEDGER_PATHS.create), NOVEMBER));
    await both((user, path) => user.get(path(LEDGER_PATHS.forecast)));
    const [added] = await both((user, path) =>
      user.post(`${path(LEDGER_PATHS.addTransaction)}?answer=changes`, { date: '2026-11-25', name: 'Coffee', type: 'D', amount: 4.5 }),
    );
    expect(added.headers[UNDO_HEADER]).toBeDefined();
    const rowOf = (user: UserClient, path: (spec: string) => string) =>
      user.get(path(LEDGER_PATHS.retrieve)).then((answer) => byName(ledgerOf(answer), 'Coffee'));
    await both(async (user, path) =>
      user.patch(`${path(LEDGER_PATHS.updateTransaction)}?answer=changes`, { ...(await rowOf(user, path)), status: 'PAID' }),
    );
    await both((user, path) => user.post(path(LEDGER_PATHS.extend), { endDate: '2027-01-31' }));
    const statement = { fileName: 'statement.csv', content: 'Date,Description,Amount\n2026-11-26,BAKERY,-3.00\n' };
    await both((user, path) => user.post(path(STATEMENT_PATHS.preview), statement));
    await both((user, path) => user.post(path(STATEMENT_PATHS.import), { ...statement, decisions: [{ index: 0, action: 'new' }] }));
    await both((user, path) => user.get(path(YOUR_DATA_PATHS.ledgerCsv)));
    await both(async (user, path) => user.delete(`${path(withId(LEDGER_PATHS.transaction, (await rowOf(user, path)).id))}?answer=changes`));
    for (const [spec, account] of pairs) {
      expect(account.statusCode, account.body).toBe(spec.statusCode);
      // Versions are digests of each ledger's own id (decision 0030): opaque, so they differ as the ids do.
      const versionless = (body: string) => body.replace(/"(basedOn|version)":"[^"]+"/g, '"$1":"<version>"');
      expect(withoutIds([versionless(account.body)])).toEqual(withoutIds([versionless(spec.body)]));
      expect(account.headers['content-type']).toBe(spec.headers['content-type']);
      expect(account.headers.etag === undefined).toBe(spec.headers.etag === undefined);
      expect(account.headers[UNDO_HEADER] === undefined).toBe(spec.headers[UNDO_HEADER] === undefined);
    }

    // If-Match: a stale version answers 412 and changes nothing; the current one goes ahead.
    const current = await b.get(at(LEDGER_PATHS.retrieve));
    const before = await test.snapshot();
    const stale = await test.app.inject({
      method: 'POST',
      url: at(LEDGER_PATHS.addTransaction),
      headers: {
        authorization: `Bearer ${await test.issuer.token(subjectB)}`,
        'content-type': 'application/json',
        'if-match': 'W/"stale"',
      },
      payload: JSON.stringify({ date: '2026-11-27', name: 'Tea', type: 'D', amount: 2 }),
    });
    expect(stale.statusCode, stale.body).toBe(412);
    expect(await test.snapshot()).toBe(before);
    expect(current.headers.etag).toBe((await b.get(LEDGER_PATHS.retrieve)).headers.etag);
  });

  it('projects each schedule into its own account, moves it between accounts, and undoes the move in both ledgers', async () => {
    const { user, checking, savings } = await userWithSavings('schedules');
    okJson(await user.post(inAccount(LEDGER_PATHS.create, savings.id), NOVEMBER));
    const savingsOf = () => user.get(inAccount(LEDGER_PATHS.retrieve, savings.id)).then(ledgerOf);
    const checkingOf = () => user.get(LEDGER_PATHS.retrieve).then(ledgerOf);
    const names = (ledger: Ledger) => ledger.transactions.map((row) => `${row.date} ${row.name}`);

    // An expense paid from Savings lands only there; with two accounts, answers name their account.
    const added = await user.post(EXPENSES_PATHS.add, { ...expenseInput({ name: 'Gym', amount: 30, day: 25 }), accountId: savings.id });
    const expenses = expensesInfoSchema.parse(okJson(added)).expenses;
    expect(expenses.map((expense) => [expense.name, expense.accountId])).toEqual([
      ['Rent', checking.id],
      ['Gym', savings.id],
    ]);
    expect(names(await savingsOf())).toEqual(['2026-11-25 Gym', '2026-12-25 Gym']);
    expect(names(await checkingOf())).not.toContain('2026-11-25 Gym');
    expect(accountsOf(await user.get(ACCOUNTS_PATHS.list)).find((account) => account.id === savings.id)).toMatchObject({
      currentBalance: 500,
      pendingBalance: 500,
    });

    // A change that names no account keeps it where it is.
    const gym = expenses.find((expense) => expense.name === 'Gym');
    okJson(await user.put(withId(EXPENSES_PATHS.one, gym?.id ?? ''), expenseInput({ name: 'Gym', amount: 35, day: 25 })));
    expect((await savingsOf()).transactions.map((row) => row.amount)).toEqual([35, 35]);

    // Moving Rent to Savings takes its future rows out of Checking and puts them into Savings.
    const rent = expenses.find((expense) => expense.name === 'Rent');
    const checkingBefore = await user.get(LEDGER_PATHS.retrieve);
    const savingsBefore = await user.get(inAccount(LEDGER_PATHS.retrieve, savings.id));
    const moved = await user.put(withId(EXPENSES_PATHS.one, rent?.id ?? ''), {
      ...expenseInput({ name: 'Rent', amount: 1200, day: 1 }),
      accountId: savings.id,
    });
    okJson(moved);
    // November's, in the past, stays: history is the account's it happened in.
    expect(names(await checkingOf()).filter((name) => name.endsWith('Rent'))).toEqual(['2026-11-01 Rent']);
    expect(names(await savingsOf())).toEqual(['2026-11-25 Gym', '2026-12-01 Rent', '2026-12-25 Gym']);
    const token = moved.headers[UNDO_HEADER];
    expect(typeof token).toBe('string');
    const undone = await user.post('/api/undo', { token });
    expect(expensesInfoSchema.parse(okJson(undone)).expenses.find((expense) => expense.name === 'Rent')?.accountId).toBe(checking.id);
    expect((await user.get(LEDGER_PATHS.retrieve)).body).toBe(checkingBefore.body);
    expect((await user.get(inAccount(LEDGER_PATHS.retrieve, savings.id))).body).toBe(savingsBefore.body);
  });

  it("undoes a write in a second account, answering that account's ledger", async () => {
    const { user, savings } = await userWithSavings('undo');
    okJson(await user.post(inAccount(LEDGER_PATHS.create, savings.id), NOVEMBER));
    const before = await user.get(inAccount(LEDGER_PATHS.retrieve, savings.id));
    const checkingBefore = (await user.get(LEDGER_PATHS.retrieve)).body;
    const added = await user.post(inAccount(LEDGER_PATHS.addTransaction, savings.id), {
      date: '2026-11-25',
      name: 'Transfer in',
      type: 'C',
      amount: 50,
    });
    expect(byName(ledgerOf(added), 'Transfer in').amount).toBe(50);
    const undone = await user.post('/api/undo', { token: added.headers[UNDO_HEADER] });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.body).toBe(before.body);
    expect((await user.get(inAccount(LEDGER_PATHS.retrieve, savings.id))).body).toBe(before.body);
    expect((await user.get(LEDGER_PATHS.retrieve)).body).toBe(checkingBefore);

    // An undo whose account was deleted since has nothing to put back into.
    const again = await user.post(inAccount(LEDGER_PATHS.addTransaction, savings.id), {
      date: '2026-11-25',
      name: 'Again',
      type: 'C',
      amount: 5,
    });
    okJson(await user.request('DELETE', withId(ACCOUNTS_PATHS.one, savings.id), { confirm: 'Savings' }));
    expectConflict(
      await user.post('/api/undo', { token: again.headers[UNDO_HEADER] }),
      'This can no longer be undone: something changed since.',
    );
  });

  it(`counts every account's rows against the ${MAX_LEDGER_ROWS.toLocaleString('en-US')}-row limit`, async () => {
    const user = test.as(newSubject('rows'));
    const row = (index: number, date: string) => ({
      id: `0190a1b2-c3d4-7e5f-8a6b-${index.toString(16).padStart(12, '0')}`,
      sequence: index,
      date,
      name: 'Row',
      type: 'D',
      amount: 1,
      status: 'PENDING',
      source: null,
    });
    const ledger = (rows: ReturnType<typeof row>[]) => ({
      startDate: '2026-11-01',
      endDate: '2026-12-31',
      openingBalance: 0,
      nextSequence: rows.length + 1,
      transactions: rows,
      skippedOccurrences: [],
      importedStatementRows: [],
      removedSchedules: [],
    });
    const account = (id: number, name: string, primary: boolean, rows: ReturnType<typeof row>[]) => ({
      id: `0190a1b2-c3d4-7e5f-8a6b-f${id.toString(16).padStart(11, '0')}`,
      name,
      kind: 'CHECKING',
      primary,
      card: null,
      createdAt: `2026-11-01T09:00:0${id}.000Z`,
      ledger: ledger(rows),
    });
    const many = (from: number, count: number) => Array.from({ length: count }, (_, index) => row(from + index, '2026-11-15'));
    const document = (secondRows: number) => ({
      format: 'leftover-export',
      version: 2,
      accounts: [
        account(1, 'Checking', true, many(1, MAX_LEDGER_ROWS - 1)),
        account(
          2,
          'Savings',
          false,
          many(1, secondRows).map((r, i) => ({ ...r, id: `0190a1b2-c3d4-7e5f-8a6b-e${(i + 1).toString(16).padStart(11, '0')}` })),
        ),
      ],
      deposits: [],
      expenses: [],
    });
    expectConflict(
      await user.post(YOUR_DATA_PATHS.restore, document(2)),
      /^A ledger holds at most 20,000 rows: this one would hold 20,001\./,
    );
    okJson(await user.post(YOUR_DATA_PATHS.restore, document(1)));
    const savings = accountsOf(await user.get(ACCOUNTS_PATHS.list)).find((candidate) => candidate.name === 'Savings');
    const before = await test.snapshot();
    expectConflict(
      await user.post(inAccount(LEDGER_PATHS.addTransaction, savings?.id ?? ''), {
        date: '2026-11-20',
        name: 'One more',
        type: 'D',
        amount: 1,
      }),
      /^A ledger holds at most 20,000 rows: this one would hold 20,001\./,
    );
    expect(await test.snapshot()).toBe(before);
  });

  it('exports version 2 and restores it exactly; a version 1 file restores into the primary account', async () => {
    const { user, checking, savings } = await userWithSavings('export');
    okJson(await user.post(inAccount(LEDGER_PATHS.create, savings.id), NOVEMBER));
    okJson(await user.post(EXPENSES_PATHS.add, { ...expenseInput({ name: 'Gym', amount: 30, day: 25 }), accountId: savings.id }));
    okJson(
      await user.post(inAccount(LEDGER_PATHS.addTransaction, savings.id), { date: '2026-11-26', name: 'Deposit', type: 'C', amount: 40 }),
    );
    okJson(
      await user.post(ACCOUNTS_PATHS.list, {
        name: 'Visa',
        kind: 'CARD',
        card: { closingDay: 25, dueDay: 20, payFromAccountId: checking.id, rule: 'MINIMUM', amount: 35, creditLimit: 2500 },
      }),
    );
    const reads = async (): Promise<string[]> => {
      const accounts = accountsOf(await user.get(ACCOUNTS_PATHS.list));
      const paths = [
        ACCOUNTS_PATHS.list,
        DEPOSITS_PATHS.retrieve,
        EXPENSES_PATHS.retrieve,
        LEDGER_PATHS.retrieve,
        ...accounts.flatMap((account) => [inAccount(LEDGER_PATHS.retrieve, account.id), inAccount(YOUR_DATA_PATHS.ledgerCsv, account.id)]),
      ];
      const answers: string[] = [];
      for (const path of paths) {
        const answer = await user.get(path);
        answers.push(`${path.replace(UUID, 'account')} ${answer.statusCode}\n${answer.body}`);
      }
      return answers;
    };
    const before = await reads();
    const answer = await user.get(YOUR_DATA_PATHS.export);
    const document: YourDataExport = yourDataExportSchema.parse(okJson(answer));
    expect(document.version).toBe(2);
    expect(
      document.accounts.map((account) => [account.name, account.kind, account.primary, account.ledger?.transactions.length ?? null]),
    ).toEqual([
      ['Checking', 'CHECKING', true, 5],
      ['Savings', 'SAVINGS', false, 3],
      ['Visa', 'CARD', false, null],
    ]);
    expect(document.accounts[2]?.card).toEqual({
      closingDay: 25,
      dueDay: 20,
      payFromAccountId: checking.id,
      rule: 'MINIMUM',
      amount: 35,
      creditLimit: 2500,
    });
    expect(document.expenses.map((expense) => [expense.name, expense.accountId])).toEqual([
      ['Rent', checking.id],
      ['Gym', savings.id],
    ]);

    okJson(await user.post(YOUR_DATA_PATHS.restore, document));
    const restored = await reads();
    expect(withoutIds(restored)).toEqual(withoutIds(before));
    expect(restored).not.toEqual(before);
    // And the restored document exports as it was, ids and the export time aside.
    const again = yourDataExportSchema.parse(okJson(await user.get(YOUR_DATA_PATHS.export)));
    expect(withoutIds([JSON.stringify(again)])).toEqual(withoutIds([JSON.stringify(document)]));

    // A version 1 file: its ledger and schedules go into the primary account, which keeps its name; the others go.
    okJson(
      await user.patch(withId(ACCOUNTS_PATHS.one, accountsOf(await user.get(ACCOUNTS_PATHS.list))[0]?.id ?? ''), { name: 'Everyday' }),
    );
    const checkingLedger = document.accounts[0]?.ledger;
    const version1 = {
      format: 'leftover-export',
      version: 1,
      deposits: document.deposits.map(withoutAccount),
      expenses: document.expenses.filter((expense) => expense.accountId === checking.id).map(withoutAccount),
      ledger: checkingLedger,
    };
    expect(okJson(await user.post(YOUR_DATA_PATHS.restore, version1))).toEqual({ deposits: 1, expenses: 1, transactions: 5 });
    const [only, ...none] = accountsOf(await user.get(ACCOUNTS_PATHS.list));
    expect(none).toEqual([]);
    expect(only).toMatchObject({ name: 'Everyday', kind: 'CHECKING', primary: true });
    expect(withoutIds([(await user.get(LEDGER_PATHS.retrieve)).body])).toEqual(withoutIds([before[3]?.split('\n')[1] ?? '']));
    expect((await user.get(DEPOSITS_PATHS.retrieve)).body).not.toContain('accountId');
  });
});
