/**
 * Changes seen live (issue 38 point 6, decision 0096), on both databases, over real HTTP (a stream
 * never ends, so it cannot be injected): a member's stream of a shared budget hears another member's
 * change within 2 seconds, their own marked `you`; a non-member gets 404 and hears nothing; a removed
 * member is told `gone`; a stream ends with its token; one person holds at most 5 streams; two members paying one row at once: one
 * wins, the other's If-Match answers 412 (without one, the Pay changes nothing and answers 200, as the
 * page sends it). On PostgreSQL, a second app on the same database hears the first one's changes:
 * two processes, told through NOTIFY. One app per database for the file; each test signs in its own people.
 */
import crypto from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveChange, liveChangeSchema } from '../../src/contract/live-changes.js';
import { MAX_STREAMS_PER_PERSON } from '../../src/server/live/event-streams.js';
import { VALID_DEPOSIT, VALID_EXPENSE } from '../support/api-calls.js';
import { isChange, openStream, type OpenStream, SEEN_WITHIN_MS, type StreamEvent } from '../support/event-stream.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface Person {
  readonly subject: string;
  readonly name: string;
}

function person(name: string): Person {
  return { subject: `${name.toLowerCase()}-${crypto.randomUUID()}`, name };
}

const changeOf = (event: StreamEvent): LiveChange => liveChangeSchema.parse(event.data);

describe.each(databaseKinds())('changes seen live on %s', (kind) => {
  let test: TestApp;
  let origin: string;
  const streams: OpenStream[] = [];

  beforeAll(async () => {
    test = await startTestApp(kind);
    origin = await test.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await test?.close();
  });

  const tokenOf = (who: Person) => test.issuer.token(who.subject, { claims: { name: who.name }, expiresInSeconds: 3600 });

  async function call(who: Person, method: InjectOptions['method'], url: string, body?: unknown, headers: Record<string, string> = {}) {
    return test.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${await tokenOf(who)}`,
        ...headers,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    });
  }

  async function ok<Answer>(response: Promise<LightMyRequestResponse>): Promise<Answer> {
    const answer = await response;
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<Answer>();
  }

  /** A's Household with each of `members` in it as an editor. */
  async function household(owner: Person, ...members: Person[]): Promise<string> {
    const { id } = await ok<{ id: string }>(call(owner, 'POST', '/api/budgets', { name: 'Household' }));
    for (const member of members) {
      const { token } = await ok<{ token: string }>(call(owner, 'POST', `/api/budgets/${id}/invitations`, { role: 'EDITOR' }));
      await ok(call(member, 'POST', '/api/invitations/accept', { token }));
    }
    return id;
  }

  async function follow(who: Person, budget?: string): Promise<OpenStream> {
    const stream = await openStream(origin, await tokenOf(who), budget);
    streams.push(stream);
    return stream;
  }

  it("tells every member's stream of a change within 2 seconds, the maker's as their own, and nobody else's", async () => {
    const alex = person('Alex');
    const sam = person('Sam');
    const stranger = person('Stranger');
    const id = await household(alex, sam);
    const samSees = await follow(sam, id);
    const alexSees = await follow(alex, id);
    const samPersonal = await follow(sam);
    // Not a member: the same 404 as any call naming the budget, and no stream.
    const refused = await openStream(origin, await tokenOf(stranger), id);
    expect([refused.status, JSON.parse(refused.body)]).toEqual([404, { error: { code: 'not_found', message: 'No such budget.' } }]);
    // A GET that does not ask for a stream is refused at once, naming the header.
    const plain = await call(sam, 'GET', '/api/events', undefined, { 'leftover-budget': id });
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toMatchObject({
      error: { fields: { accept: 'Accept must be text/event-stream: this call answers a stream of events.' } },
    });

    const started = Date.now();
    await ok(call(alex, 'POST', '/api/deposits/add-deposit', VALID_DEPOSIT, { 'leftover-budget': id }));
    expect(changeOf(await samSees.next(isChange))).toEqual({ by: 'Alex', text: 'Alex added the deposit Paycheck.', you: false });
    expect(Date.now() - started).toBeLessThan(SEEN_WITHIN_MS);
    expect(changeOf(await alexSees.next(isChange))).toMatchObject({ by: 'Alex', you: true });

    // A change of a personal budget, and a read, tell no one; Sam's personal stream heard nothing of the Household.
    await ok(call(alex, 'POST', '/api/expenses/add-expense', VALID_EXPENSE));
    await ok(call(sam, 'GET', '/api/deposits/retrieve-deposits', undefined, { 'leftover-budget': id }));
    await ok(call(sam, 'POST', '/api/expenses/add-expense', VALID_EXPENSE, { 'leftover-budget': id }));
    await alexSees.next((event) => isChange(event) && changeOf(event).by === 'Sam');
    await samSees.next((event) => isChange(event) && changeOf(event).you);
    expect(samSees.events.filter(isChange)).toHaveLength(2);
    expect(samPersonal.events.filter(isChange)).toEqual([]);
    const streamAnswer = await fetch(`${origin}/api/events`, {
      headers: { authorization: `Bearer ${await tokenOf(sam)}`, accept: 'text/event-stream' },
      signal: AbortSignal.timeout(5_000),
    });
    expect(streamAnswer.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(streamAnswer.headers.get('cache-control')).toBe('no-store');
    await streamAnswer.body?.cancel();
    const head = await call(sam, 'HEAD', '/api/events', undefined, { accept: 'text/event-stream' });
    expect([head.statusCode, head.headers['content-type'], head.body]).toEqual([200, 'text/event-stream', '']);
  });

  it('tells a removed member their budget is gone and ends the stream; their next one is 404; 5 streams a person at most', async () => {
    const alex = person('Alex');
    const sam = person('Sam');
    const id = await household(alex, sam);
    const samSees = await follow(sam, id);
    const members = await ok<{ members: { id: string; you: boolean }[] }>(call(sam, 'GET', `/api/budgets/${id}/members`));
    const samMember = members.members.find((member) => member.you);
    await ok(call(alex, 'DELETE', `/api/budgets/${id}/members/${samMember?.id ?? ''}`));
    expect(await samSees.next((event) => event.event === 'gone')).toEqual({ event: 'gone', data: { budget: 'Household' } });
    await samSees.ended;
    expect((await openStream(origin, await tokenOf(sam), id)).status).toBe(404);

    // A stream ends when the token it was opened with expires: the page opens another with a renewed one.
    const shortLived = await openStream(
      origin,
      await test.issuer.token(alex.subject, { claims: { name: 'Alex' }, expiresInSeconds: 1 }),
      id,
    );
    expect(shortLived.status).toBe(200);
    await Promise.race([shortLived.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('still open')), 3_000))]);

    const held: OpenStream[] = [];
    for (let index = 0; index < MAX_STREAMS_PER_PERSON; index += 1) held.push(await follow(alex, id));
    const more = await openStream(origin, await tokenOf(alex), id);
    expect(more.status).toBe(429);
    expect(JSON.parse(more.body)).toMatchObject({ error: { code: 'too_many_requests' } });
    // Another person still opens theirs; a closed stream gives its place back.
    expect((await follow(person('Casey'))).status).toBe(200);
    held[0]?.close();
    await held[0]?.ended;
    for (let tries = 0; ; tries += 1) {
      const again = await openStream(origin, await tokenOf(alex), id);
      if (again.status === 200 || tries > 20) {
        expect(again.status).toBe(200);
        again.close();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('lets one of two members paying the same row at once win; the other’s If-Match answers 412, and without one it changes nothing', async () => {
    const alex = person('Alex');
    const sam = person('Sam');
    const id = await household(alex, sam);
    const inBudget = { 'leftover-budget': id };
    await ok(
      call(
        alex,
        'POST',
        '/api/ledger/create-ledger',
        { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 100 } },
        inBudget,
      ),
    );
    const added = await call(
      alex,
      'POST',
      '/api/ledger/add-transaction',
      { date: '2026-11-25', name: 'Rent', type: 'D', amount: 50 },
      inBudget,
    );
    const row = added.json<{ ledger: { transactions: { id: string; date: string; name: string; type: string; amount: number }[] } }>()
      .ledger.transactions[0];
    if (!row) throw new Error('no row');
    const pay = { ...row, status: 'PAID' };
    const samSees = await follow(sam, id);

    const etag = added.headers.etag as string;
    const both = await Promise.all(
      [alex, sam].map((who) => call(who, 'PATCH', '/api/ledger/update-transaction?answer=changes', pay, { ...inBudget, 'if-match': etag })),
    );
    expect(both.map((response) => response.statusCode).sort()).toEqual([200, 412]);
    const loser = both.find((response) => response.statusCode === 412);
    expect(loser?.json()).toMatchObject({ error: { code: 'precondition_failed' } });
    await samSees.next(isChange);

    // As the page sends it (no If-Match): the second Pay finds the row paid, changes nothing, and answers 200.
    const ledger = await call(alex, 'GET', '/api/ledger/retrieve-ledger', undefined, inBudget);
    const again = await call(sam, 'PATCH', '/api/ledger/update-transaction?answer=changes', pay, inBudget);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ changes: { rows: [], removed: [] } });
    const after = await call(alex, 'GET', '/api/ledger/retrieve-ledger', undefined, inBudget);
    expect(after.headers.etag).toBe(ledger.headers.etag);
    expect(after.json<{ ledger: { transactions: { status: string }[] } }>().ledger.transactions.map((each) => each.status)).toEqual([
      'PAID',
    ]);
  });

  // The server's own timeouts (decision 0027) never cut a stream: the request was whole at once, and the heartbeat keeps it talking.
  if (kind === 'sqlite') {
    it('keeps a stream open past the request and connection timeouts, with a heartbeat', async () => {
      const short = await startTestApp(kind, { env: { REQUEST_TIMEOUT_MS: '300', CONNECTION_TIMEOUT_MS: '300' } });
      try {
        const shortOrigin = await short.app.listen({ port: 0, host: '127.0.0.1' });
        const alex = person('Alex');
        const bearer = (who: Person) => short.issuer.token(who.subject, { claims: { name: who.name } });
        const id = (
          await short.app.inject({
            method: 'POST',
            url: '/api/budgets',
            headers: { authorization: `Bearer ${await bearer(alex)}`, 'content-type': 'application/json' },
            payload: JSON.stringify({ name: 'Household' }),
          })
        ).json<{ id: string }>().id;
        const stream = await openStream(shortOrigin, await bearer(alex), id);
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        const invited = await short.app.inject({
          method: 'POST',
          url: `/api/budgets/${id}/invitations`,
          headers: { authorization: `Bearer ${await bearer(alex)}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ role: 'EDITOR' }),
        });
        expect(invited.statusCode).toBe(200);
        expect(changeOf(await stream.next(isChange))).toMatchObject({ by: 'Alex', you: true });
        stream.close();
      } finally {
        await short.close();
      }
    });
  }

  // Two server processes on one PostgreSQL: the second app hears the first one's changes through NOTIFY.
  if (kind === 'postgres') {
    it("tells a member's stream on another process of a change within 2 seconds", async () => {
      const other = await startTestApp(kind, {
        database: { ...test.database, drop: async () => undefined },
        issuer: { ...test.issuer, close: async () => undefined },
      });
      try {
        const otherOrigin = await other.app.listen({ port: 0, host: '127.0.0.1' });
        const alex = person('Alex');
        const sam = person('Sam');
        const id = await household(alex, sam);
        const samElsewhere = await openStream(otherOrigin, await tokenOf(sam), id);
        const started = Date.now();
        await ok(call(alex, 'POST', '/api/deposits/add-deposit', VALID_DEPOSIT, { 'leftover-budget': id }));
        // The deposit's change, whatever else came first: the invitation of the set-up reaches the other
        // process through NOTIFY a moment later, and once came after this stream had opened (a CI run).
        const deposit = await samElsewhere.next((event) => isChange(event) && changeOf(event).text === 'Alex added the deposit Paycheck.');
        expect(changeOf(deposit)).toEqual({ by: 'Alex', text: 'Alex added the deposit Paycheck.', you: false });
        expect(Date.now() - started).toBeLessThan(SEEN_WITHIN_MS);
        // Only once: the first process's own streams were told directly, not again through its LISTEN.
        const alexHere = await follow(alex, id);
        await ok(call(sam, 'POST', '/api/expenses/add-expense', VALID_EXPENSE, { 'leftover-budget': id }));
        await alexHere.next(isChange);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(alexHere.events.filter(isChange)).toHaveLength(1);

        // PostgreSQL drops both processes' LISTEN connections (as a restart would): each connects again
        // on its own, tells its streams to read again quietly, and hears changes as before.
        const db = test.app.database.db.withoutPlugins();
        const { rows } = await sql<{ dropped: boolean }>`
          select pg_terminate_backend(pid) as dropped from pg_stat_activity
          where query = 'LISTEN "leftover_changes_' || left(md5(current_schema()), 16) || '"'`.execute(db);
        expect(rows.filter((row) => row.dropped)).toHaveLength(2);
        await samElsewhere.next((event) => isChange(event) && changeOf(event).text === null, 5_000);
        await ok(call(alex, 'PATCH', `/api/budgets/${id}`, { name: 'Home' }));
        // After the quiet read-again above: the rename, in the activity's words.
        await samElsewhere.next((event) => isChange(event) && changeOf(event).text === 'Alex renamed the budget to Home.');
        // Closing a server ends its open streams: they would otherwise hold it open.
        await other.app.close();
        await samElsewhere.ended;
      } finally {
        await other.app.close();
      }
    });
  }
});
