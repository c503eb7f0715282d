/**
 * Bank sync's API (issue 37, decision 0082) against the SimpleFIN simulator, on both databases: a
 * connect that claims once (a second claim of the token stores nothing), links (a euro account is
 * never linked), another user's ids answer 404, a pending then posted under a new id gives one row
 * whose balance equals the bridge's, runs of the same data add 0 rows, Sync now at most once a
 * minute and never past 24 requests a day, and the Access URL's password in no answer or log line.
 * Decision 0084: a row no longer at the bank counts in no balance (the ledger, a changes answer, the
 * forecast, safe to spend) and no statement matches it; the answer's bankBadge and fromBank; a mark
 * alone moves the ETag; a bank row deleted whatever its status never comes back; undo, export and
 * restore carry the marks and closed keys. Decision 0086: the CSV's Bank column, links back after a
 * restore, an undo of a pending's delete after its posting came, one re-plan of notifications per
 * sync that changed a ledger, a secret sealed with another key, the sync log kept to its latest 50,
 * hostile bodies and ids; and a grep of every log line, answer, export and the database at the end.
 */
import type { FastifyInstance } from 'fastify';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES, buildApp, runBankSchedule, runNotifications } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { DOLLARS_ONLY, SETUP_TOKEN_ALREADY_USED } from '../../src/contract/bank-connections.js';
import { UNDO_HEADER } from '../../src/contract/common.js';
import { SECRET_LOST, SYNC_QUOTA, SYNC_TOO_SOON } from '../../src/server/bank/bank-service.js';
import { KEPT_SYNC_LOG_ENTRIES } from '../../src/server/bank/bank-connection-store.js';
import { secretBox } from '../../src/server/bank/secrets.js';
import { INSECURE_ADDRESS, NOT_A_TOKEN, REFUSED_ADDRESS } from '../../src/server/bank/simplefin-client.js';
import { NOTIFICATIONS_PATHS } from '../../src/contract/notifications.js';
import { LEDGER_CSV_COLUMNS } from '../../src/contract/ledger-csv.js';
import { YOUR_DATA_PATHS } from '../../src/contract/your-data.js';
import { addDays } from '../../src/domain/calendar-date.js';
import { todayInZone } from '../../src/domain/time-zones.js';
import { expectBadRequest, expectNotFound } from '../support/api-expectations.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/notify-receivers.js';
import { startSimplefinSimulator, type SimplefinSimulator } from '../support/simplefin-simulator.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, TEST_NOW, type TestApp, type UserClient } from '../support/test-app.js';

interface Connection {
  id: string;
  status: { state: string; reason: string | null; scheduled: boolean };
  lastSync: { added: number; balances: { remoteId: string; text: string }[]; failure: string | null } | null;
  accounts: { id: string; name: string; currency: string; last4: string; balance: number | null; accountId: string | null }[];
}

interface LedgerAnswer {
  ledger: { transactions: { name: string; status: string; amount: number }[] };
}

const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

describe.each(databaseKinds())('bank sync on %s', (kind) => {
  let simulator: SimplefinSimulator;
  let test: TestApp;
  let clock = TEST_NOW;
  const logs: string[] = [];
  /** The app's logger output, every line, at debug: the password grep at the end reads it. */
  const logStream = { write: (line: string) => void logs.push(line) };
  const answers: string[] = [];
  let alice: UserClient;
  let receiver: WebhookReceiver;
  /** Every user the file signs in as: each one's export is part of the password grep at the end. */
  const subjects = new Set<string>();

  /** Every call's answer is kept for the password grep at the end. */
  const kept = (user: UserClient): UserClient => {
    const keep = async <T extends { body: string }>(answer: Promise<T>): Promise<T> => {
      const done = await answer;
      answers.push(done.body);
      return done;
    };
    return {
      request: (method, url, payload, headers) => keep(user.request(method, url, payload, headers)),
      get: (url) => keep(user.get(url)),
      post: (url, payload) => keep(user.post(url, payload)),
      put: (url, payload) => keep(user.put(url, payload)),
      patch: (url, payload) => keep(user.patch(url, payload)),
      delete: (url) => keep(user.delete(url)),
    };
  };
  const person = (subject: string): UserClient => {
    subjects.add(subject);
    return kept(test.as(subject));
  };

  const advance = (seconds: number) => {
    clock = new Date(clock.getTime() + seconds * 1000);
    simulator.setClock(clock);
  };

  beforeAll(async () => {
    simulator = await startSimplefinSimulator({ now: TEST_NOW });
    receiver = await startWebhookReceiver();
    test = await startTestApp(kind, {
      now: () => clock,
      env: { NOTIFY_ALLOW_PRIVATE_URLS: 'true', SECRETS_KEY, LOG_LEVEL: 'debug' },
      logStream,
    });
    alice = person('bank-alice');
  });
  afterAll(async () => {
    await test?.close();
    await simulator?.close();
    await receiver?.close();
  });

  let connection: Connection;

  it('connects with a Setup Token and lists the bridge accounts; a second claim of it stores nothing', async () => {
    simulator.scenario('default');
    const token = simulator.setupToken();
    const connected = await alice.post('/api/bank-connections', { setupToken: token });
    expect(connected.statusCode, connected.body).toBe(200);
    connection = connected.json<Connection>();
    expect(connection.status).toEqual({ state: 'Connected', reason: null, scheduled: true });
    expect(connection.lastSync).toBeNull();
    // Who connected it (decision 0088): in a budget shared with others, the member who did.
    const madeBy = await test.app.database.db
      .withoutPlugins()
      .selectFrom('bank_connections')
      .select(['made_by_iss', 'made_by_sub'])
      .where('id', '=', connection.id)
      .executeTakeFirst();
    expect(madeBy).toEqual({ made_by_iss: test.issuer.issuer, made_by_sub: 'bank-alice' });
    expect(connection.accounts.map((account) => [account.name, account.currency, account.last4, account.accountId])).toEqual(
      expect.arrayContaining([
        ['Checking', 'USD', 'king', null],
        ['Euro Account', 'EUR', 'euro', null],
      ]),
    );

    const before = await test.snapshot();
    const again = await alice.post('/api/bank-connections', { setupToken: token });
    expect(again.statusCode).toBe(400);
    expect(again.json<{ error: { message: string } }>().error.message).toBe(SETUP_TOKEN_ALREADY_USED);
    expect(await test.snapshot()).toBe(before);
    expect((await alice.get('/api/bank-connections')).json<{ connections: Connection[] }>().connections).toHaveLength(1);
  });

  it('refuses to link an account in another currency, and a body that is neither a link nor an unlink', async () => {
    const euro = await alice.put(`/api/bank-connections/${connection.id}/accounts/ACT-euro`, {
      newAccount: { name: 'Euros', kind: 'SAVINGS' },
    });
    expect(euro.statusCode).toBe(400);
    expect(euro.body).toContain(DOLLARS_ONLY);
    const neither = await alice.put(`/api/bank-connections/${connection.id}/accounts/ACT-checking`, {});
    expect(neither.statusCode).toBe(400);
    const missing = await alice.put(`/api/bank-connections/${connection.id}/accounts/ACT-nowhere`, { accountId: null });
    expect(missing.statusCode).toBe(404);
  });

  it('answers 404 to another user for every call on the connection, and lists none of it', async () => {
    const bob = person('bank-bob');
    expect((await bob.get('/api/bank-connections')).json()).toEqual({ connections: [] });
    expect((await bob.put(`/api/bank-connections/${connection.id}/accounts/ACT-checking`, { accountId: null })).statusCode).toBe(404);
    expect((await bob.post(`/api/bank-connections/${connection.id}/sync`)).statusCode).toBe(404);
    expect((await bob.delete(`/api/bank-connections/${connection.id}`)).statusCode).toBe(404);
    expect((await alice.get('/api/bank-connections')).json<{ connections: Connection[] }>().connections).toHaveLength(1);
  });

  it('syncs a pending purchase, then its posting under a new id as the same row, the balance the bridge says; more runs add 0 rows', async () => {
    const dave = person('bank-dave');
    simulator.scenario('pending-posted-new-id');
    const made = (await dave.post('/api/bank-connections', { setupToken: simulator.setupToken() })).json<Connection>();
    const linked = await dave.put(`/api/bank-connections/${made.id}/accounts/ACT-checking`, {
      newAccount: { name: 'Bank Checking', kind: 'CHECKING' },
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const accountId = linked.json<Connection>().accounts.find((account) => account.id === 'ACT-checking')?.accountId;
    expect(accountId).toEqual(expect.any(String));
    const created = await dave.post(`/api/accounts/${accountId}/ledger/create-ledger`, {
      ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 1500 },
    });
    expect(created.statusCode, created.body).toBe(200);

    advance(61);
    const first = await dave.post(`/api/bank-connections/${made.id}/sync`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ added: 3, matched: 0, replaced: 0, flagged: 0, warnings: [] });
    const rows = async () =>
      (await dave.get(`/api/accounts/${accountId}/ledger/retrieve-ledger`))
        .json<LedgerAnswer>()
        .ledger.transactions.map((row) => [row.name, row.status, row.amount]);
    expect(await rows()).toContainEqual(['CORNER COFFEE', 'PAID', 4.5]);

    const tooSoon = await dave.post(`/api/bank-connections/${made.id}/sync`);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.body).toContain(SYNC_TOO_SOON);

    simulator.step();
    advance(61);
    const second = await dave.post(`/api/bank-connections/${made.id}/sync`);
    expect(second.json()).toEqual({ added: 0, matched: 0, replaced: 1, flagged: 0, warnings: [] });
    const after = await rows();
    expect(after.filter(([name]) => name === 'CORNER COFFEE')).toEqual([['CORNER COFFEE', 'CLEARED', 4.5]]);
    expect(after).toHaveLength(3);

    for (let run = 0; run < 3; run += 1) {
      advance(61);
      expect((await dave.post(`/api/bank-connections/${made.id}/sync`)).json()).toEqual({
        added: 0,
        matched: 0,
        replaced: 0,
        flagged: 0,
        warnings: [],
      });
    }
    expect(await rows()).toHaveLength(3);
    const listed = (await dave.get('/api/bank-connections')).json<{ connections: Connection[] }>().connections[0];
    expect(listed?.lastSync?.balances).toEqual([
      { remoteId: 'ACT-checking', text: expect.stringMatching(/^Matches the bank's balance of \$2,913\.33 on /) },
    ]);
  });

  /** A user with Checking linked to a new account with a ledger from 2026-11-01, connected to the scenario. */
  async function linkedChecking(subject: string, scenario: Parameters<SimplefinSimulator['scenario']>[0]) {
    const user = person(subject);
    simulator.scenario(scenario);
    const made = (await user.post('/api/bank-connections', { setupToken: simulator.setupToken() })).json<Connection>();
    const linked = await user.put(`/api/bank-connections/${made.id}/accounts/ACT-checking`, {
      newAccount: { name: 'Checking at the bank', kind: 'CHECKING' },
    });
    const accountId = linked.json<Connection>().accounts.find((account) => account.id === 'ACT-checking')?.accountId ?? '';
    const opening = scenario === 'balance-100.5' ? 0 : 1500;
    await user.post(`/api/accounts/${accountId}/ledger/create-ledger`, {
      ledger: { startDate: '2026-11-01', endDate: '2027-01-31', currentBalance: opening },
    });
    const sync = async () => {
      advance(61);
      return user.post(`/api/bank-connections/${made.id}/sync`);
    };
    const rows = async () =>
      (await user.get(`/api/accounts/${accountId}/ledger/retrieve-ledger`))
        .json<LedgerAnswer>()
        .ledger.transactions.map((row) => [row.name, row.status, row.amount]);
    const connection = async () =>
      (await user.get('/api/bank-connections')).json<{ connections: Connection[] }>().connections.find((each) => each.id === made.id);
    return { user, id: made.id, accountId, sync, rows, connection };
  }

  it.each([
    ['pending-posted-tip', [['BISTRO 21', 'CLEARED', 47]], { replaced: 1 }],
    [
      'twin-purchases',
      [
        ['CITY TRANSIT FARE', 'CLEARED', 3.75],
        ['CITY TRANSIT FARE', 'CLEARED', 3.75],
      ],
      { added: 0 },
    ],
    ['balance-100.5', [['CASH DEPOSIT', 'CLEARED', 100.5]], { added: 0 }],
    [
      'bad-amount',
      [
        ['HARDWARE STORE', 'CLEARED', 20],
        ['BAKERY', 'CLEARED', 7.25],
      ],
      { added: 0 },
    ],
  ] as const)('plays the %s scenario into the rows it names, the balance the bridge says', async (scenario, expected, secondCounts) => {
    const bank = await linkedChecking(`bank-${scenario}`, scenario);
    expect((await bank.sync()).statusCode).toBe(200);
    simulator.step();
    const second = await bank.sync();
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject(secondCounts);
    const rows = await bank.rows();
    for (const row of expected) expect(rows).toContainEqual(row);
    const names = new Set<unknown>(expected.map(([name]) => name));
    expect(rows.filter(([name]) => names.has(name))).toHaveLength(expected.length);
    expect((await bank.connection())?.lastSync?.balances[0]?.text).toMatch(/^Matches the bank's balance of /);
    // Three more runs of the same data add nothing.
    for (let run = 0; run < 3; run += 1) expect((await bank.sync()).json()).toMatchObject({ added: 0, replaced: 0, flagged: 0 });
  });

  it('flags a pending hold the bank dropped as no longer at the bank after 8 days, and keeps a relinked account to one row each', async () => {
    const dropped = await linkedChecking('bank-ivan', 'pending-dropped');
    expect((await dropped.sync()).json()).toMatchObject({ added: 3 });
    simulator.step();
    expect((await dropped.sync()).json()).toMatchObject({ added: 0, flagged: 0 });
    advance(9 * 86_400);
    expect((await dropped.sync()).json()).toMatchObject({ added: 0, flagged: 1 });
    expect((await dropped.rows()).filter(([name]) => name === 'HOTEL HOLD')).toHaveLength(1);
    // No longer at the bank, it can be deleted though PAID, and its key closes: it never comes back.
    const ledger = (await dropped.user.get(`/api/accounts/${dropped.accountId}/ledger/retrieve-ledger`)).json<{
      ledger: { transactions: { id: string; name: string }[] };
    }>();
    const hold = ledger.ledger.transactions.find((row) => row.name === 'HOTEL HOLD');
    const deleted = await dropped.user.delete(`/api/accounts/${dropped.accountId}/ledger/transactions/${hold?.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await dropped.sync()).json()).toMatchObject({ added: 0 });
    expect((await dropped.rows()).filter(([name]) => name === 'HOTEL HOLD')).toHaveLength(0);

    const relinked = await linkedChecking('bank-judy', 'account-relinked');
    expect((await relinked.sync()).json()).toMatchObject({ added: 2 });
    simulator.step();
    // The bridge's new account id: linked to the same ledger, the old link gone at the bridge.
    const refreshed = await relinked.sync();
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const listed = await relinked.connection();
    const ledgerAccount = listed?.accounts.find((account) => account.id === 'ACT-checking')?.accountId;
    const fresh = listed?.accounts.find((account) => account.id === 'ACT-checking-relinked');
    expect(fresh).toBeDefined();
    await relinked.user.put(`/api/bank-connections/${relinked.id}/accounts/ACT-checking`, { accountId: null });
    await relinked.user.put(`/api/bank-connections/${relinked.id}/accounts/ACT-checking-relinked`, { accountId: ledgerAccount });
    expect((await relinked.sync()).json()).toMatchObject({ added: 0, matched: 2 });
    expect(await relinked.rows()).toHaveLength(2);
  });

  /** The ledger answer's rows as these tests read them: what the bank says of each (decision 0084). */
  interface BankRow {
    id: string;
    date: string;
    name: string;
    status: string;
    amount: number;
    balance: number;
    bankBadge?: string;
    fromBank?: boolean;
  }
  interface BankLedger {
    ledger: { currentBalance: number; pendingBalance: number; transactions: BankRow[] };
  }
  const ledgerOf = async (bank: Awaited<ReturnType<typeof linkedChecking>>) => {
    const answer = await bank.user.get(`/api/accounts/${bank.accountId}/ledger/retrieve-ledger`);
    expect(answer.statusCode, answer.body).toBe(200);
    return { etag: answer.headers.etag, ledger: answer.json<BankLedger>().ledger };
  };
  const named = (ledger: BankLedger['ledger'], name: string): BankRow => {
    const found = ledger.transactions.find((row) => row.name === name);
    if (!found) throw new Error(`no row named ${name}`);
    return found;
  };

  it('says which rows are pending at the bank or no longer at the bank; one no longer there counts in no balance, month total, row block or forecast, and its flag alone moves the ETag', async () => {
    const dropped = await linkedChecking('bank-kate', 'pending-dropped');
    expect((await dropped.sync()).json()).toMatchObject({ added: 3 });
    const synced = (await ledgerOf(dropped)).ledger;
    expect(named(synced, 'HOTEL HOLD')).toMatchObject({ status: 'PAID', bankBadge: 'Pending at the bank', fromBank: true });
    expect(named(synced, 'FRESH MARKET')).toMatchObject({ status: 'CLEARED', fromBank: true });
    expect(named(synced, 'FRESH MARKET').bankBadge).toBeUndefined();
    // $1,500 opening, the $1,500 paycheck, $82.17 of groceries, and the $150 hold while the bank holds it.
    expect([synced.currentBalance, synced.pendingBalance]).toEqual([2917.83, 2767.83]);
    // The CSV says what the page's badge says, in a last column of its own (decision 0086).
    const csvBank = async () => {
      const csv = await dropped.user.get(`/api/accounts/${dropped.accountId}/ledger/export.csv`);
      expect(csv.statusCode, csv.body).toBe(200);
      const [header, ...rows] = Papa.parse<string[]>(csv.body.trim(), { newline: '\r\n' }).data;
      expect(header).toEqual([...LEDGER_CSV_COLUMNS]);
      expect(header?.at(-1)).toBe('Bank');
      return rows.map((row) => [row[1], row[6], row[7]]);
    };
    expect(await csvBank()).toEqual(
      expect.arrayContaining([
        ['HOTEL HOLD', 'PAID', 'Pending at the bank'],
        ['FRESH MARKET', 'CLEARED', ''],
      ]),
    );

    simulator.step();
    expect((await dropped.sync()).json()).toMatchObject({ flagged: 0 });
    advance(9 * 86_400);
    const before = await ledgerOf(dropped);
    expect((await dropped.sync()).json()).toEqual({ added: 0, matched: 0, replaced: 0, flagged: 1, warnings: [] });
    const after = await ledgerOf(dropped);
    // Nothing but the hold's mark changed, and that is a change of the ledger like any other.
    expect(after.etag).toEqual(expect.any(String));
    expect(after.etag).not.toBe(before.etag);
    const hold = named(after.ledger, 'HOTEL HOLD');
    expect(hold).toMatchObject({ status: 'PAID', bankBadge: 'No longer at the bank', fromBank: true, balance: 2917.83 });
    expect(await csvBank()).toContainEqual(['HOTEL HOLD', 'PAID', 'No longer at the bank']);
    expect([after.ledger.currentBalance, after.ledger.pendingBalance]).toEqual([2917.83, 2917.83]);
    // A statement's $150.00 the same day is no match for a row the bank says never happened.
    const preview = await dropped.user.post(`/api/accounts/${dropped.accountId}/ledger/statements/preview`, {
      fileName: 'statement.csv',
      content: `Transaction Date,Description,Memo,Debit,Credit,Balance\n${hold.date},HOTEL,,150.00,,2767.83\n`,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json<{ rows: { action: string }[] }>().rows.map((row) => row.action)).toEqual(['new']);

    // A write's changes answer places its row from the row blocks and sums the month totals.
    // Two days ahead, so the forecast's lowest balance is after it.
    const ahead = new Date(clock.getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
    const snack = await dropped.user.post(`/api/accounts/${dropped.accountId}/ledger/add-transaction?answer=changes`, {
      date: ahead,
      name: 'Snack',
      type: 'D',
      amount: 10,
    });
    expect(snack.statusCode, snack.body).toBe(200);
    const changes = snack.json<{ changes: { currentBalance: number; pendingBalance: number; rows: BankRow[] } }>().changes;
    expect([changes.currentBalance, changes.pendingBalance]).toEqual([2917.83, 2917.83]);
    expect(changes.rows.map((row) => [row.name, row.balance])).toEqual([['Snack', 2907.83]]);
    // Clearing the hold by hand does not make it count: the bank says it never happened.
    const cleared = await dropped.user.patch(`/api/accounts/${dropped.accountId}/ledger/update-transaction?answer=changes`, {
      ...hold,
      status: 'CLEARED',
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const clearedChanges = cleared.json<{ changes: { currentBalance: number; pendingBalance: number; rows: BankRow[] } }>().changes;
    expect([clearedChanges.currentBalance, clearedChanges.pendingBalance]).toEqual([2917.83, 2917.83]);
    expect(clearedChanges.rows.map((row) => [row.name, row.status, row.balance, row.bankBadge])).toEqual([
      ['HOTEL HOLD', 'CLEARED', 2917.83, 'No longer at the bank'],
    ]);
    const whole = (await ledgerOf(dropped)).ledger;
    expect([whole.currentBalance, whole.pendingBalance]).toEqual([2917.83, 2917.83]);
    expect(named(whole, 'Snack').balance).toBe(2907.83);

    const forecast = await dropped.user.get(`/api/accounts/${dropped.accountId}/ledger/forecast`);
    expect(forecast.statusCode, forecast.body).toBe(200);
    const outlook = forecast.json<{
      currentBalance: number;
      pendingBalance: number;
      lowest: { balance: number } | null;
      payPeriods: { bills: number }[];
      safeToSpend: { amount: number } | null;
    }>();
    expect([outlook.currentBalance, outlook.pendingBalance]).toEqual([2917.83, 2917.83]);
    expect(outlook.lowest?.balance).toBe(2907.83);
    expect(outlook.payPeriods.reduce((sum, period) => sum + Math.round(period.bills * 100), 0)).toBe(8217 + 1000);
    expect(outlook.safeToSpend?.amount).toBe(2907.83);
  });

  it('deletes a bank row whatever its status, and a deleted bank row never comes back, even posted under a new id; an undo puts it back with its mark, even a pending row after its posting came', async () => {
    const bank = await linkedChecking('bank-liam', 'pending-posted-new-id');
    expect((await bank.sync()).json()).toMatchObject({ added: 3 });
    const synced = (await ledgerOf(bank)).ledger;
    const coffee = named(synced, 'CORNER COFFEE');
    const groceries = named(synced, 'FRESH MARKET');
    expect(coffee).toMatchObject({ status: 'PAID', bankBadge: 'Pending at the bank' });
    expect(groceries).toMatchObject({ status: 'CLEARED', fromBank: true });
    const remove = (row: BankRow) => bank.user.delete(`/api/accounts/${bank.accountId}/ledger/transactions/${row.id}`);

    // A CLEARED row the bank posted goes; an undo puts it back with its mark, and its key opens again.
    const deleted = await remove(groceries);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const undone = await bank.user.post('/api/undo', { token: deleted.headers[UNDO_HEADER] });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(named((await ledgerOf(bank)).ledger, 'FRESH MARKET')).toMatchObject({ status: 'CLEARED', fromBank: true });
    expect((await bank.sync()).json()).toEqual({ added: 0, matched: 0, replaced: 0, flagged: 0, warnings: [] });

    // Deleted again, and the PAID pending too: neither comes back, the pending's posting neither.
    expect((await remove(groceries)).statusCode).toBe(200);
    const coffeeDeleted = await remove(coffee);
    expect(coffeeDeleted.statusCode).toBe(200);
    simulator.step();
    for (let run = 0; run < 3; run += 1) expect((await bank.sync()).json()).toMatchObject({ added: 0, replaced: 0 });
    const left = (await ledgerOf(bank)).ledger.transactions.map((row) => row.name);
    expect(left).toHaveLength(1);
    expect(left).not.toContain('CORNER COFFEE');
    expect(left).not.toContain('FRESH MARKET');

    // The pending's delete undone after its posting came under a new id: both keys the delete closed
    // open again (decision 0086), so the next sync replaces the row with its posting, once.
    const undoneCoffee = await bank.user.post('/api/undo', { token: coffeeDeleted.headers[UNDO_HEADER] });
    expect(undoneCoffee.statusCode, undoneCoffee.body).toBe(200);
    expect(named((await ledgerOf(bank)).ledger, 'CORNER COFFEE')).toMatchObject({ status: 'PAID', bankBadge: 'Pending at the bank' });
    expect((await bank.sync()).json()).toEqual({ added: 0, matched: 0, replaced: 1, flagged: 0, warnings: [] });
    expect((await bank.sync()).json()).toEqual({ added: 0, matched: 0, replaced: 0, flagged: 0, warnings: [] });
    const coffees = (await ledgerOf(bank)).ledger.transactions.filter((row) => row.name === 'CORNER COFFEE');
    expect(coffees.map((row) => [row.status, row.amount, row.fromBank, row.bankBadge])).toEqual([['CLEARED', 4.5, true, undefined]]);

    // A row the bank never touched keeps PRODUCT.md's rule: only an unpaid one can go.
    const added = await bank.user.post(`/api/accounts/${bank.accountId}/ledger/add-transaction`, {
      date: '2026-11-20',
      name: 'Cash',
      type: 'D',
      amount: 20,
    });
    const cash = named(added.json<BankLedger>().ledger, 'Cash');
    expect(cash.fromBank).toBeUndefined();
    await bank.user.patch(`/api/accounts/${bank.accountId}/ledger/update-transaction`, { ...cash, status: 'CLEARED' });
    expect((await remove(cash)).statusCode).toBe(409);
  });

  it('refuses to undo a write to a row whose bank mark changed since, as for any change of the row', async () => {
    const dropped = await linkedChecking('bank-noah', 'pending-dropped');
    expect((await dropped.sync()).json()).toMatchObject({ added: 3 });
    const hold = named((await ledgerOf(dropped)).ledger, 'HOTEL HOLD');
    const cleared = await dropped.user.patch(`/api/accounts/${dropped.accountId}/ledger/update-transaction`, {
      ...hold,
      status: 'CLEARED',
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    // The bank stops listing the hold: its mark notes since when, and nothing else changes.
    simulator.step();
    const before = (await ledgerOf(dropped)).etag;
    expect((await dropped.sync()).json()).toEqual({ added: 0, matched: 0, replaced: 0, flagged: 0, warnings: [] });
    expect((await ledgerOf(dropped)).etag).not.toBe(before);
    const undone = await dropped.user.post('/api/undo', { token: cleared.headers[UNDO_HEADER] });
    expect(undone.statusCode, undone.body).toBe(409);
    expect(named((await ledgerOf(dropped)).ledger, 'HOTEL HOLD')).toMatchObject({ status: 'CLEARED', bankBadge: 'Pending at the bank' });
  });

  it('exports and restores the bank marks, closed keys and links: the restored ledger shows and counts as before, linked again, and a sync brings nothing back', async () => {
    const bank = await linkedChecking('bank-mia', 'pending-dropped');
    expect((await bank.sync()).json()).toMatchObject({ added: 3 });
    const synced = (await ledgerOf(bank)).ledger;
    expect(
      (await bank.user.delete(`/api/accounts/${bank.accountId}/ledger/transactions/${named(synced, 'FRESH MARKET').id}`)).statusCode,
    ).toBe(200);
    simulator.step();
    await bank.sync();
    advance(9 * 86_400);
    expect((await bank.sync()).json()).toMatchObject({ flagged: 1 });
    const before = (await ledgerOf(bank)).ledger;
    const shown = (ledger: BankLedger['ledger']) => ({
      ...ledger,
      // Every restored row has a new id: the rows are compared by all the rest.
      transactions: ledger.transactions.map((row) => ({ ...row, id: '' })),
    });

    const exported = await bank.user.get('/api/account/export');
    expect(exported.statusCode, exported.body).toBe(200);
    const document = exported.json<{
      accounts: {
        name: string;
        bankLinks?: { connectionId: string; remoteId: string }[];
        ledger: {
          transactions: { name: string; bank?: { account: string; transaction: string; state: string } }[];
          closedBankKeys?: { account: string; transaction: string; reason: string }[];
        } | null;
      }[];
    }>();
    const ledger = document.accounts.find((account) => account.name === 'Checking at the bank')?.ledger;
    expect(ledger?.transactions.find((row) => row.name === 'HOTEL HOLD')?.bank).toMatchObject({
      account: 'ACT-checking',
      transaction: 'TRN-pending-hotel',
      state: 'gone',
    });
    expect(ledger?.closedBankKeys).toEqual([{ account: 'ACT-checking', transaction: 'TRN-groceries', reason: 'deleted', pending: null }]);
    // The link, by the connection's and the bridge account's ids; nothing else of the connection (decision 0086).
    expect(document.accounts.filter((account) => account.bankLinks).map((account) => [account.name, account.bankLinks])).toEqual([
      ['Checking at the bank', [{ connectionId: bank.id, remoteId: 'ACT-checking' }]],
    ]);

    const restored = await bank.user.post('/api/account/import', document);
    expect(restored.statusCode, restored.body).toBe(200);
    const accounts = (await bank.user.get('/api/accounts')).json<{ accounts: { id: string; name: string }[] }>().accounts;
    const accountId = accounts.find((account) => account.name === 'Checking at the bank')?.id ?? '';
    expect(accountId).not.toBe(bank.accountId);
    const again = { ...bank, accountId };
    expect(shown((await ledgerOf(again)).ledger)).toEqual(shown(before));

    // The restored account is a new one, linked again as it was: the bank finds every row it knows.
    expect((await bank.connection())?.accounts.find((account) => account.id === 'ACT-checking')?.accountId).toBe(accountId);
    for (let run = 0; run < 2; run += 1) {
      expect((await bank.sync()).json()).toMatchObject({ added: 0, matched: 0, replaced: 0, flagged: 0 });
    }
    expect(shown((await ledgerOf(again)).ledger)).toEqual(shown(before));
  });

  it('asks for the notification checks once after a sync that changed a ledger, and not after one that changed nothing', async () => {
    const bank = await linkedChecking('bank-owen', 'bad-amount');
    const settings = await bank.user.put(NOTIFICATIONS_PATHS.settings, { hour: 0, belowZero: true, billsDue: true });
    expect(settings.statusCode, settings.body).toBe(200);
    const today = todayInZone(clock, settings.json<{ timeZone: string }>().timeZone);
    const channel = await bank.user.post(NOTIFICATIONS_PATHS.channels, { kind: 'WEBHOOK', target: receiver.url('/owen') });
    expect(channel.statusCode, channel.body).toBe(200);
    const addRow = (date: string, name: string, amount: number) =>
      bank.user.post(`/api/accounts/${bank.accountId}/ledger/add-transaction`, { date, name, type: 'D', amount });
    // $1,500 now and $1,490 due in three days: $10 left, until the bank's $27.25 of purchases come in.
    expect((await addRow(addDays(today, 3), 'Tuition', 1490)).statusCode).toBe(200);
    expect(await runNotifications(test.app)).toMatchObject({ planned: 0 });

    expect((await bank.sync()).json()).toMatchObject({ added: 2 });
    // Planned once more, once: the shortfall the sync made is recorded and sent, and the next round plans nothing.
    expect(await runNotifications(test.app)).toMatchObject({ planned: 1, sent: 1 });
    expect(await runNotifications(test.app)).toMatchObject({ planned: 0, sent: 0 });
    const told = receiver.received.filter((request) => request.path === '/owen');
    expect(told).toHaveLength(1);
    expect(told[0]?.body).toContain('goes below $0');

    // A sync that changed nothing asks for nothing: a bill due tomorrow, added by hand since, waits for tomorrow's plan.
    expect((await bank.sync()).json()).toMatchObject({ added: 0, matched: 0, replaced: 0, flagged: 0 });
    expect((await addRow(addDays(today, 1), 'Phone', 5)).statusCode).toBe(200);
    expect(await runNotifications(test.app)).toMatchObject({ planned: 0 });
    expect(receiver.received.filter((request) => request.path === '/owen')).toHaveLength(1);
  });

  it('needs attention, saying why, when the Access URL was sealed with another key; no 500, and connecting again works', async () => {
    const bank = await linkedChecking('bank-paul', 'twin-purchases');
    // What a server with another SECRETS_KEY sealed: this server's key cannot open it.
    const foreign = secretBox(Buffer.alloc(32, 9)).seal('https://user:secret@bridge.example/simplefin', 'bank-connection');
    await test.app.database.db
      .withoutPlugins()
      .updateTable('bank_connections')
      .set({ sealed_access_url: foreign })
      .where('id', '=', bank.id)
      .execute();
    const failed = await bank.sync();
    expect(failed.statusCode, failed.body).toBe(409);
    expect(failed.json()).toEqual({ error: { code: 'conflict', message: SECRET_LOST } });
    expect(await bank.rows()).toEqual([]);
    const shown = await bank.connection();
    expect(shown?.status).toEqual({ state: 'Needs attention', reason: SECRET_LOST, scheduled: false });
    expect(shown?.lastSync?.failure).toBe(SECRET_LOST);

    // As the reason says: connect with a new Setup Token, disconnect this one, link the account to the new one.
    simulator.scenario('twin-purchases');
    const again = await bank.user.post('/api/bank-connections', { setupToken: simulator.setupToken() });
    expect(again.statusCode, again.body).toBe(200);
    const fresh = again.json<Connection>();
    expect(fresh.status).toEqual({ state: 'Connected', reason: null, scheduled: true });
    expect((await bank.user.delete(`/api/bank-connections/${bank.id}`)).statusCode).toBe(200);
    const linked = await bank.user.put(`/api/bank-connections/${fresh.id}/accounts/ACT-checking`, { accountId: bank.accountId });
    expect(linked.statusCode, linked.body).toBe(200);
    advance(61);
    const synced = await bank.user.post(`/api/bank-connections/${fresh.id}/sync`);
    expect(synced.statusCode, synced.body).toBe(200);
    expect(synced.json()).toMatchObject({ added: 4 });
  });

  it(`keeps the latest ${KEPT_SYNC_LOG_ENTRIES} entries of a connection's sync log, the older pruned as a sync records its own`, async () => {
    const db = test.app.database.db.withoutPlugins();
    const log = () =>
      db
        .selectFrom('bank_sync_log')
        .select(['id', 'started_at'])
        .where('connection_id', '=', connection.id)
        .orderBy('started_at')
        .orderBy('id')
        .execute();
    const owner = await db
      .selectFrom('bank_connections')
      .select(['owner_iss', 'owner_sub'])
      .where('id', '=', connection.id)
      .executeTakeFirstOrThrow();
    // 60 syncs long past.
    await db
      .insertInto('bank_sync_log')
      .values(
        Array.from({ length: 60 }, (_, index) => ({
          id: `old-sync-${String(index).padStart(3, '0')}`,
          connection_id: connection.id,
          ...owner,
          started_at: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
          trigger: 'schedule',
          requests: 1,
          window_start: null,
          window_end: null,
          outcome: 'ok',
          added: 0,
          matched: 0,
          replaced: 0,
          flagged: 0,
          failure: null,
        })),
      )
      .execute();
    const before = await log();
    expect(before.length).toBeGreaterThan(KEPT_SYNC_LOG_ENTRIES);
    advance(61);
    const synced = await alice.post(`/api/bank-connections/${connection.id}/sync`);
    expect(synced.statusCode, synced.body).toBe(200);
    const after = await log();
    expect(after).toHaveLength(KEPT_SYNC_LOG_ENTRIES);
    expect(after.at(-1)?.started_at).toBe(clock.toISOString());
    expect(after.slice(0, -1)).toEqual(before.slice(before.length - (KEPT_SYNC_LOG_ENTRIES - 1)));
  });

  it('refuses hostile bodies and ids of the bank calls with a 400 per field (404 for an unknown id), changing nothing', async () => {
    // A second process without NOTIFY_ALLOW_PRIVATE_URLS, on the same database: the outbound guard as production has it.
    const guarded = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: test.database.url,
        OIDC_ISSUER: test.issuer.issuer,
        OIDC_CLIENT_ID: 'leftover-web',
        OIDC_AUDIENCE: test.issuer.audience,
        LOG_LEVEL: 'debug',
        SECRETS_KEY,
      }),
      { now: () => clock, notifications: { everyMs: 0 }, bank: { everyMs: 0 }, logger: true, logStream },
    );
    try {
      await guarded.ready();
      const before = await test.snapshot();
      const connect = (body: unknown) => alice.post('/api/bank-connections', body);
      const required = 'Setup Token is required: paste it from your SimpleFIN bridge.';
      expectBadRequest(await connect({ setupToken: 42 }), { setupToken: required });
      expectBadRequest(await connect({ setupToken: ['a'] }), { setupToken: required });
      expectBadRequest(await connect({ token: 'aHR0cHM6Ly9icmlkZ2UuZXhhbXBsZS9jbGFpbQ==' }), { setupToken: required });
      expectBadRequest(await connect({ setupToken: 'A'.repeat(5000) }), { setupToken: 'Setup Token must be at most 4096 characters.' });
      expectBadRequest(await connect(['setupToken']), { body: 'The request body must be a JSON object.' });
      // Past the 64 KB every JSON call takes: 413 before the body is read, nothing claimed.
      const tooLarge = await connect({ setupToken: 'A'.repeat(BODY_LIMIT_BYTES) });
      expect(tooLarge.statusCode, tooLarge.body).toBe(413);
      expect(tooLarge.json()).toMatchObject({ error: { code: 'payload_too_large' } });
      const base64 = (text: string) => Buffer.from(text).toString('base64');
      for (const setupToken of [
        'not base64 at all!',
        base64('just some words'),
        base64('ftp://bridge.example/claim'),
        base64('javascript:alert(1)'),
        base64('https://user:pw@bridge.example/claim'),
      ]) {
        expectBadRequest(await connect({ setupToken }), { setupToken: NOT_A_TOKEN }, NOT_A_TOKEN);
      }
      const token = await test.issuer.token('bank-alice');
      const guardedConnect = async (setupToken: string) => {
        const answer = await guarded.inject({
          method: 'POST',
          url: '/api/bank-connections',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ setupToken }),
        });
        answers.push(answer.body);
        return answer;
      };
      // The simulator's token names plain http on loopback; these name private, loopback and metadata addresses over https.
      expectBadRequest(await guardedConnect(simulator.setupToken()), { setupToken: INSECURE_ADDRESS }, INSECURE_ADDRESS);
      for (const claimUrl of [
        'https://10.0.0.1/simplefin/claim/x',
        'https://127.0.0.1:9/claim',
        'https://169.254.169.254/latest/meta-data',
      ]) {
        expectBadRequest(await guardedConnect(base64(claimUrl)), { setupToken: REFUSED_ADDRESS }, REFUSED_ADDRESS);
      }

      const link = (body: unknown, remoteId = 'ACT-checking') =>
        alice.put(`/api/bank-connections/${connection.id}/accounts/${remoteId}`, body);
      const account = 'Account must be the id of one of your accounts, or null to unlink.';
      const linkBody =
        'The body must be { "accountId": "<id>" } to link, { "newAccount": { "name", "kind" } } to link a new account, or { "accountId": null } to unlink.';
      for (const accountId of [42, true, { id: 'x' }, 'x'.repeat(10_000), '../accounts'])
        expectBadRequest(await link({ accountId }), { accountId: account });
      expectBadRequest(await link({ linkTo: 'anything' }), { accountId: linkBody });
      expectBadRequest(await link({ accountId: null, newAccount: { name: 'Both', kind: 'CHECKING' } }), { accountId: linkBody });
      const badAccount = await link({ newAccount: { name: 'x'.repeat(10_000), kind: 'BOAT' } });
      expect(badAccount.statusCode, badAccount.body).toBe(400);
      expect(Object.keys(badAccount.json<{ error: { fields: Record<string, string> } }>().error.fields).sort()).toEqual([
        'newAccount.kind',
        'newAccount.name',
      ]);
      expectBadRequest(await link({ accountId: null }, 'bad%20remote'), { remoteId: 'Remote account is not valid.' });
      // A bridge's account id may be 255 characters (the client reads up to that): such a link reaches its route.
      const longRemote = await link({ accountId: null }, 'r'.repeat(255));
      expect(longRemote.statusCode, longRemote.body).toBe(404);
      expect(longRemote.json<{ error: { message: string } }>().error.message).toBe('No such account at this bank connection.');
      expectBadRequest(await link({ accountId: null }, 'r'.repeat(256)), { remoteId: 'Remote account is not valid.' });
      // Past the router's 512-character parameter limit the address is refused before any route, naming it.
      expectBadRequest(
        await link({ accountId: null }, 'r'.repeat(513)),
        { url: 'The address contains a malformed %-escape or character.' },
        'The address is not valid.',
      );

      for (const id of ['x'.repeat(65), 'bad.id', '%27%20OR%201%3D1']) {
        expectBadRequest(await alice.put(`/api/bank-connections/${id}/accounts/ACT-checking`, { accountId: null }), {
          id: 'Id is not valid.',
        });
        expectBadRequest(await alice.post(`/api/bank-connections/${id}/sync`), { id: 'Id is not valid.' });
        expectBadRequest(await alice.delete(`/api/bank-connections/${id}`), { id: 'Id is not valid.' });
      }
      const unknown = '00000000-0000-7000-8000-000000000000';
      expectNotFound(
        await alice.put(`/api/bank-connections/${unknown}/accounts/ACT-checking`, { accountId: null }),
        'No such bank connection.',
      );
      expectNotFound(await alice.post(`/api/bank-connections/${unknown}/sync`), 'No such bank connection.');
      expectNotFound(await alice.delete(`/api/bank-connections/${unknown}`), 'No such bank connection.');
      expect(await test.snapshot()).toBe(before);
    } finally {
      await guarded.close();
    }
  });

  it('needs attention after a 402 with the reason, stops the schedule, and writes nothing to the ledger', async () => {
    const bank = await linkedChecking('bank-grace', 'pending-posted-new-id');
    const before = await bank.rows();
    simulator.fail({ fault: { kind: 'status', status: 402 } });
    try {
      const failed = await bank.sync();
      expect(failed.statusCode).toBe(409);
      expect(await bank.rows()).toEqual(before);
      const shown = await bank.connection();
      expect(shown?.status.state).toBe('Needs attention');
      expect(shown?.status.scheduled).toBe(false);
      expect(shown?.lastSync?.failure).toEqual(expect.any(String));
    } finally {
      simulator.clearFault();
    }
  });

  it('skips only the account the bridge says failed (act.failed), and goes on after an HTML page with the schedule on', async () => {
    const bank = await linkedChecking('bank-heidi', 'default');
    simulator.fail({ fault: { kind: 'html-502' }, times: 1 });
    expect((await bank.sync()).statusCode).toBe(409);
    expect((await bank.connection())?.status).toMatchObject({ state: 'Needs attention', scheduled: true });
    simulator.fail({
      fault: { kind: 'errlist', errors: [{ code: 'act.failed', msg: 'Checking failed', account_id: 'ACT-checking' }] },
      times: 1,
    });
    const skipped = await bank.sync();
    expect(skipped.statusCode, skipped.body).toBe(200);
    expect(skipped.json<{ added: number; warnings: string[] }>().added).toBe(0);
    const again = await bank.sync();
    expect(again.json<{ added: number }>().added).toBeGreaterThan(0);
    expect((await bank.connection())?.status).toEqual({ state: 'Connected', reason: null, scheduled: true });
  });

  it('makes at most 24 requests to the bridge a day per connection, whatever is pressed', async () => {
    const erin = person('bank-erin');
    simulator.scenario('twin-purchases');
    simulator.clearRequests();
    const made = (await erin.post('/api/bank-connections', { setupToken: simulator.setupToken() })).json<Connection>();
    let refused = 0;
    for (let press = 0; press < 30; press += 1) {
      advance(61);
      const answer = await erin.post(`/api/bank-connections/${made.id}/sync`);
      if (answer.statusCode === 429) {
        expect(answer.body).toContain(SYNC_QUOTA);
        refused += 1;
      } else expect(answer.statusCode, answer.body).toBe(200);
    }
    expect(simulator.accountRequests().length).toBeLessThanOrEqual(24);
    expect(refused).toBeGreaterThan(0);
  });

  it(`makes at most 24 requests a connection in a simulated day of scheduled ticks${kind === 'postgres' ? ' on two apps on one PostgreSQL' : ''} and 10 Sync now presses, each of at most 90 days`, async () => {
    const frank = person('bank-frank');
    simulator.scenario('default');
    simulator.clearRequests();
    const made = (await frank.post('/api/bank-connections', { setupToken: simulator.setupToken() })).json<Connection>();
    const user = simulator.accountRequests().at(-1)?.user;
    expect(user).toEqual(expect.any(String));
    const linked = await frank.put(`/api/bank-connections/${made.id}/accounts/ACT-checking`, {
      newAccount: { name: 'Frank Checking', kind: 'CHECKING' },
    });
    const accountId = linked.json<Connection>().accounts.find((account) => account.id === 'ACT-checking')?.accountId;
    await frank.post(`/api/accounts/${accountId}/ledger/create-ledger`, {
      ledger: { startDate: '2026-11-01', endDate: '2027-01-31', currentBalance: 1500 },
    });
    // From the next UTC midnight: the quota is the UTC day's.
    const midnight = Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth(), clock.getUTCDate() + 1);
    advance((midnight - clock.getTime()) / 1000 + 1);
    simulator.clearRequests();
    // A second app in this process on the same PostgreSQL, electing through the same rows, their
    // ticks at the same moment; tests/reliability/bank-schedule-two-processes.test.ts runs two
    // built server processes (a simulated day is this test's to run, not theirs).
    let second: FastifyInstance | undefined;
    if (kind === 'postgres') {
      const config = loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL: test.database.url,
        OIDC_ISSUER: test.issuer.issuer,
        OIDC_CLIENT_ID: 'leftover-web',
        OIDC_AUDIENCE: test.issuer.audience,
        LOG_LEVEL: 'debug',
        NOTIFY_ALLOW_PRIVATE_URLS: 'true',
        SECRETS_KEY,
      });
      // Its log lines join the password grep at the end.
      second = await buildApp(config, { now: () => clock, notifications: { everyMs: 0 }, bank: { everyMs: 0 }, logger: true, logStream });
      await second.ready();
    }
    const franks = () => simulator.accountRequests().filter((request) => request.user === user);
    let scheduled = 0;
    try {
      for (let minute = 0; minute < 24 * 60 - 10; minute += 5) {
        const before = franks().length;
        await Promise.all([runBankSchedule(test.app), ...(second ? [runBankSchedule(second)] : [])]);
        const ticked = franks().length - before;
        expect(ticked).toBeLessThanOrEqual(1);
        scheduled += ticked;
        if (minute % 140 === 0 && minute < 1400) {
          const pressed = await frank.post(`/api/bank-connections/${made.id}/sync`);
          expect([200, 429]).toContain(pressed.statusCode);
        }
        advance(5 * 60);
      }
    } finally {
      await second?.close();
    }
    expect(scheduled).toBeGreaterThanOrEqual(1);
    expect(scheduled).toBeLessThanOrEqual(4);
    expect(franks().length).toBeLessThanOrEqual(24);
    for (const request of franks()) expect(request.windowDays ?? 0).toBeLessThanOrEqual(90);
  });

  it('shows a link to an account deleted since as unlinked', async () => {
    const bank = await linkedChecking('bank-ken', 'twin-purchases');
    const linkedTo = (await bank.connection())?.accounts.find((account) => account.id === 'ACT-checking')?.accountId;
    // A user's only account cannot go: a second one first, made primary.
    const spare = (await bank.user.post('/api/accounts', { name: 'Spare', kind: 'SAVINGS' })).json<{ id: string }>();
    await bank.user.patch(`/api/accounts/${spare.id}`, { primary: true });
    const removed = await bank.user.request('DELETE', `/api/accounts/${linkedTo}`, { confirm: 'Checking at the bank' });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await bank.connection())?.accounts.find((account) => account.id === 'ACT-checking')?.accountId).toBeNull();
    const synced = await bank.sync();
    expect(synced.statusCode, synced.body).toBe(200);
    expect(synced.json<{ warnings: string[] }>().warnings).toEqual([expect.stringContaining('is gone or has no ledger')]);
  });

  it('deletes every bank connection of a user who deletes all their data', async () => {
    const dave = person('bank-dave');
    expect((await dave.get('/api/bank-connections')).json<{ connections: Connection[] }>().connections).toHaveLength(1);
    expect((await dave.request('DELETE', '/api/account', { confirm: 'DELETE' })).statusCode).toBe(200);
    expect((await dave.get('/api/bank-connections')).json()).toEqual({ connections: [] });
  });

  it('disconnects at once, and never says the Access URL password in a log line, an answer, an export or the database', async () => {
    const gone = await alice.delete(`/api/bank-connections/${connection.id}`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ connections: [] });
    // Every user's export and every ledger's CSV now, beside every answer kept on the way.
    for (const subject of subjects) {
      const user = kept(test.as(subject));
      expect((await user.get(YOUR_DATA_PATHS.export)).statusCode).toBe(200);
      const accounts = (await user.get('/api/accounts')).json<{ accounts: { id: string }[] }>().accounts;
      for (const account of accounts) await user.get(`/api/accounts/${account.id}/ledger/export.csv`);
    }
    const passwords = simulator.issuedPasswords();
    expect(passwords.length).toBeGreaterThan(0);
    // The logger's output is there to read: every call's line, at debug.
    expect(logs.filter((line) => line.includes('/api/bank-connections')).length).toBeGreaterThan(100);
    const everything = [...answers, ...logs, await test.snapshot()].join('\n');
    const occurrences = passwords.reduce((count, password) => count + everything.split(password).length - 1, 0);
    expect(occurrences).toBe(0);
  });
});
