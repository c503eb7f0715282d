/**
 * Forged and stale tokens through the real API (OWASP ASVS 9.1-9.2, 10.3): every call, every bad
 * token, answers 401 with WWW-Authenticate: Bearer and the JSON error body, runs no query at all
 * and leaves the database exactly as it was. The token check itself has unit tests beside it
 * (src/server/auth/access-token.test.ts); these prove it guards every door.
 */
import crypto from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { API_CALLS, type ApiCall, callName, checkAnswer, registeredApiRoutes } from '../support/api-calls.js';
import { QueryCounter } from '../support/database-snapshot.js';
import { seedUser, type SeededUser } from '../support/seed.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const VICTIM = 'alice';
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

interface ForgedToken {
  readonly label: string;
  /** The whole Authorization header, or undefined to send none. */
  readonly authorization: string | undefined;
}

async function forgedTokens(test: TestApp): Promise<ForgedToken[]> {
  const { issuer } = test;
  const valid = await issuer.token(VICTIM);
  const [validHeader, validPayload, validSignature] = valid.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(validPayload, 'base64url').toString()) as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);

  const hs256With = (secret: string | Buffer) => {
    const header = base64url({ alg: 'HS256', typ: 'at+jwt', kid: issuer.publicJwk.kid });
    const signature = crypto.createHmac('sha256', secret).update(`${header}.${validPayload}`).digest('base64url');
    return `${header}.${validPayload}.${signature}`;
  };
  const publicPem = crypto.createPublicKey({ key: issuer.publicJwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' });

  // A forger's own key pair, presented under the provider's key id.
  const forger = await generateKeyPair('RS256');
  const forgedSignature = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: issuer.publicJwk.kid })
    .sign(forger.privateKey);

  const bearer = (token: string) => `Bearer ${token}`;
  return [
    { label: 'no Authorization header', authorization: undefined },
    { label: 'an empty Authorization header', authorization: '' },
    { label: 'Bearer with no token', authorization: 'Bearer ' },
    { label: 'a token that is not a JWT', authorization: 'Bearer not-a-jwt' },
    { label: 'three segments of garbage', authorization: 'Bearer aaa.bbb.ccc' },
    { label: 'Basic credentials', authorization: `Basic ${Buffer.from(`${VICTIM}:secret`).toString('base64')}` },
    { label: 'a valid token under another scheme name', authorization: `Token ${valid}` },
    // A lowercase scheme is fine (RFC 9110, issue 34); the second space is not.
    { label: 'a valid token with two spaces after a lowercase scheme', authorization: `bearer  ${valid}` },
    { label: 'a valid token with a trailing extra segment', authorization: bearer(`${valid}.extra`) },
    { label: 'alg none, no signature', authorization: bearer(`${base64url({ alg: 'none', typ: 'at+jwt' })}.${validPayload}.`) },
    {
      label: 'alg none, signature kept',
      authorization: bearer(`${base64url({ alg: 'none', typ: 'at+jwt' })}.${validPayload}.${validSignature}`),
    },
    { label: 'HS256 keyed with the public JWK', authorization: bearer(hs256With(JSON.stringify(issuer.publicJwk))) },
    { label: 'HS256 keyed with the public PEM', authorization: bearer(hs256With(publicPem)) },
    {
      label: 'payload changed, signature kept (another subject)',
      authorization: bearer(`${validHeader}.${base64url({ ...claims, sub: 'bob' })}.${validSignature}`),
    },
    {
      label: 'payload changed, signature kept (later expiry)',
      authorization: bearer(`${validHeader}.${base64url({ ...claims, exp: now + 86_400 })}.${validSignature}`),
    },
    { label: 'signed by a forger key under the provider key id', authorization: bearer(forgedSignature) },
    { label: 'expired', authorization: bearer(await issuer.token(VICTIM, { expiresInSeconds: -120 })) },
    { label: 'without an expiry', authorization: bearer(await issuer.token(VICTIM, { omitExpiry: true })) },
    { label: 'not yet valid', authorization: bearer(await issuer.token(VICTIM, { claims: { nbf: now + 120 } })) },
    { label: 'from another issuer', authorization: bearer(await issuer.token(VICTIM, { issuer: 'https://evil.example' })) },
    { label: 'for another audience', authorization: bearer(await issuer.token(VICTIM, { audience: 'https://other-api.example' })) },
    { label: 'an ID token (typ JWT)', authorization: bearer(await issuer.token(VICTIM, { typ: 'JWT' })) },
    { label: 'an unknown key id', authorization: bearer(await issuer.token(VICTIM, { kid: 'unknown-key' })) },
    { label: 'an empty subject', authorization: bearer(await issuer.token('')) },
  ];
}

describe.each(databaseKinds())('forged and stale tokens on %s', (kind) => {
  const queries = new QueryCounter();
  let test: TestApp;
  let victim: SeededUser;
  /** The victim's personal budget (decision 0088): a budget's calls name it, so only the token stands in the way. */
  let personalBudgetId: string;
  let tokens: ForgedToken[];

  beforeAll(async () => {
    test = await startTestApp(kind, { queryObserver: queries });
    victim = await seedUser(test.as(VICTIM), 'Victim');
    personalBudgetId = (await test.as(VICTIM).get('/api/budgets')).json<{ budgets: { id: string }[] }>().budgets[0]?.id ?? '';
    tokens = await forgedTokens(test);
  });
  afterAll(() => test?.close());

  /** The victim's own id for calls that name a row, so only the token stands in the way. */
  function request(call: ApiCall, authorization: string | undefined) {
    const id = call.route.startsWith('/api/accounts/')
      ? victim.accountId
      : call.route.startsWith('/api/budgets/')
        ? personalBudgetId
        : call.route.includes('transaction')
          ? victim.pending.id
          : call.route.includes('expenses')
            ? (victim.expenseIds[0] ?? '')
            : (victim.depositIds[0] ?? '');
    const body = call.validBody?.(id);
    return test.app.inject({
      method: call.method,
      url: call.url(id),
      headers: {
        ...(authorization === undefined ? {} : { authorization }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }

  it('covers every call the API serves', () => {
    expect(API_CALLS.map(callName).sort()).toEqual(registeredApiRoutes(test.app));
  });

  it.each(API_CALLS.map((call) => [callName(call), call] as const))(
    '%s: every forged or stale token answers 401, reads and writes nothing',
    async (_name, call) => {
      const before = await test.snapshot();
      for (const token of tokens) {
        const queriesBefore = queries.count;
        const response = await request(call, token.authorization);
        expect(response.statusCode, `${token.label}: ${response.body}`).toBe(401);
        expect(response.headers['www-authenticate'], token.label).toMatch(/^Bearer( |$)/);
        expect(response.headers['content-type'], token.label).toMatch(/^application\/json/);
        const body = strictErrorBodySchema.parse(response.json());
        expect(body.error.code, token.label).toBe('unauthorized');
        expect(queries.count, `${token.label} ran a query`).toBe(queriesBefore);
      }
      expect(await test.snapshot()).toBe(before);
    },
  );

  it('lets the real token through on every call that only reads: the refusals above were the token, not the setup', async () => {
    const valid = `Bearer ${await test.issuer.token(VICTIM)}`;
    // The push key reads no database (it is the server's, in memory), and answers 404 where push is not offered;
    // the stream of changes answers only a client that asks for a stream (tests/api/live-changes.test.ts).
    for (const call of API_CALLS.filter(
      (candidate) => candidate.method === 'GET' && candidate.operation !== 'getPushKey' && candidate.operation !== 'streamChanges',
    )) {
      const queriesBefore = queries.count;
      const response = await request(call, valid);
      expect(response.statusCode, `${callName(call)}: ${response.body}`).toBe(200);
      checkAnswer(call, response);
      // The counter does see the app's queries: zero above means none ran.
      expect(queries.count).toBeGreaterThan(queriesBefore);
    }
    const ledger = await request(API_CALLS.find((call) => call.route === '/api/ledger/retrieve-ledger') as ApiCall, valid);
    expect(JSON.stringify(ledger.json())).toContain(victim.pending.id);
  });

  it('reads the scheme in any case, as RFC 9110 says: bearer and BEARER are the caller too (issue 34)', async () => {
    const token = await test.issuer.token(VICTIM);
    for (const scheme of ['bearer', 'BEARER']) {
      const response = await test.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `${scheme} ${token}` } });
      expect(response.statusCode, `${scheme}: ${response.body}`).toBe(200);
      expect(response.json()).toMatchObject({ subject: VICTIM });
    }
  });

  it('fetches the key set at most once more for a flood of unknown key ids', async () => {
    const before = test.issuer.jwksFetches();
    const authorization = `Bearer ${await test.issuer.token(VICTIM, { kid: `made-up-${crypto.randomUUID()}` })}`;
    const answers = await Promise.all(Array.from({ length: 50 }, () => request(API_CALLS[0] as ApiCall, authorization)));
    expect(answers.every((answer) => answer.statusCode === 401)).toBe(true);
    expect(test.issuer.jwksFetches() - before).toBeLessThanOrEqual(1);
  });
});
