/**
 * Request budgets (docs/decisions/0007-rate-limits.md): past the documented budget a user gets 429
 * with Retry-After and the JSON error body, and nothing is done for them; other users go on
 * unaffected; a new token does not buy a new budget. Calls with a missing or refused token have
 * their own budget per address, which a flood of bad tokens spends without touching any user's.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { BODY_LIMIT_BYTES } from '../../src/server/app.js';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, DEFAULT_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE } from '../../src/server/config.js';
import { VALID_DEPOSIT } from '../support/api-calls.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const strictErrorBody = strictErrorBodySchema;

function expectTooMany(response: LightMyRequestResponse, windowSeconds: number): void {
  expect(response.statusCode, response.body).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= windowSeconds,
    `Retry-After ${response.headers['retry-after']}`,
  ).toBe(true);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = strictErrorBody.parse(response.json());
  expect(body.error.code).toBe('too_many_requests');
  expect(body.error.message.toLowerCase()).toContain(`try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`);
}

describe.each(databaseKinds())('rate limits on %s', (kind) => {
  describe('the documented default budget', () => {
    let test: TestApp;
    beforeAll(async () => {
      // The production defaults, as `npm start` reads them from an empty environment.
      test = await startTestApp(kind, { env: { RATE_LIMIT_PER_MINUTE: undefined, RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: undefined } });
    });
    afterAll(() => test?.close());

    it(`is ${DEFAULT_RATE_LIMIT_PER_MINUTE} calls a minute per user: the next one answers 429, and other users go on`, async () => {
      expect(DEFAULT_RATE_LIMIT_PER_MINUTE).toBe(600);
      const token = `Bearer ${await test.issuer.token('busy-user')}`;
      const call = () => test.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: token } });
      for (let index = 0; index < DEFAULT_RATE_LIMIT_PER_MINUTE; index += 1) {
        const response = await call();
        if (response.statusCode !== 200) throw new Error(`call ${index + 1} answered ${response.statusCode}: ${response.body}`);
      }
      const over = await call();
      expectTooMany(over, 60);
      expect(over.headers['x-ratelimit-limit']).toBe(String(DEFAULT_RATE_LIMIT_PER_MINUTE));
      expect(over.headers['x-ratelimit-remaining']).toBe('0');
      expect(over.json().error.message).toContain(`${DEFAULT_RATE_LIMIT_PER_MINUTE} a minute`);

      const other = await test.as('calm-user').get('/api/me');
      expect(other.statusCode).toBe(200);
      expect(other.headers['x-ratelimit-remaining']).toBe(String(DEFAULT_RATE_LIMIT_PER_MINUTE - 1));
    });

    it(`gives calls without a valid token ${DEFAULT_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE} a minute per address, then 429`, async () => {
      expect(DEFAULT_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE).toBe(1200);
      const call = () => test.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: 'Bearer not.a.token' } });
      for (let index = 0; index < DEFAULT_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE; index += 1) {
        const response = await call();
        if (response.statusCode !== 401) throw new Error(`call ${index + 1} answered ${response.statusCode}: ${response.body}`);
      }
      expectTooMany(await call(), 60);
      expect((await test.as('calm-user').get('/api/me')).statusCode).toBe(200);
    });
  });

  describe('a small budget', () => {
    let test: TestApp;
    beforeAll(async () => {
      test = await startTestApp(kind, { rateLimit: { perUserPerMinute: 3, unauthenticatedPerMinute: 4 } });
    });
    afterAll(() => test?.close());

    it('counts every call of a user, whatever the call, and refuses the rest without doing anything', async () => {
      const user = test.as('writer');
      expect((await user.get('/api/deposits/retrieve-deposits')).statusCode).toBe(200);
      expect((await user.post('/api/deposits/add-deposit', VALID_DEPOSIT)).statusCode).toBe(200);
      expect((await user.get('/api/nothing-here')).statusCode).toBe(404);
      const before = await test.snapshot();
      expectTooMany(await user.post('/api/deposits/add-deposit', VALID_DEPOSIT), 60);
      expectTooMany(await user.put('/api/deposits/some-id', VALID_DEPOSIT), 60);
      // Turned away before the body is even read: a 429, not a 413.
      expectTooMany(await user.post('/api/deposits/add-deposit', { name: 'x'.repeat(BODY_LIMIT_BYTES) }), 60);
      expect(await test.snapshot()).toBe(before);
    });

    it('keys the budget by issuer and subject: every call above came with a new token, and a fresh user is unaffected', async () => {
      // UserClient signs a new token for every call: still the same user, still past the budget.
      expectTooMany(await test.as('writer').get('/api/me'), 60);
      const fresh = test.as('fresh');
      for (let index = 0; index < 3; index += 1) expect((await fresh.get('/api/me')).statusCode).toBe(200);
    });

    it('answers a flood of missing or refused tokens 429 per address, while signed-in users from that address go on', async () => {
      const bad = [
        undefined,
        'Bearer forged.token.here',
        `Bearer ${await test.issuer.token('x', { audience: 'https://elsewhere.example' })}`,
        'Basic eDp5',
      ];
      for (const authorization of bad) {
        const response = await test.app.inject({
          method: 'GET',
          url: '/api/me',
          headers: authorization === undefined ? {} : { authorization },
        });
        expect(response.statusCode, response.body).toBe(401);
        expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      }
      const flood = await test.app.inject({
        method: 'POST',
        url: '/api/deposits/add-deposit',
        headers: { authorization: 'Bearer a.b.c' },
        payload: VALID_DEPOSIT,
      });
      expectTooMany(flood, 60);
      expect(flood.json().error.message).toMatch(/without a valid access token/);
      // Same address (inject's 127.0.0.1), a good token: only bad tokens spend the address's budget.
      expect((await test.as('neighbour').get('/api/me')).statusCode).toBe(200);
    });

    it('does not charge a user for the bad tokens sent in their name', async () => {
      for (let index = 0; index < 10; index += 1) {
        await test.app.inject({
          method: 'GET',
          url: '/api/me',
          headers: { authorization: `Bearer ${await test.issuer.token('victim', { expiresInSeconds: -600 })}` },
        });
      }
      for (let index = 0; index < 3; index += 1) expect((await test.as('victim').get('/api/me')).statusCode).toBe(200);
    });
  });

  describe('a short window', () => {
    let test: TestApp;
    beforeAll(async () => {
      test = await startTestApp(kind, { rateLimit: { perUserPerMinute: 2, windowMs: 2_000 } });
    });
    afterAll(() => test?.close());

    it('gives a new budget once Retry-After has passed', async () => {
      const user = test.as('patient');
      for (let index = 0; index < 2; index += 1) expect((await user.get('/api/me')).statusCode).toBe(200);
      const over = await user.get('/api/me');
      expectTooMany(over, 2);
      expect(over.json().error.message).toContain('2 every 2 seconds');
      await new Promise((resolve) => setTimeout(resolve, Number(over.headers['retry-after']) * 1000));
      expect((await user.get('/api/me')).statusCode).toBe(200);
    });

    // PostgreSQL keeps the counters in the database (decision 0071): they must not grow with every key ever seen.
    if (kind === 'postgres') {
      it('keeps in the database only the counters of windows that have not ended', async () => {
        const counted = async () =>
          (await test.app.database.db.selectFrom('request_budget_counts').select('key_hash').where('budget', '=', 'user').execute()).length;
        await test.as('passing-1').get('/api/me');
        await test.as('passing-2').get('/api/me');
        expect(await counted()).toBeGreaterThanOrEqual(2);
        await new Promise((resolve) => setTimeout(resolve, 2_100));
        // The first call after a window's length sweeps the ended windows, beside the call, not before it.
        expect((await test.as('later').get('/api/me')).statusCode).toBe(200);
        await expect.poll(counted, { timeout: 2_000, interval: 50 }).toBe(1);
      });
    }
  });
});
