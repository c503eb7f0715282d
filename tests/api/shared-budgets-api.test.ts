/**
 * Budgets shared with a partner (issue 38 points 1 to 4, decision 0088), on both databases with one
 * app each: the budgets API and the Leftover-Budget header, roles checked by walking the endpoint
 * table, invitations (single use, 7 days on the app's clock, never the inviter's, hashed, guesses
 * 404), members by display name only, and the leak check in a first form: a viewer of A's
 * Household sees nothing of A's personal budget through any read, and none of their writes lands.
 * Each test signs in its own people, so the tests share the app but not each other's rows.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON, endpointRoutes, budgetPlaceOf } from '../../src/contract/endpoints.js';
import { MAX_BUDGETS_PER_USER } from '../../src/domain/budgets.js';
import { loadConfig } from '../../src/server/config.js';
import { OPENAPI_PATH } from '../../src/server/http/openapi.js';
import { API_CALLS, VALID_DEPOSIT } from '../support/api-calls.js';
import { expectBadRequest } from '../support/api-expectations.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, TEST_NOW, TEST_RATE_LIMIT_PER_MINUTE, type TestApp } from '../support/test-app.js';
import { WriteStatements } from '../support/write-statements.js';
import { memberCalls, person, type Person } from '../support/budget-members.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const VIEWER_MESSAGE = 'You can view this budget but not change it.';

interface Budget {
  readonly id: string;
  readonly name: string;
  readonly role: string;
  readonly personal: boolean;
}
interface Member {
  readonly id: string;
  readonly name: string | null;
  readonly role: string;
  readonly you: boolean;
}

describe.each(databaseKinds())('budgets shared with a partner on %s', (kind) => {
  let test: TestApp;
  /** The app's clock: invitations expire on it. */
  let clock = TEST_NOW.getTime();

  const writes = new WriteStatements();

  beforeAll(async () => {
    test = await startTestApp(kind, { now: () => new Date(clock), queryObserver: writes });
  });
  afterAll(() => test?.close());

  const { call, ok, refused } = memberCalls(() => test);

  const budgetsOf = async (who: Person) => (await ok<{ budgets: Budget[] }>(call(who, 'GET', '/api/budgets'))).budgets;
  const membersOf = async (who: Person, budgetId: string) =>
    (await ok<{ members: Member[] }>(call(who, 'GET', `/api/budgets/${budgetId}/members`))).members;

  async function createBudget(owner: Person, name: string): Promise<string> {
    return (await ok<Budget>(call(owner, 'POST', '/api/budgets', { body: { name } }))).id;
  }

  async function invite(owner: Person, budgetId: string, role: string): Promise<string> {
    return (await ok<{ token: string }>(call(owner, 'POST', `/api/budgets/${budgetId}/invitations`, { body: { role } }))).token;
  }

  /** A's "Household" with each of `members` in it at their role. */
  async function household(owner: Person, members: readonly (readonly [Person, string])[] = []): Promise<string> {
    const id = await createBudget(owner, 'Household');
    for (const [member, role] of members) {
      await ok(call(member, 'POST', '/api/invitations/accept', { body: { token: await invite(owner, id, role) } }));
    }
    return id;
  }

  it('makes the personal budget on the first list, and lists without writing anything after it', async () => {
    const newcomer = person('list-only');
    const [personal] = await budgetsOf(newcomer);
    expect(personal).toMatchObject({ personal: true, role: 'OWNER' });
    writes.count = 0;
    expect(await budgetsOf(newcomer)).toEqual([personal]);
    expect(writes.count, 'statements that write').toBe(0);
  });

  it('lists the personal budget first, makes, renames and deletes shared ones, within 10 budgets a user', async () => {
    const alex = person('alex', { name: 'Alex' });
    const [personal] = await budgetsOf(alex);
    expect(personal).toEqual({ id: expect.any(String), name: 'Personal', role: 'OWNER', personal: true, notify: true });
    // Made once, the first time it was needed: the same id ever after.
    expect((await budgetsOf(alex))[0]?.id).toBe(personal?.id);

    expectBadRequest(await call(alex, 'POST', '/api/budgets', { body: { name: 'x'.repeat(51) } }), {
      name: 'Name must be at most 50 characters.',
    });
    expectBadRequest(await call(alex, 'POST', '/api/budgets', { body: { name: '  ' } }), { name: 'Name is required.' });
    const id = await createBudget(alex, ' Household ');
    expect(await budgetsOf(alex)).toEqual([personal, { id, name: 'Household', role: 'OWNER', personal: false, notify: true }]);
    expect(await ok(call(alex, 'PATCH', `/api/budgets/${id}`, { body: { name: 'Home' } }))).toEqual({
      id,
      name: 'Home',
      role: 'OWNER',
      personal: false,
      notify: true,
    });

    // Its data goes with it: an account and a deposit stored in it through the header.
    await ok(call(alex, 'POST', '/api/accounts', { body: { name: 'Joint', kind: 'CHECKING' }, budget: id }));
    await ok(call(alex, 'POST', '/api/deposits/add-deposit', { body: VALID_DEPOSIT, budget: id }));
    expectBadRequest(
      await call(alex, 'DELETE', `/api/budgets/${id}`, { body: { confirm: 'Household' } }),
      { confirm: "Type the budget's name, Home, to confirm." },
      "Type the budget's name, Home, to confirm.",
    );
    refused(await call(alex, 'DELETE', `/api/budgets/${personal?.id}`, { body: { confirm: 'Personal' } }), 409);
    expect(await ok(call(alex, 'DELETE', `/api/budgets/${id}`, { body: { confirm: 'Home' } }))).toEqual({ budgets: [personal] });
    refused(await call(alex, 'GET', '/api/deposits/retrieve-deposits', { budget: id }), 404, 'No such budget.');
    const db = test.app.database.db.withoutPlugins();
    for (const table of ['accounts', 'deposits', 'budget_members', 'budget_invitations'] as const) {
      const column = table.startsWith('budget_') ? 'budget_id' : 'owner_sub';
      const left = await sql<{
        count: number | string;
      }>`select count(*) as count from ${sql.table(table)} where ${sql.ref(column)} = ${id}`.execute(db);
      expect(Number(left.rows[0]?.count), table).toBe(0);
    }

    // The personal budget and 9 others: the 10th other is one too many.
    for (let made = 1; made < MAX_BUDGETS_PER_USER; made += 1) await createBudget(alex, `Budget ${made}`);
    refused(
      await call(alex, 'POST', '/api/budgets', { body: { name: 'One more' } }),
      409,
      'You can be in at most 10 budgets. Leave or delete one first.',
    );
    expect(await budgetsOf(alex)).toHaveLength(MAX_BUDGETS_PER_USER);
  });

  it('acts on the budget the header names, the personal one without it, and answers 404 for any other, changing nothing', async () => {
    const alex = person('alex', { name: 'Alex' });
    const sam = person('sam', { name: 'Sam' });
    // Data from before budgets: it is in the personal budget, answered alike with its id or without a header.
    const mine = await ok<{ deposits: unknown[] }>(call(alex, 'POST', '/api/deposits/add-deposit', { body: VALID_DEPOSIT }));
    const id = await household(alex, [[sam, 'EDITOR']]);
    const personalId = (await budgetsOf(alex))[0]?.id ?? '';
    expect((await call(alex, 'GET', '/api/deposits/retrieve-deposits', { budget: personalId })).body).toBe(
      (await call(alex, 'GET', '/api/deposits/retrieve-deposits')).body,
    );
    expect(await ok(call(alex, 'GET', '/api/deposits/retrieve-deposits'))).toEqual(mine);

    const shared = { ...VALID_DEPOSIT, name: 'Rent share' };
    await ok(call(sam, 'POST', '/api/deposits/add-deposit', { body: shared, budget: id }));
    const inHousehold = await ok<{ deposits: { name: string }[] }>(call(alex, 'GET', '/api/deposits/retrieve-deposits', { budget: id }));
    expect(inHousehold.deposits.map((deposit) => deposit.name)).toEqual(['Rent share']);
    expect(JSON.stringify(await ok(call(sam, 'GET', '/api/deposits/retrieve-deposits')))).not.toContain('Rent share');

    const before = await test.snapshot();
    const unknown = await call(sam, 'POST', '/api/deposits/add-deposit', { body: shared, budget: crypto.randomUUID() });
    refused(unknown, 404, 'No such budget.');
    // Another's personal budget is no budget of theirs: the same answer.
    expect((await call(sam, 'POST', '/api/deposits/add-deposit', { body: shared, budget: personalId })).body).toBe(unknown.body);
    expectBadRequest(await call(sam, 'GET', '/api/deposits/retrieve-deposits', { budget: 'not/an id' }), {
      'Leftover-Budget': 'Leftover-Budget must be the id of one of your budgets (GET /api/budgets), or left out for your personal budget.',
    });
    expect(await test.snapshot()).toBe(before);
  });

  it('counts a member’s calls in a shared budget against their own request budget, not the budget’s or its owner’s', async () => {
    const alex = person('alex', { name: 'Alex' });
    const sam = person('sam', { name: 'Sam' });
    const id = await household(alex, [[sam, 'VIEWER']]);
    const remaining = async (who: Person, budget?: string) =>
      Number(
        (await call(who, 'GET', '/api/deposits/retrieve-deposits', budget === undefined ? {} : { budget })).headers[
          'x-ratelimit-remaining'
        ],
      );
    const alexBefore = await remaining(alex, id);
    const samFirst = await remaining(sam, id);
    expect(await remaining(sam, id)).toBe(samFirst - 1);
    expect(await remaining(sam)).toBe(samFirst - 2);
    expect(await remaining(alex, id)).toBe(alexBefore - 1);
  });

  it('lets every role make exactly the calls its row accepts: walking the endpoint table, a refusal is a 403 that changes nothing', async () => {
    const alex = person('alex', { name: 'Alex' });
    const viewer = person('viewer', { name: 'Vic' });
    const editor = person('editor', { name: 'Eddie' });
    const id = await household(alex, [
      [viewer, 'VIEWER'],
      [editor, 'EDITOR'],
    ]);
    const before = await test.snapshot();
    const walked: string[] = [];
    for (const apiCall of API_CALLS) {
      const route = endpointRoutes().find((each) => each.operationId === apiCall.operationId);
      if (!route || route.roles === PERSON) continue;
      const place = budgetPlaceOf(route);
      for (const [who, role] of [
        [viewer, 'VIEWER'],
        [editor, 'EDITOR'],
      ] as const) {
        if (route.roles.includes(role)) continue;
        // Every other parameter names nothing: the refusal comes first, whatever the rest says.
        const url =
          place === 'path'
            ? apiCall.url(crypto.randomUUID()).replace(/^\/api\/budgets\/[^/]+/, `/api/budgets/${id}`)
            : apiCall.url(crypto.randomUUID());
        const response = await call(who, apiCall.method, url, {
          ...(apiCall.validBody && { body: apiCall.validBody(crypto.randomUUID()) }),
          ...(place === 'header' && { budget: id }),
        });
        const message = role === 'VIEWER' && route.roles.includes('EDITOR') ? VIEWER_MESSAGE : 'Only an owner of this budget can do this.';
        expect({ status: response.statusCode, body: response.json() }, `${role} ${apiCall.operationId}`).toEqual({
          status: 403,
          body: { error: { code: 'forbidden', message } },
        });
        walked.push(`${role} ${apiCall.operationId}`);
      }
    }
    expect(await test.snapshot()).toBe(before);
    // Every change is refused to a viewer; the owner's calls to both.
    expect(walked).toContain('VIEWER addTransactionPrimary');
    expect(walked).toContain('EDITOR restoreYourData');
    expect(walked).toContain('EDITOR createInvitation');
    expect(walked).not.toContain('VIEWER getLedger');
    expect(walked).not.toContain('EDITOR addDeposit');
  });

  it('invites with a single-use token of 192 random bits, stored hashed, for 7 days, never to be taken by its inviter', async () => {
    const alex = person('alex', { name: 'Alex' });
    const sam = person('sam', { preferred_username: 'sam.p' });
    const casey = person('casey');
    const id = await createBudget(alex, 'Household');
    const personalId = (await budgetsOf(alex))[0]?.id ?? '';
    refused(await call(alex, 'POST', `/api/budgets/${personalId}/invitations`, { body: { role: 'EDITOR' } }), 409);
    expectBadRequest(await call(alex, 'POST', `/api/budgets/${id}/invitations`, { body: { role: 'ADMIN' } }), {
      role: 'Role must be OWNER, EDITOR or VIEWER.',
    });

    const made = await ok<{
      invitation: { id: string; role: string; invitedBy: string; expiresAt: string };
      token: string;
      link: string;
      emailOffered: boolean;
    }>(call(alex, 'POST', `/api/budgets/${id}/invitations`, { body: { role: 'EDITOR' } }));
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // This app has no SMTP_URL: the link is only to copy, and a send says why not (decision 0105).
    expect(made.emailOffered).toBe(false);
    refused(
      await call(alex, 'POST', `/api/budgets/${id}/invitations/${made.invitation.id}/send`, {
        body: { email: 'sam@example.com', token: made.token },
      }),
      409,
      'Email is not offered on this server: its operator has not set up SMTP_URL.',
    );
    expect(Buffer.from(made.token, 'base64url')).toHaveLength(24);
    expect(made.link.endsWith(`/join#${made.token}`)).toBe(true);
    expect(made.invitation).toMatchObject({ role: 'EDITOR', invitedBy: 'Alex', expiresAt: new Date(clock + 7 * DAY_MS).toISOString() });
    const snapshot = await test.snapshot();
    expect(snapshot).not.toContain(made.token);
    expect(snapshot).toContain(crypto.createHash('sha256').update(made.token).digest('hex'));
    expect(await ok(call(alex, 'GET', `/api/budgets/${id}/invitations`))).toEqual({ invitations: [made.invitation] });

    // Nothing of the budget before joining: its name, who invited, the role.
    const view = { budget: { name: 'Household' }, invitedBy: 'Alex', role: 'EDITOR', expiresAt: made.invitation.expiresAt };
    expect(await ok(call(sam, 'POST', '/api/invitations/view', { body: { token: made.token } }))).toEqual(view);
    refused(await call(alex, 'POST', '/api/invitations/accept', { body: { token: made.token } }), 409);
    refused(await call(alex, 'POST', '/api/invitations/decline', { body: { token: made.token } }), 409);

    // Two at once: one joins, the other is told it is used.
    const both = await Promise.all(
      [sam, casey].map((who) => call(who, 'POST', '/api/invitations/accept', { body: { token: made.token } })),
    );
    expect(both.map((response) => response.statusCode).sort()).toEqual([200, 410]);
    const used = 'This invitation has already been used.';
    refused(await call(person('late'), 'POST', '/api/invitations/view', { body: { token: made.token } }), 410, used);
    expect(await ok(call(alex, 'GET', `/api/budgets/${id}/invitations`))).toEqual({ invitations: [] });

    const revoked = await ok<{ invitation: { id: string }; token: string }>(
      call(alex, 'POST', `/api/budgets/${id}/invitations`, { body: { role: 'VIEWER' } }),
    );
    // Revoked only through its own budget: another budget's path does not find it.
    const other = await createBudget(alex, 'Other');
    refused(await call(alex, 'DELETE', `/api/budgets/${other}/invitations/${revoked.invitation.id}`), 404, 'No such invitation.');
    expect(await ok(call(alex, 'DELETE', `/api/budgets/${id}/invitations/${revoked.invitation.id}`))).toEqual({ invitations: [] });
    refused(
      await call(person('x'), 'POST', '/api/invitations/accept', { body: { token: revoked.token } }),
      410,
      'This invitation was revoked by an owner of the budget.',
    );

    const declined = await invite(alex, id, 'VIEWER');
    expect(await ok(call(person('y'), 'POST', '/api/invitations/decline', { body: { token: declined } }))).toEqual({ declined: true });
    refused(await call(person('z'), 'POST', '/api/invitations/accept', { body: { token: declined } }), 410, used);

    const expiring = await invite(alex, id, 'VIEWER');
    clock += 7 * DAY_MS - 1;
    expect(await ok(call(person('w'), 'POST', '/api/invitations/view', { body: { token: expiring } }))).toMatchObject({ role: 'VIEWER' });
    clock += 1;
    refused(
      await call(person('v'), 'POST', '/api/invitations/accept', { body: { token: expiring } }),
      410,
      'This invitation has expired. Ask for a new one.',
    );
    clock = TEST_NOW.getTime();
  });

  it('keeps members and pending invitations within 6; of 10,000 guessed tokens none is an invitation, and guesses answer 404, each counted against the guesser', async () => {
    const alex = person('alex', { name: 'Alex' });
    const id = await household(alex, [[person('sam'), 'EDITOR']]);
    // Two members: four invitations make six, the fifth is refused until one is revoked.
    for (let made = 0; made < 4; made += 1) await invite(alex, id, 'VIEWER');
    refused(await call(alex, 'POST', `/api/budgets/${id}/invitations`, { body: { role: 'VIEWER' } }), 409);

    // 10,000 guesses, hashed as the server hashes a token before looking it up: not one names an
    // invitation (one query for all of them; the API's own lookup of each would take 10 to 20 s here).
    const guesses = Array.from({ length: 10_000 }, () => crypto.randomBytes(24).toString('base64url'));
    const hashes = guesses.map((token) => crypto.createHash('sha256').update(token).digest('hex'));
    const db = test.app.database.db.withoutPlugins();
    const found = await db.selectFrom('budget_invitations').select('id').where('token_hash', 'in', hashes).execute();
    expect(found).toEqual([]);
    // Through the API, 300 of them (100 to each call that takes a token): 404 each, nothing changed,
    // and each counted once against the guesser's own request budget.
    const guesser = person('guesser');
    const before = await test.snapshot();
    const responses = await Promise.all(
      guesses
        .slice(0, 300)
        .map((token, index) => call(guesser, 'POST', `/api/invitations/${['view', 'accept', 'decline'][index % 3]}`, { body: { token } })),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array.from({ length: 300 }, () => 404));
    expect(new Set(responses.map((response) => response.headers['x-ratelimit-limit']))).toEqual(
      new Set([String(TEST_RATE_LIMIT_PER_MINUTE)]),
    );
    const remaining = responses.map((response) => Number(response.headers['x-ratelimit-remaining'])).sort((a, b) => b - a);
    expect((remaining[0] ?? 0) - (remaining[299] ?? 0)).toBe(299);
    expect(new Set(remaining).size).toBe(300);
    expect(await test.snapshot()).toBe(before);
    // With production's default budget one user guesses at most 600 tokens a minute: in a year, a chance of
    // about 2^-161 of finding one of the 6 a budget can have out at once among 2^192.
    const perMinute = loadConfig({ NODE_ENV: 'test' }).rateLimit.perUserPerMinute;
    expect(perMinute).toBe(600);
    expect(Math.log2((perMinute * 60 * 24 * 365 * 6) / 2 ** 192)).toBeLessThan(-160);
  });

  it('lists members by display name, never by subject, to members only; owners change roles and remove; the last owner stays', async () => {
    const alex = person('alex', { name: 'Alex' });
    const sam = person('sam', { preferred_username: 'sam.p' });
    const casey = person('casey');
    const stranger = person('stranger', { name: 'Stranger' });
    const id = await household(alex, [
      [sam, 'EDITOR'],
      [casey, 'VIEWER'],
    ]);
    const members = await membersOf(sam, id);
    expect(members.map(({ name, role, you }) => ({ name, role, you }))).toEqual([
      { name: 'Alex', role: 'OWNER', you: false },
      { name: 'sam.p', role: 'EDITOR', you: true },
      { name: null, role: 'VIEWER', you: false },
    ]);
    const text = JSON.stringify(members);
    for (const subject of [alex, sam, casey].map((each) => each.subject)) expect(text).not.toContain(subject);
    // Nobody who shares no budget with them can list them, nor tell the budget from one that does not exist.
    refused(await call(stranger, 'GET', `/api/budgets/${id}/members`), 404, 'No such budget.');

    const [, samMember, caseyMember] = members as [Member, Member, Member];
    refused(await call(sam, 'PATCH', `/api/budgets/${id}/members/${caseyMember.id}`, { body: { role: 'EDITOR' } }), 403);
    await ok(call(alex, 'PATCH', `/api/budgets/${id}/members/${samMember.id}`, { body: { role: 'VIEWER' } }));
    refused(await call(sam, 'POST', '/api/deposits/add-deposit', { body: VALID_DEPOSIT, budget: id }), 403, VIEWER_MESSAGE);

    // A new name at sign-in is what the others see next.
    const renamed = { ...sam, claims: { name: 'Samantha' } };
    await ok(call(renamed, 'GET', '/api/deposits/retrieve-deposits', { budget: id }));
    expect((await membersOf(alex, id)).find((member) => member.id === samMember.id)?.name).toBe('Samantha');

    // The last owner can neither become an editor nor leave; with a second owner, they can.
    const alexMember = (await membersOf(alex, id))[0] as Member;
    const lastOwner = 'A budget needs an owner: make another member an owner first, or delete the budget.';
    refused(await call(alex, 'PATCH', `/api/budgets/${id}/members/${alexMember.id}`, { body: { role: 'EDITOR' } }), 409, lastOwner);
    refused(await call(alex, 'DELETE', `/api/budgets/${id}/members/${alexMember.id}`), 409, lastOwner);
    refused(await call(alex, 'POST', `/api/budgets/${id}/leave`), 409, lastOwner);
    const personalId = (await budgetsOf(alex))[0]?.id ?? '';
    refused(await call(alex, 'POST', `/api/budgets/${personalId}/leave`), 409);
    await ok(call(alex, 'PATCH', `/api/budgets/${id}/members/${samMember.id}`, { body: { role: 'OWNER' } }));
    expect((await ok<{ budgets: Budget[] }>(call(alex, 'POST', `/api/budgets/${id}/leave`))).budgets.map((budget) => budget.id)).toEqual([
      personalId,
    ]);
    refused(await call(alex, 'GET', `/api/budgets/${id}/members`), 404, 'No such budget.');
    refused(await call(sam, 'POST', `/api/budgets/${id}/leave`), 409, lastOwner);

    // A removed member's next call naming the budget answers 404; their list no longer has it.
    await ok(call(sam, 'DELETE', `/api/budgets/${id}/members/${caseyMember.id}`));
    refused(await call(casey, 'GET', '/api/deposits/retrieve-deposits', { budget: id }), 404, 'No such budget.');
    expect((await budgetsOf(casey)).map((budget) => budget.personal)).toEqual([true]);
    refused(await call(sam, 'DELETE', `/api/budgets/${id}/members/${caseyMember.id}`), 404, 'No such member.');
  });

  it("shows a viewer of A's Household nothing of A's personal budget in any read, and lands none of their writes", async () => {
    const alex = person('alex', { name: 'Alex' });
    const bea = person('bea', { name: 'Bea' });
    // A's personal budget: an account only A may know of, and an amount.
    const privateAccount = await ok<{ id: string }>(
      call(alex, 'POST', '/api/accounts', { body: { name: 'Private-7f3a', kind: 'CHECKING' } }),
    );
    await ok(
      call(alex, 'POST', `/api/accounts/${privateAccount.id}/ledger/create-ledger`, {
        body: { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 4321.09 } },
      }),
    );
    const deposits = await ok<{ deposits: { id: string }[] }>(
      call(alex, 'POST', '/api/deposits/add-deposit', { body: { ...VALID_DEPOSIT, name: 'Private pay', amount: 4321.09 } }),
    );
    const ledger = await ok<{ ledger: { transactions: { id: string }[] } }>(
      call(alex, 'GET', `/api/accounts/${privateAccount.id}/ledger/retrieve-ledger`),
    );
    expect(ledger.ledger.transactions.length).toBeGreaterThan(0);
    const id = await household(alex, [[bea, 'VIEWER']]);
    const joint = await ok<{ id: string }>(call(alex, 'POST', '/api/accounts', { body: { name: 'Joint', kind: 'CHECKING' }, budget: id }));
    await ok(
      call(alex, 'POST', `/api/accounts/${joint.id}/ledger/create-ledger`, {
        body: { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 50 } },
        budget: id,
      }),
    );
    const personalId = (await budgetsOf(alex))[0]?.id ?? '';
    const alexMembers = await membersOf(alex, personalId);
    const secrets = [
      'Private-7f3a',
      '4321.09',
      '4,321.09',
      personalId,
      privateAccount.id,
      ...deposits.deposits.map((deposit) => deposit.id),
      ...ledger.ledger.transactions.map((row) => row.id),
      ...alexMembers.map((member) => member.id),
    ];
    await budgetsOf(bea);

    const document = (await test.app.inject({ method: 'GET', url: OPENAPI_PATH })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const ids = [personalId, privateAccount.id, id, joint.id];
    const reads: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      if (!('get' in item) || path === OPENAPI_PATH) continue;
      const urls = path.includes('{') ? ids.map((each) => path.replace(/\{\w+\}/g, each)) : [path];
      for (const url of urls) {
        for (const budget of [undefined, id, personalId]) {
          const response = await call(bea, 'GET', url, budget === undefined ? {} : { budget });
          expect(response.statusCode, `${url} ${budget}: ${response.body}`).toBeLessThan(500);
          for (const secret of secrets) expect(response.body, `${url} with ${budget ?? 'no header'}`).not.toContain(secret);
          reads.push(`${response.statusCode} ${url}`);
        }
      }
    }
    // The walk did reach the Household's data: a viewer reads it.
    expect(reads).toContain(`200 /api/accounts/${joint.id}/ledger/retrieve-ledger`);

    // Every write aimed at A's data: through the Household (a viewer: 403) or A's personal budget (404), and nothing changes.
    const before = await test.snapshot();
    for (const apiCall of API_CALLS) {
      const route = endpointRoutes().find((each) => each.operationId === apiCall.operationId);
      if (!route || apiCall.method === 'GET' || route.roles === PERSON) continue;
      // Leaving and choosing one's own notifications are a viewer's own calls (tested with them); a
      // what-if stores nothing and was read like any read.
      if (apiCall.operation === 'leaveBudget' || apiCall.operation === 'setBudgetNotify') continue;
      const place = budgetPlaceOf(route);
      for (const budget of [id, personalId]) {
        const url =
          place === 'path'
            ? apiCall.url(privateAccount.id).replace(/^\/api\/budgets\/[^/]+/, `/api/budgets/${budget}`)
            : apiCall.url(privateAccount.id);
        const response = await call(bea, apiCall.method, url, {
          ...(apiCall.validBody && { body: apiCall.validBody(privateAccount.id) }),
          ...(place === 'header' && { budget }),
        });
        for (const secret of secrets) expect(response.body, `${apiCall.operationId} in ${budget}`).not.toContain(secret);
        if (apiCall.operation === 'whatIf') continue;
        expect(
          response.statusCode,
          `${apiCall.operationId} in ${budget === id ? 'Household' : "A's personal budget"}: ${response.body}`,
        ).toBe(budget === id ? 403 : 404);
      }
    }
    expect(await test.snapshot()).toBe(before);
  });
});
