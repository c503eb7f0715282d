/**
 * Hostile input at every call (OWASP ASVS 1.2.4, 2.2): fast-check generates bad bodies (random JSON,
 * wrong types, huge and unicode strings, prototype-pollution keys, deep nesting, non-JSON text,
 * bodies over the limit), query strings and headers (odd content types, bad Authorization), and
 * sends them to every call. Every answer must be a refusal the contract names (400, 401, 404, 409,
 * 413; a read with a good token may answer 200), always the JSON error body with the security
 * headers, never a 5xx and never a leak; and the database must be byte-for-byte unchanged after.
 *
 * Bodies a call would accept are skipped, except on calls that name a row: those always name
 * another user's row or an unknown one, so even a valid body must change nothing. FUZZ_RUNS sets
 * the runs per call (100 in `npm test`, where CI keeps property runs modest; `npm run fuzz` runs 2000). A failure prints fast-check's seed and
 * the shrunk request, to replay with `fc.assert(..., { seed, path })`.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import crypto from 'node:crypto';
import type { HTTPMethods, InjectOptions, LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { BODY_LIMIT_BYTES } from '../../src/server/app.js';
import { API_CALLS, type ApiCall, callName, checkAnswer, registeredApiRoutes } from '../support/api-calls.js';
import { seedUser, type SeededUser } from '../support/seed.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

function fuzzRuns(): number {
  const runs = Number(process.env.FUZZ_RUNS ?? 100);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a whole number above 0, not ${process.env.FUZZ_RUNS}`);
  return runs;
}
const RUNS = fuzzRuns();

/** The contract's error body, with nothing else in it (no stack, no statusCode, no SQL). */
const strictErrorBody = strictErrorBodySchema;

/** What an internal detail looks like in text: a stack frame, a file, SQL, a driver's error code. */
const LEAK =
  /\n\s+at |\.(ts|js|mjs|cjs):\d+|node_modules|\bselect\b.+\bfrom\b|\binsert into\b|\bupdate\b.+\bset\b|\bSQLITE_|\bsyntax error at\b|\brelation "|\bkysely\b|\bpg\b/i;

const PROTOTYPE_KEYS_BEFORE = Object.getOwnPropertyNames(Object.prototype).sort();

// ---- generators ---------------------------------------------------------------------------------

/** Values that are wrong for nearly every field, and the near misses validation must still catch. */
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 90, maxLength: 140 }),
  fc.string({ minLength: 2_000, maxLength: 20_000 }),
  fc.constantFrom(
    '',
    '   ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\u202e\u200b',
    'NaN',
    'Infinity',
    '-0',
    '1e400',
    '12',
    '2026-02-30',
    '2026-13-01',
    '0000-00-00',
    '+02026-11-20',
    ' 2026-11-20',
    '2026-11-20T00:00:00Z',
    '1899-12-31',
    '99999-01-01',
    "'; DROP TABLE deposits; --",
    '" OR 1=1 --',
    '<script>alert(1)</script>',
    '{{7*7}}',
    '${7*7}',
    '../../etc/passwd',
  ),
  fc.constantFrom(
    0,
    -0,
    -1,
    0.001,
    1.005,
    99_999_999.995,
    100_000_000,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER,
    2 ** 53 + 1,
    5e-324,
    32,
    0.5,
    true,
    false,
    null,
  ),
  fc.constant([]),
  fc.constant({}),
);

/** Keys a client may add hoping something trusts them. */
const sneakyKey = fc.constantFrom(
  'id',
  'owner_iss',
  'owner_sub',
  'ownerSub',
  'balance',
  'status',
  'version',
  'ledger_id',
  'sequence',
  'created_at',
  'amount_cents',
  'isAdmin',
  'toString',
  'valueOf',
  'hasOwnProperty',
);

/** A valid body with some fields broken, dropped or added. */
function mutatedBody(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  return fc
    .record({
      broken: fc.subarray(keys, { minLength: 1 }),
      dropped: fc.subarray(keys),
      values: fc.array(badValue, { minLength: keys.length, maxLength: keys.length }),
      extra: fc.dictionary(sneakyKey, badValue, { maxKeys: 3 }),
    })
    .map(({ broken, dropped, values, extra }) => {
      const body: Record<string, unknown> = { ...extra, ...valid };
      broken.forEach((key, index) => (body[key] = values[index]));
      return Object.fromEntries(Object.entries(body).filter(([key]) => !dropped.includes(key)));
    });
}

/** JSON text of a body, raw: prototype-pollution keys only survive as text, never as an object literal. */
type RawBody = { readonly kind: 'json' | 'text'; readonly text: string };

function asJson(value: unknown): RawBody {
  return { kind: 'json', text: JSON.stringify(value) ?? 'null' };
}

function bodyText(valid: Record<string, unknown> | undefined): fc.Arbitrary<RawBody> {
  const base = valid ?? { name: 'x' };
  const inner = JSON.stringify(base).slice(1, -1);
  return fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue().map(asJson) },
    { weight: 6, arbitrary: mutatedBody(base).map(asJson) },
    // Wrapped in the shape some calls expect (create-ledger's { ledger }), broken inside.
    { weight: 1, arbitrary: mutatedBody(base).map((body) => asJson({ ledger: body })) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          `{"__proto__":{"polluted":true},${inner}}`,
          `{${inner},"__proto__":{"polluted":true}}`,
          `{${inner},"constructor":{"prototype":{"polluted":true}}}`,
          `{"ledger":{"__proto__":{"polluted":true}},${inner}}`,
          `{${inner},"nested":{"a":[{"__proto__":{"polluted":true}}]}}`,
          `{"constructor":{"prototype":{"polluted":true}}}`,
          `[{"__proto__":{"polluted":true}}]`,
        )
        .map((text): RawBody => ({ kind: 'json', text })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ depth: fc.integer({ min: 100, max: 30_000 }), shape: fc.constantFrom('array', 'object') })
        .map(({ depth, shape }): RawBody => ({
          kind: 'json',
          text: shape === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.constantFrom(
            '',
            ' ',
            'null',
            'undefined',
            '{',
            '{"name":',
            `{${inner}`,
            `\ufeff{${inner}}`,
            `{${inner},}`,
            `{/* c */${inner}}`,
            `{${inner}}{}`,
            "{'name':'x'}",
            'NaN',
            '1e999999',
            '"\\ud800"',
            `{${inner},${inner}}`,
          ),
        )
        .map((text): RawBody => ({ kind: 'text', text })),
    },
    // Over the body limit, as one huge field or as a huge array: 413 before anything reads it.
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: BODY_LIMIT_BYTES + 1, max: BODY_LIMIT_BYTES * 3 })
        .map((size) => asJson({ ...base, name: 'x'.repeat(size) })),
    },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 20_000 }).map((size) => asJson({ ...base, name: 'é'.repeat(size) })) },
  );
}

const BAD_TOKEN = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    '',
    'Bearer',
    'Bearer ',
    'Bearer null',
    'Basic YWxpY2U6c2VjcmV0',
    'Bearer a.b.c',
    'Bearer ...',
    'bearer x.y.z',
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 300 }).map((text) => text.replace(/[^\x20-\x7e]/g, '')),
  fc.stringMatching(/^Bearer [A-Za-z0-9_-]{0,40}\.[A-Za-z0-9_-]{0,60}\.[A-Za-z0-9_-]{0,40}$/),
);

const CONTENT_TYPE = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'APPLICATION/JSON',
      'application/vnd.api+json',
      'application/json, text/plain',
      'text/plain',
      'text/html',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=----x',
      'application/xml',
      'application/octet-stream',
      '*/*',
      '',
      'application/',
      ';',
      'application/json; boundary="',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((text) => text.replace(/[^\x20-\x7e]/g, '')) },
);

/** Content types the server cannot take for JSON: a body under them is refused whatever it holds. */
const NOT_JSON = new Set([
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/xml',
  'application/octet-stream',
]);

const HEADER_VALUE = fc.string({ unit: 'binary-ascii', maxLength: 120 }).map((text) => text.replace(/[^\x20-\x7e]/g, ''));
const EXTRA_HEADERS = fc.dictionary(
  fc.constantFrom(
    'accept',
    'accept-language',
    'accept-encoding',
    'content-encoding',
    'x-forwarded-for',
    'x-forwarded-proto',
    'x-forwarded-host',
    'x-http-method-override',
    'origin',
    'cookie',
    'if-none-match',
    'range',
    'x-request-id',
  ),
  HEADER_VALUE,
  { maxKeys: 3 },
);

const QUERY = fc.option(
  fc.oneof(
    fc
      .dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 40 }), { maxKeys: 4 })
      .map((entries) => new URLSearchParams(entries).toString()),
    fc.constantFrom(
      '__proto__[polluted]=1',
      'constructor[prototype][polluted]=1',
      'a=1&a=2&a[]=3',
      '%',
      'a=%E0%A4%A',
      '&&&==',
      'id=../../me',
      `x=${'y'.repeat(5_000)}`,
      'owner_sub=alice',
      'status=CLEARED',
    ),
  ),
);

/** An id in the path: another user's, unknown, malformed, or an attempt to leave the route. */
function pathId(foreignIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...foreignIds).map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.uuid().map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 80 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 65, maxLength: 400 }).map(encodeURIComponent) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%00',
        '%E0%A4%A',
        '%ZZ',
        '..%2F..%2Fme',
        '..',
        '.',
        'a%2Fb',
        'a/b',
        '',
        '%20',
        'null',
        'undefined',
        '__proto__',
        'constructor',
        '*',
        ';',
        '%F0%9F%98%80',
      ),
    },
  );
}

/** A row id in a body: another user's, unknown, or malformed; never the fuzzing user's own. */
function bodyId(foreignIds: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(fc.constantFrom(...foreignIds), fc.uuid(), fc.string({ maxLength: 80 }), badValue);
}

interface FuzzRequest {
  readonly method: HTTPMethods;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly validToken: boolean;
  readonly contentType: string | undefined;
  readonly headers: Record<string, string>;
  readonly body: RawBody | undefined;
}

// ---- checks --------------------------------------------------------------------------------------

/**
 * The answer's text as the client reads it: a random Accept-Encoding may have asked for brotli or
 * gzip (decision 0025), which the client undoes before reading.
 */
function decoded(response: LightMyRequestResponse): { readonly body: string; json(): unknown } {
  const encoding = response.headers['content-encoding'];
  const raw = response.rawPayload;
  const body =
    encoding === 'br'
      ? brotliDecompressSync(raw).toString('utf8')
      : encoding === 'gzip'
        ? gunzipSync(raw).toString('utf8')
        : encoding === 'deflate'
          ? inflateSync(raw).toString('utf8')
          : response.body;
  return { body, json: () => JSON.parse(body) as unknown };
}

function expectSafeAnswer(request: FuzzRequest, response: LightMyRequestResponse, call: ApiCall | undefined): void {
  const answer = decoded(response);
  const context = `${request.method} ${request.url.slice(0, 200)} → ${response.statusCode} ${answer.body.slice(0, 300)}`;
  expect(response.statusCode, context).toBeLessThan(500);
  // Security headers on every answer, refusals included.
  expect(response.headers['x-content-type-options'], context).toBe('nosniff');
  expect(String(response.headers['content-security-policy']), context).toContain("frame-ancestors 'none'");

  if (response.statusCode === 200) {
    // Only a read with a good token may succeed; its answer is the contract's, for that user.
    expect(request.method === 'GET' && request.validToken, context).toBe(true);
    if (call) checkAnswer(call, answer);
    return;
  }
  expect([400, 401, 404, 409, 413], context).toContain(response.statusCode);
  expect(response.headers['content-type'], context).toMatch(/^application\/json/);
  const body = strictErrorBody.parse(answer.json());
  const expectedCode = { 400: 'bad_request', 401: 'unauthorized', 404: 'not_found', 409: 'conflict', 413: 'payload_too_large' }[
    response.statusCode
  ];
  expect(body.error.code, context).toBe(expectedCode);
  expect([body.error.message, ...Object.values(body.error.fields ?? {})].join('\n'), context).not.toMatch(LEAK);
  if (response.statusCode === 401) expect(response.headers['www-authenticate'], context).toMatch(/^Bearer/);
  const oversize = request.body !== undefined && Buffer.byteLength(request.body.text) > (call?.bodyLimit ?? BODY_LIMIT_BYTES);
  const json = request.contentType === 'application/json' || request.contentType === 'application/json; charset=utf-8';
  if (oversize && json && request.validToken && request.method !== 'GET' && body.error.fields?.url === undefined) {
    // Bodies over the limit get 413, before anything reads them.
    expect(response.statusCode, context).toBe(413);
  }
  if (!request.validToken) {
    // Without a good token nothing gets further than the token check (an unreadable URL is refused even earlier).
    expect(response.statusCode === 401 || (response.statusCode === 400 && body.error.fields?.url !== undefined), context).toBe(true);
  }
}

describe.each(databaseKinds())('fuzzing every call on %s', (kind) => {
  let test: TestApp;
  let victim: SeededUser;
  let validToken: string;
  let before: string;

  beforeAll(async () => {
    test = await startTestApp(kind);
    victim = await seedUser(test.as('victim'), 'Victim');
    // The fuzzing user has data of their own, so the calls reach their rows and ledger before missing.
    await seedUser(test.as('fuzzer'), 'Fuzzer');
    // Their personal budget is stored the first time it is needed (decision 0088): before the run, so a listing changes nothing.
    expect((await test.as('fuzzer').get('/api/budgets')).statusCode).toBe(200);
    validToken = `Bearer ${await test.issuer.token('fuzzer', { expiresInSeconds: 3600 })}`;
    before = await test.snapshot();
  });
  afterAll(async () => {
    if (!test) return;
    try {
      // The whole run changed nothing, and no key reached Object.prototype.
      expect(await test.snapshot()).toBe(before);
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS_BEFORE);
    } finally {
      await test.close();
    }
  });

  function send(request: FuzzRequest): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...request.headers };
    if (request.authorization !== undefined) headers.authorization = request.authorization;
    if (request.contentType !== undefined) headers['content-type'] = request.contentType;
    const options: InjectOptions = { method: request.method, url: request.url, headers };
    if (request.body !== undefined) options.payload = request.body.text;
    return test.app.inject(options);
  }

  function authorization(): fc.Arbitrary<{ authorization: string | undefined; validToken: boolean }> {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant({ authorization: validToken, validToken: true }) },
      { weight: 1, arbitrary: BAD_TOKEN.map((value) => ({ authorization: value, validToken: false })) },
    );
  }

  /** True when the server could accept this body as a JSON body the call takes. */
  function wouldBeAccepted(call: ApiCall, request: FuzzRequest): boolean {
    if (!call.bodySchema || !request.body || !request.validToken) return false;
    if (request.contentType !== undefined && NOT_JSON.has(request.contentType)) return false;
    try {
      // The server's JSON parser drops a leading byte order mark, as RFC 8259 allows.
      return call.bodySchema.safeParse(JSON.parse(request.body.text.replace(/^\ufeff/, ''))).success;
    } catch {
      return false;
    }
  }

  function requests(call: ApiCall): fc.Arbitrary<FuzzRequest> {
    const foreignIds = [...victim.allIds, crypto.randomUUID()];
    const valid = call.validBody?.(victim.pending.id) as Record<string, unknown> | undefined;
    const body: fc.Arbitrary<RawBody | undefined> = call.validBody
      ? call.idPlace === 'body'
        ? // update-transaction: the valid shape with a foreign id, or any of the broken ones.
          fc.oneof(
            bodyId(foreignIds).map((id) => asJson({ ...valid, id })),
            bodyId(foreignIds).chain((id) => mutatedBody({ ...valid, id }).map(asJson)),
            bodyText(valid),
          )
        : bodyText(valid)
      : // Calls without a body still get one now and then: it must not confuse them.
        fc.option(bodyText({ name: 'x' }), { freq: 3 });
    // A "." or ".." id followed by more of the path is resolved by the client before it is sent
    // (URL dot segments): /api/accounts/../ledger/statements/import is the caller's own import on
    // /api/ledger, another call, not this one. A raw request with the literal ".." is this call's
    // with that id (a 404); the encoded traversals in pathId stay.
    const followedByMore = !call.route.endsWith(':id');
    const id = pathId(foreignIds).filter((each) => !(followedByMore && (each === '.' || each === '..')));
    const url = fc
      .record({ id: call.idPlace === 'path' ? id : fc.constant(''), query: QUERY })
      .map(({ id, query }) => `${call.route.replace(':id', id)}${query === null ? '' : `?${query}`}`);
    return fc
      .record({ url, auth: authorization(), contentType: CONTENT_TYPE, headers: EXTRA_HEADERS, body })
      .map(({ url: address, auth, contentType, headers, body: payload }) => ({
        method: call.method,
        url: address,
        ...auth,
        // A content type without a body means nothing; a body mostly comes with one.
        contentType: payload === undefined ? undefined : contentType,
        headers,
        body: payload ?? undefined,
      }));
  }

  it('fuzzes every call the API serves', () => {
    expect(API_CALLS.map(callName).sort()).toEqual(registeredApiRoutes(test.app));
  });

  it.each(API_CALLS.map((call) => [callName(call), call] as const))(
    `%s: ${RUNS} generated requests, all refused safely, nothing changed`,
    async (_name, call) => {
      const start = await test.snapshot();
      await fc.assert(
        fc.asyncProperty(requests(call), async (request) => {
          // A body this call would take adds a row: not the fuzzer's business (the API tests cover it).
          fc.pre(call.idPlace !== 'none' ? true : !wouldBeAccepted(call, request));
          expectSafeAnswer(request, await send(request), call);
        }),
        { numRuns: RUNS },
      );
      expect(await test.snapshot()).toBe(start);
    },
  );

  it(`unknown calls under /api: ${RUNS} generated methods and paths, all refused safely`, async () => {
    const start = await test.snapshot();
    const segment = fc.oneof(
      fc.constantFrom(
        'api',
        'me',
        'deposits',
        'expenses',
        'ledger',
        'transactions',
        'add-deposit',
        'retrieve-ledger',
        'update-transaction',
        '..',
        '%2e%2e',
        '',
        'oidc',
        'admin',
      ),
      fc.string({ maxLength: 20 }).map(encodeURIComponent),
    );
    const unknown = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
      path: fc.array(segment, { minLength: 1, maxLength: 5 }).map((segments) => `/api/${segments.join('/')}`),
      auth: authorization(),
      headers: EXTRA_HEADERS,
    });
    await fc.assert(
      fc.asyncProperty(unknown, async ({ method, path, auth, headers }) => {
        // inject() resolves dot segments as a browser would: /api/.. is the page at /, not an API call.
        fc.pre(new URL(path, 'http://leftover.test').pathname.startsWith('/api'));
        const known = API_CALLS.find((call) => call.method === method && new RegExp(`^${call.route.replace(':id', '[^/]+')}$`).test(path));
        // A generated path that is a real call with a body-less request is the real call: leave out
        // the writes (DELETE with another user's id is still fine: it must answer 404).
        fc.pre(!known || method === 'GET' || method === 'DELETE' || known.bodySchema !== undefined);
        const request: FuzzRequest = { method, url: path, ...auth, contentType: undefined, headers, body: undefined };
        expectSafeAnswer(request, await send(request), known);
      }),
      { numRuns: RUNS },
    );
    expect(await test.snapshot()).toBe(start);
  });
});
