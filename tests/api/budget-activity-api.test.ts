/**
 * Issue 38 points 5 and 7 on the server (decision 0094), on both databases with one app each: who
 * did what (GET /api/budgets/{id}/activity, newest first, paged by `before`), undo refusing another
 * member's change with their name, and a database made before migration 0026 upgrading. Each test
 * signs in its own people, so the tests share the app but not each other's rows.
 */
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNDO_HEADER } from '../../src/contract/common.js';
import { MAX_ACTIVITY_ENTRIES } from '../../src/domain/activity.js';
import { recordActivity } from '../../src/server/activity/activity-store.js';
import { migrations } from '../../src/server/db/migrations.js';
import { VALID_EXPENSE, VALID_LEDGER } from '../support/api-calls.js';
import { expectBadRequest } from '../support/api-expectations.js';
import { migratorOf, openRawDatabase } from '../support/raw-database.js';
import { createTestDatabase, databaseKinds, type DatabaseKind } from '../support/test-databases.js';
import { startSimplefinSimulator, type SimplefinSimulator } from '../support/simplefin-simulator.js';
import { recipientsOf, type SmtpReceiver, startSmtpReceiver } from '../support/notify-receivers.js';
import { startTestApp, TEST_NOW, type TestApp } from '../support/test-app.js';
import { memberCalls, person, type Person } from '../support/budget-members.js';
import { runNotifications } from '../../src/server/app.js';

interface Row {
  readonly id: string;
  readonly date: string;
  readonly name: string;
  readonly type: string;
  readonly amount: number;
  readonly balance: number;
  readonly status: string;
}
interface LedgerInfo {
  readonly ledger: { readonly transactions: readonly Row[] };
}
interface ActivityEntry {
  readonly id: number;
  readonly at: string;
  readonly who: string;
  readonly what: string;
  readonly text: string;
}
interface Activity {
  readonly entries: readonly ActivityEntry[];
  readonly next: number | null;
}

/** A new person whose tokens carry `name`, or no name at all. */
function named(label: string, name?: string): Person {
  return person(label, name === undefined ? {} : { name });
}

const PUBLIC_URL = 'https://leftover.example.com';
/** Sat, Nov 21, 2026, 16:00 on a UTC server: past the default hour (08:00) for a member in UTC. */
const NOW = new Date('2026-11-21T16:00:00Z');
const STATEMENT = 'Date,Description,Amount\n2026-11-20,GROCER,-40.00\n2026-11-21,FUEL,-30.00\n2026-11-22,REFUND,12.50\n';

describe.each(databaseKinds())('who did what in a budget on %s', (kind) => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(() => test?.close());

  const { call, ok, refused } = memberCalls(() => test);

  function undoOf(response: LightMyRequestResponse): string {
    const token = response.headers[UNDO_HEADER];
    if (typeof token !== 'string') throw new Error(`no undo token on ${response.body.slice(0, 200)}`);
    return token;
  }

  /** A's "Household" with each of `members` in it at their role. */
  async function household(owner: Person, members: readonly (readonly [Person, string])[]): Promise<string> {
    const id = (await ok<{ id: string }>(call(owner, 'POST', '/api/budgets', { body: { name: 'Household' } }))).id;
    for (const [member, role] of members) {
      const { token } = await ok<{ token: string }>(call(owner, 'POST', `/api/budgets/${id}/invitations`, { body: { role } }));
      await ok(call(member, 'POST', '/api/invitations/accept', { body: { token } }));
    }
    return id;
  }

  const activityOf = (who: Person, budget: string, query = '') => ok<Activity>(call(who, 'GET', `/api/budgets/${budget}/activity${query}`));
  const texts = (activity: Activity) => activity.entries.map((entry) => entry.text);

  it('records who paid, imported and undid, newest first, paged by before, for any member and no one else', async () => {
    const alex = named('alex', 'Alex');
    const sam = named('sam', 'Sam');
    const vic = named('vic');
    const stranger = named('eve', 'Eve');
    const id = await household(alex, [
      [sam, 'EDITOR'],
      [vic, 'VIEWER'],
    ]);
    await ok(call(alex, 'POST', '/api/expenses/add-expense', { body: VALID_EXPENSE, budget: id }));
    const created = await ok<LedgerInfo>(call(alex, 'POST', '/api/ledger/create-ledger', { body: VALID_LEDGER, budget: id }));
    const rent = created.ledger.transactions.find((row) => row.name === 'Rent');
    if (!rent) throw new Error('no Rent row');
    await ok(call(alex, 'PATCH', '/api/ledger/update-transaction', { body: { ...rent, status: 'PAID' }, budget: id }));
    const decisions = [0, 1, 2].map((index) => ({ index, action: 'new' }));
    await ok(
      call(sam, 'POST', '/api/ledger/statements/import', { body: { fileName: 'bank.csv', content: STATEMENT, decisions }, budget: id }),
    );
    const added = await call(alex, 'POST', '/api/ledger/add-transaction', {
      body: { date: '2026-11-25', name: 'Coffee', type: 'D', amount: 4.5 },
      budget: id,
    });
    await ok(Promise.resolve(added));
    await ok(call(alex, 'POST', '/api/undo', { body: { token: undoOf(added) }, budget: id }));

    const all = await activityOf(vic, id);
    expect(texts(all)).toEqual([
      'Alex undid added Coffee',
      'Alex added Coffee',
      'Sam imported 3 rows into Checking',
      'Alex paid Rent',
      'Alex made a new ledger for Checking',
      'Alex added the expense Rent',
      'A member joined as a viewer',
      'Alex invited someone as a viewer',
      'Sam joined as an editor',
      'Alex invited someone as an editor',
    ]);
    expect(all.next).toBeNull();
    const [newest] = all.entries;
    expect(newest).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      who: 'Alex',
      what: 'undid added Coffee',
      text: 'Alex undid added Coffee',
    });
    // Never a subject, in any entry.
    expect(JSON.stringify(all)).not.toContain(alex.subject);
    expect(JSON.stringify(all)).not.toContain(sam.subject);

    // Pages of 4 then 6, each starting where the one before ended.
    const first = await activityOf(sam, id, '?limit=4');
    expect(texts(first)).toEqual(texts(all).slice(0, 4));
    expect(first.next).toBe(first.entries.at(-1)?.id);
    const second = await activityOf(sam, id, `?limit=6&before=${first.next}`);
    expect(texts(second)).toEqual(texts(all).slice(4));
    expect(second.next).toBeNull();

    expectBadRequest(await call(vic, 'GET', `/api/budgets/${id}/activity?limit=0&before=x`), {
      limit: 'limit must be a whole number from 1 to 100.',
      before: 'before must be a whole number from 1 to 999999999.',
    });
    expectBadRequest(await call(vic, 'GET', `/api/budgets/${id}/activity?limit=101`), {
      limit: 'limit must be a whole number from 1 to 100.',
    });
    refused(await call(stranger, 'GET', `/api/budgets/${id}/activity`), 404, 'No such budget.');
    // A personal budget records its own, read through its id; its SPEC answers are as they were.
    const [personal] = (await ok<{ budgets: { id: string }[] }>(call(alex, 'GET', '/api/budgets'))).budgets;
    expect(texts(await activityOf(alex, personal?.id ?? ''))).toEqual([]);
    refused(await call(sam, 'GET', `/api/budgets/${personal?.id ?? ''}/activity`), 404, 'No such budget.');
  });

  it("records who joined, left, was removed or given another role, and the budget's new name", async () => {
    const alex = named('alex', 'Alex');
    const sam = named('sam', 'Sam');
    const vic = named('vic', 'Vic');
    const id = await household(alex, [
      [sam, 'EDITOR'],
      [vic, 'VIEWER'],
    ]);
    await ok(call(alex, 'PATCH', `/api/budgets/${id}`, { body: { name: 'Home' } }));
    const members = (await ok<{ members: { id: string; name: string | null }[] }>(call(alex, 'GET', `/api/budgets/${id}/members`))).members;
    const vicId = members.find((member) => member.name === 'Vic')?.id ?? '';
    await ok(call(alex, 'PATCH', `/api/budgets/${id}/members/${vicId}`, { body: { role: 'EDITOR' } }));
    await ok(call(alex, 'DELETE', `/api/budgets/${id}/members/${vicId}`));
    await ok(call(sam, 'POST', `/api/budgets/${id}/leave`));
    expect(texts(await activityOf(alex, id))).toEqual([
      'Sam left the budget',
      'Alex removed Vic',
      'Alex made Vic an editor',
      'Alex renamed the budget to Home',
      'Vic joined as a viewer',
      'Alex invited someone as a viewer',
      'Sam joined as an editor',
      'Alex invited someone as an editor',
    ]);
  });

  it('keeps a budget to its newest 500 entries, dropping the oldest as each new one is recorded', async () => {
    const owner = { issuer: 'urn:leftover:budget', subject: crypto.randomUUID() };
    const db = test.app.database.db;
    await db.transaction().execute(async (trx) => {
      for (let index = 1; index <= MAX_ACTIVITY_ENTRIES + 3; index += 1) {
        await recordActivity(trx, owner, undefined, `change ${index}`, new Date(TEST_NOW.getTime() + index));
      }
    });
    const kept = await db
      .selectFrom('activity_entries')
      .select(['seq', 'what'])
      .where('owner_iss', '=', owner.issuer)
      .where('owner_sub', '=', owner.subject)
      .orderBy('seq')
      .execute();
    expect(kept).toHaveLength(MAX_ACTIVITY_ENTRIES);
    expect(kept[0]).toEqual({ seq: 4, what: 'change 4' });
    expect(kept.at(-1)).toEqual({ seq: MAX_ACTIVITY_ENTRIES + 3, what: `change ${MAX_ACTIVITY_ENTRIES + 3}` });
  });

  it("answers a viewer's GET /api/accounts in a budget with no account without writing; an editor's makes Checking", async () => {
    const alex = named('alex', 'Alex');
    const vic = named('vic', 'Vic');
    const sam = named('sam', 'Sam');
    const id = await household(alex, [
      [vic, 'VIEWER'],
      [sam, 'EDITOR'],
    ]);
    const before = await test.snapshot();
    expect(await ok(call(vic, 'GET', '/api/accounts', { budget: id }))).toEqual({ accounts: [] });
    expect(await test.snapshot()).toBe(before);
    const made = await ok<{ accounts: { name: string }[] }>(call(sam, 'GET', '/api/accounts', { budget: id }));
    expect(made.accounts.map((account) => account.name)).toEqual(['Checking']);
    expect(await ok(call(vic, 'GET', '/api/accounts', { budget: id }))).toEqual(made);
  });

  it("refuses to undo another member's change with their name, changing nothing; the maker undoes it", async () => {
    const alex = named('alex', 'Alex');
    const sam = named('sam', 'Sam');
    const id = await household(alex, [[sam, 'EDITOR']]);
    await ok(call(alex, 'POST', '/api/ledger/create-ledger', { body: VALID_LEDGER, budget: id }));
    const added = await call(sam, 'POST', '/api/ledger/add-transaction', {
      body: { date: '2026-11-25', name: 'Lunch', type: 'D', amount: 12 },
      budget: id,
    });
    expect(added.statusCode, added.body).toBe(200);
    const token = undoOf(added);
    const before = await test.snapshot();
    refused(await call(alex, 'POST', '/api/undo', { body: { token }, budget: id }), 403, 'Only Sam can undo this.');
    expect(await test.snapshot()).toBe(before);
    const undone = await ok<LedgerInfo>(call(sam, 'POST', '/api/undo', { body: { token }, budget: id }));
    expect(undone.ledger.transactions.map((row) => row.name)).not.toContain('Lunch');
    expect(texts(await activityOf(alex, id)).slice(0, 2)).toEqual(['Sam undid added Lunch', 'Sam added Lunch']);

    // An entry from before migration 0026 names no maker: it is the owner's, so an editor may not undo it.
    const again = await call(alex, 'POST', '/api/ledger/add-transaction', {
      body: { date: '2026-11-26', name: 'Tea', type: 'D', amount: 3 },
      budget: id,
    });
    const oldToken = undoOf(again);
    const raw = openRawDatabase(kind, test.database.url);
    try {
      const hash = crypto.hash('sha256', oldToken, 'hex');
      await sql`update undo_entries set actor_iss = null, actor_sub = null, actor_name = null, what = null where token_hash = ${hash}`.execute(
        raw,
      );
    } finally {
      await raw.destroy();
    }
    refused(
      await call(sam, 'POST', '/api/undo', { body: { token: oldToken }, budget: id }),
      403,
      'Only an owner of this budget can undo this.',
    );
    await ok(call(alex, 'POST', '/api/undo', { body: { token: oldToken }, budget: id }));
    expect(texts(await activityOf(alex, id))[0]).toBe('Alex undid a change');
  });
});

describe.each(databaseKinds())('leaving, bank connections and notifications per member on %s', (kind) => {
  let test: TestApp;

  let simulator: SimplefinSimulator;
  let smtp: SmtpReceiver;

  beforeAll(async () => {
    simulator = await startSimplefinSimulator({ now: NOW });
    smtp = await startSmtpReceiver();
    test = await startTestApp(kind, {
      now: () => NOW,
      env: {
        TZ: 'UTC',
        NOTIFY_ALLOW_PRIVATE_URLS: 'true',
        SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
        PUBLIC_URL,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Leftover <leftover@example.com>',
      },
    });
  });
  afterAll(async () => {
    await test?.close();
    await simulator?.close();
    await smtp?.close();
  });

  const { call, ok, refused } = memberCalls(() => test);

  async function budgetNamed(owner: Person, name: string, members: readonly (readonly [Person, string])[] = []): Promise<string> {
    const id = (await ok<{ id: string }>(call(owner, 'POST', '/api/budgets', { body: { name } }))).id;
    for (const [member, role] of members) {
      const { token } = await ok<{ token: string }>(call(owner, 'POST', `/api/budgets/${id}/invitations`, { body: { role } }));
      await ok(call(member, 'POST', '/api/invitations/accept', { body: { token } }));
    }
    return id;
  }

  const activityOf = (who: Person, budget: string) => ok<Activity>(call(who, 'GET', `/api/budgets/${budget}/activity`));
  const texts = (activity: Activity) => activity.entries.map((entry) => entry.text);

  const budgetsOf = async (who: Person) =>
    (
      await ok<{ budgets: { id: string; name: string; role: string; personal: boolean; notify: boolean }[] }>(
        call(who, 'GET', '/api/budgets'),
      )
    ).budgets;
  const EVERYTHING = { body: { confirm: 'DELETE' } };

  /** An email channel of `who`'s, confirmed through the link mailed to it. */
  async function confirmedEmail(who: Person, address: string): Promise<void> {
    await ok(call(who, 'POST', '/api/notifications/channels', { body: { kind: 'EMAIL', target: address } }));
    const [mail] = await smtp.waitFor(1, address);
    const link = new RegExp(`${PUBLIC_URL}(/notify/confirm/[A-Za-z0-9_-]{43})`).exec(mail?.text ?? '')?.[1];
    if (!link) throw new Error(`no confirm link in ${mail?.text}`);
    expect((await test.app.inject({ method: 'POST', url: link })).statusCode).toBe(200);
  }

  it("plans a shared budget's messages for each member by their own channels and rules", async () => {
    const alex = named('alex', 'Alex');
    const sam = named('sam', 'Sam');
    const vic = named('vic', 'Vic');
    const eve = named('eve', 'Eve');
    const id = await budgetNamed(alex, 'Household', [
      [sam, 'EDITOR'],
      [vic, 'VIEWER'],
    ]);
    // Wed, Nov 25: the car loan takes Household's Checking from $100 to -$210.44.
    await ok(
      call(alex, 'POST', '/api/expenses/add-expense', {
        body: { ...VALID_EXPENSE, name: 'Car loan', amount: 310.44, day: 25 },
        budget: id,
      }),
    );
    await ok(
      call(alex, 'POST', '/api/ledger/create-ledger', {
        body: { ledger: { startDate: '2026-11-01', endDate: '2026-11-30', currentBalance: 100 } },
        budget: id,
      }),
    );
    const addresses = {
      alex: 'alex@household.example',
      sam: 'sam@household.example',
      vic: 'vic@household.example',
      eve: 'eve@elsewhere.example',
    };
    await confirmedEmail(alex, addresses.alex);
    await confirmedEmail(sam, addresses.sam);
    await confirmedEmail(vic, addresses.vic);
    await confirmedEmail(eve, addresses.eve);
    // Sam's own rules: no shortfalls, whatever budget.
    await ok(call(sam, 'PUT', '/api/notifications', { body: { hour: 8, belowZero: false, billsDue: true } }));

    await runNotifications(test.app);
    for (const member of [addresses.alex, addresses.vic]) {
      const [, heads] = await smtp.waitFor(2, member);
      expect(heads?.subject).toBe('Checking (Household) goes below $0 on Wed, Nov 25, 2026');
    }
    const mailsTo = (address: string) => smtp.messages.filter((mail) => recipientsOf(mail).includes(address)).length;
    // Only the confirmations: Sam's rules say no, and Eve is in no budget with a shortfall.
    expect(mailsTo(addresses.sam)).toBe(1);
    expect(mailsTo(addresses.eve)).toBe(1);
  });

  it('tells a member nothing of a budget they turned off, and the other members as before (decision 0099)', async () => {
    const alex = named('alex', 'Alex');
    const sam = named('sam', 'Sam');
    const vic = named('vic', 'Vic');
    const id = await budgetNamed(alex, 'Household', [
      [sam, 'EDITOR'],
      [vic, 'VIEWER'],
    ]);
    // Wed, Nov 25: Household's Checking goes from $100 to -$210.44; so does Vic's own Checking.
    const shortfall = async (budget?: string) => {
      const scope = budget === undefined ? {} : { budget };
      await ok(call(vic, 'GET', '/api/accounts', scope));
      await ok(
        call(budget === undefined ? vic : alex, 'POST', '/api/expenses/add-expense', {
          body: { ...VALID_EXPENSE, name: 'Car loan', amount: 310.44, day: 25 },
          ...scope,
        }),
      );
      await ok(
        call(budget === undefined ? vic : alex, 'POST', '/api/ledger/create-ledger', {
          body: { ledger: { startDate: '2026-11-01', endDate: '2026-11-30', currentBalance: 100 } },
          ...scope,
        }),
      );
    };
    await shortfall(id);
    await shortfall();
    const addresses = { alex: 'alex@quiet.example', sam: 'sam@quiet.example', vic: 'vic@quiet.example' };
    await confirmedEmail(alex, addresses.alex);
    await confirmedEmail(sam, addresses.sam);
    await confirmedEmail(vic, addresses.vic);

    // Each member's own row, a viewer's too; the others' choices and answers stay as they were.
    const quiet = await ok<{ budgets: { id: string; personal: boolean; notify: boolean }[] }>(
      call(sam, 'PUT', `/api/budgets/${id}/notifications`, { body: { notify: false } }),
    );
    expect(quiet.budgets.map((budget) => [budget.personal, budget.notify])).toEqual([
      [true, true],
      [false, false],
    ]);
    const vicPersonal = (await budgetsOf(vic)).find((budget) => budget.personal)?.id ?? '';
    await ok(call(vic, 'PUT', `/api/budgets/${vicPersonal}/notifications`, { body: { notify: false } }));
    expect((await budgetsOf(alex)).map((budget) => budget.notify)).toEqual([true, true]);
    expectBadRequest(await call(sam, 'PUT', `/api/budgets/${id}/notifications`, { body: { notify: 'no' } }), {
      notify: 'Notify must be true or false.',
    });
    refused(await call(named('eve'), 'PUT', `/api/budgets/${id}/notifications`, { body: { notify: false } }), 404, 'No such budget.');

    await runNotifications(test.app);
    const [, alexHeads] = await smtp.waitFor(2, addresses.alex);
    expect(alexHeads?.subject).toBe('Checking (Household) goes below $0 on Wed, Nov 25, 2026');
    // Vic turned their personal budget off and kept Household's.
    const [, vicHeads] = await smtp.waitFor(2, addresses.vic);
    expect(vicHeads?.subject).toBe('Checking (Household) goes below $0 on Wed, Nov 25, 2026');
    const mailsTo = (address: string) => smtp.messages.filter((mail) => recipientsOf(mail).includes(address)).length;
    // Sam turned Household off: only the confirmation.
    expect(mailsTo(addresses.sam)).toBe(1);
    expect(mailsTo(addresses.vic)).toBe(2);
  });
  const NOT_YOUR_CONNECTION =
    'Only the member who connected this bank can link, sync or disconnect it: it uses their bank login. Connect your own bank to sync yours.';

  it("lets only the member who connected a bank link, sync or disconnect it; one from before budgets is the owners'", async () => {
    const alex = named('alex', 'Alex');
    const sam = named('sam', 'Sam');
    const id = await budgetNamed(alex, 'Household', [[sam, 'EDITOR']]);
    simulator.scenario('default');
    const connection = await ok<{ id: string }>(
      call(sam, 'POST', '/api/bank-connections', { body: { setupToken: simulator.setupToken() }, budget: id }),
    );
    const remote = 'ACT-checking';
    const before = await test.snapshot();
    refused(await call(alex, 'POST', `/api/bank-connections/${connection.id}/sync`, { budget: id }), 403, NOT_YOUR_CONNECTION);
    refused(
      await call(alex, 'PUT', `/api/bank-connections/${connection.id}/accounts/${remote}`, { body: { accountId: null }, budget: id }),
      403,
      NOT_YOUR_CONNECTION,
    );
    refused(await call(alex, 'DELETE', `/api/bank-connections/${connection.id}`, { budget: id }), 403, NOT_YOUR_CONNECTION);
    expect(await test.snapshot()).toBe(before);
    // Every member still sees it, and each answer says whose it is to use (decision 0100).
    const listed = (who: Person) =>
      ok<{ connections: { id: string; yours: boolean; madeBy: string | null }[] }>(
        call(who, 'GET', '/api/bank-connections', { budget: id }),
      );
    expect((await listed(alex)).connections.map((each) => each.yours)).toEqual([false]);
    expect((await listed(sam)).connections.map((each) => each.yours)).toEqual([true]);
    // And who connected it, by the name the members list shows (decision 0106).
    expect((await listed(alex)).connections.map((each) => each.madeBy)).toEqual(['Sam']);
    expect((await listed(sam)).connections.map((each) => each.madeBy)).toEqual(['Sam']);
    // Its maker links it to Household's Checking and syncs: the activity says who brought the rows.
    const created = await call(sam, 'POST', '/api/ledger/create-ledger', {
      body: { ledger: { startDate: '2026-10-01', endDate: '2026-12-31', currentBalance: 100 } },
      budget: id,
    });
    expect(created.statusCode, created.body).toBe(200);
    const { accounts } = await ok<{ accounts: { id: string }[] }>(call(sam, 'GET', '/api/accounts', { budget: id }));
    await ok(
      call(sam, 'PUT', `/api/bank-connections/${connection.id}/accounts/${remote}`, { body: { accountId: accounts[0]?.id }, budget: id }),
    );
    await ok(call(sam, 'POST', `/api/bank-connections/${connection.id}/sync`, { budget: id }));
    const activity = await ok<{ entries: { text: string }[] }>(call(alex, 'GET', `/api/budgets/${id}/activity?limit=1`));
    expect(activity.entries[0]?.text).toMatch(/^Sam brought \d+ rows? from the bank$/);

    // Made before budgets (no maker): its owners' only.
    await test.app.database.db
      .updateTable('bank_connections')
      .set({ made_by_iss: null, made_by_sub: null })
      .where('id', '=', connection.id)
      .execute();
    refused(await call(sam, 'DELETE', `/api/bank-connections/${connection.id}`, { budget: id }), 403, NOT_YOUR_CONNECTION);
    expect((await listed(alex)).connections.map((each) => [each.yours, each.madeBy])).toEqual([[true, null]]);
    expect((await listed(sam)).connections.map((each) => each.yours)).toEqual([false]);
    expect(
      (await ok<{ connections: unknown[] }>(call(alex, 'DELETE', `/api/bank-connections/${connection.id}`, { budget: id }))).connections,
    ).toEqual([]);
    // Connecting and disconnecting are in the activity, by who did it (decision 0100).
    const all = texts(await activityOf(alex, id));
    expect(all[0]).toBe('Alex disconnected a bank');
    expect(all).toContain('Sam connected a bank');
  });

  it("notes invitations made and revoked, and the budget's settings changed, by who (decision 0100)", async () => {
    const alex = named('alex', 'Alex');
    const sam = named('sam', 'Sam');
    const id = await budgetNamed(alex, 'Household', [[sam, 'EDITOR']]);
    const { invitation } = await ok<{ invitation: { id: string } }>(
      call(alex, 'POST', `/api/budgets/${id}/invitations`, { body: { role: 'VIEWER' } }),
    );
    await ok(call(alex, 'DELETE', `/api/budgets/${id}/invitations/${invitation.id}`));
    refused(await call(alex, 'DELETE', `/api/budgets/${id}/invitations/${invitation.id}`), 404, 'No such invitation.');
    await ok(call(sam, 'PATCH', '/api/me', { body: { timeZone: 'America/Chicago', buffer: 200 }, budget: id }));
    // The same again changes nothing, and notes nothing; nor does the page's first zone of a budget that has one.
    await ok(call(sam, 'PATCH', '/api/me', { body: { timeZone: 'America/Chicago', buffer: 200 }, budget: id }));
    await ok(call(sam, 'PATCH', '/api/me', { body: { timeZone: 'UTC', onlyIfUnset: true }, budget: id }));
    expect(texts(await activityOf(sam, id))).toEqual([
      'Sam set the time zone to America/Chicago and set Keep at least to $200.00',
      'Alex revoked an invitation to join as a viewer',
      'Alex invited someone as a viewer',
      'Sam joined as an editor',
      'Alex invited someone as an editor',
    ]);
  });

  it('deletes everything: refuses while the last owner of a budget others are in, naming it; then leaves and deletes', async () => {
    const alex = named('alex', 'Alex');
    const sam = named('sam', 'Sam');
    const [personalBefore] = await budgetsOf(alex);
    await ok(call(alex, 'POST', '/api/accounts', { body: { name: 'Private-7f3a', kind: 'SAVINGS' } }));
    const household = await budgetNamed(alex, 'Household', [[sam, 'EDITOR']]);
    const solo = await budgetNamed(alex, 'Solo');
    await ok(call(alex, 'POST', '/api/accounts', { body: { name: 'Solo cash', kind: 'CASH' }, budget: solo }));
    const trip = await budgetNamed(sam, 'Trip', [[alex, 'EDITOR']]);

    const before = await test.snapshot();
    refused(
      await call(alex, 'DELETE', '/api/account', EVERYTHING),
      409,
      'You are the last owner of Household, which others are still in: make another member an owner of it, or delete it, then delete everything.',
    );
    refused(
      await call(alex, 'DELETE', '/api/account', { ...EVERYTHING, budget: household }),
      409,
      'Delete everything deletes your own data and leaves your shared budgets: send it without the Leftover-Budget header. To delete a shared budget itself, delete the budget.',
    );
    expect(await test.snapshot()).toBe(before);

    const samInHousehold = (
      await ok<{ members: { id: string; you: boolean }[] }>(call(alex, 'GET', `/api/budgets/${household}/members`))
    ).members.find((member) => !member.you);
    await ok(call(alex, 'PATCH', `/api/budgets/${household}/members/${samInHousehold?.id ?? ''}`, { body: { role: 'OWNER' } }));
    await ok(call(alex, 'DELETE', '/api/account', EVERYTHING));

    // A new personal budget, empty; Solo gone with its data; Household and Trip are Sam's alone now.
    const after = await budgetsOf(alex);
    expect(after).toEqual([{ id: expect.any(String), name: 'Personal', role: 'OWNER', personal: true, notify: true }]);
    expect(after[0]?.id).not.toBe(personalBefore?.id);
    expect(JSON.stringify(await ok(call(alex, 'GET', '/api/accounts')))).not.toContain('Private-7f3a');
    refused(await call(alex, 'GET', '/api/accounts', { budget: solo }), 404, 'No such budget.');
    expect((await budgetsOf(sam)).map((budget) => budget.name)).toEqual(['Personal', 'Household', 'Trip']);
    for (const id of [household, trip]) {
      const members = (await ok<{ members: { name: string | null }[] }>(call(sam, 'GET', `/api/budgets/${id}/members`))).members;
      expect(members.map((member) => member.name)).toEqual(['Sam']);
    }
    expect(await test.snapshot()).not.toContain('Solo cash');
  });
});

describe.each(databaseKinds())('a database made before migration 0026 on %s', (kind: DatabaseKind) => {
  it('upgrades: undo entries keep their rows with no maker, and the activity starts empty', async () => {
    const database = await createTestDatabase(kind);
    const raw = openRawDatabase(kind, database.url);
    const before = Object.keys(migrations).filter((name) => name < '0026');
    try {
      const migrator = await migratorOf(raw, kind, before);
      const { error } = await migrator.migrateToLatest();
      if (error) throw error;
      await sql`insert into undo_entries (token_hash, owner_iss, owner_sub, seq, kind, created_at, expires_at, journal)
        values ('abc', 'https://issuer.example', 'someone', 1, 'addDeposit', '2026-11-21T12:00:00.000Z', '2026-11-21T12:10:00.000Z', '{}')`.execute(
        raw,
      );
    } finally {
      await raw.destroy();
    }
    const test = await startTestApp(kind, { database });
    try {
      const after = openRawDatabase(kind, database.url);
      try {
        const entries = await sql<{ actor_iss: string | null; what: string | null }>`select actor_iss, what from undo_entries`.execute(
          after,
        );
        expect(entries.rows).toEqual([{ actor_iss: null, what: null }]);
        const activity = await sql<{ count: number | string }>`select count(*) as count from activity_entries`.execute(after);
        expect(Number(activity.rows[0]?.count)).toBe(0);
      } finally {
        await after.destroy();
      }
    } finally {
      await test.close();
    }
  });
});
