/**
 * GET /api/openapi.json (issue 16): served without a token, OpenAPI 3.1, one operation for every
 * route the app registers, and the document is true: real answers of the API, refusals included,
 * and the bodies the other API tests send validate against it with a JSON Schema 2020-12 validator.
 * Every operation is named as the endpoint table names it, says what it does in a summary, and the
 * document passes @redocly/cli's recommended rules (issue 33, decision 0059).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointRoutes } from '../../src/contract/endpoints.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EVENT_STREAM_TYPE } from '../../src/contract/live-changes.js';
import { OPENAPI_PATH } from '../../src/server/http/openapi.js';
import { API_CALLS, type ApiCall, callName, PUBLIC_API_ROUTES, registeredApiRoutes, VALID_DEPOSIT } from '../support/api-calls.js';
import { seedUser, type SeededUser } from '../support/seed.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface Operation {
  readonly operationId?: string;
  readonly summary?: string;
  readonly security?: unknown;
  readonly requestBody?: { readonly content: Record<string, { readonly schema: unknown }> };
  readonly responses: Record<string, { readonly content?: Record<string, { readonly schema: unknown }> }>;
}
interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly license?: { readonly name: string } };
  readonly servers?: readonly { readonly url: string }[];
  readonly security: unknown;
  readonly components: { readonly schemas: Record<string, unknown>; readonly securitySchemes: Record<string, unknown> };
  readonly paths: Record<string, Record<string, Operation>>;
}

/** "PATCH /api/ledger/transactions/:id" as the document's path ("/api/ledger/transactions/{id}") and method. */
function operationOf(document: OpenApiDocument, route: string): Operation | undefined {
  const [method = '', path = ''] = route.split(' ');
  return document.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
}

/** The release pinned in package.json: newer ones want Node 22.12 (decision 0059). */
const REDOCLY_CLI = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: readonly { readonly ruleId: string; readonly severity: string; readonly message: string }[];
}

/** `redocly lint` with its recommended rules on the document as served; its JSON report. */
async function redoclyLint(documentText: string): Promise<LintReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, documentText);
    const args = [REDOCLY_CLI, 'lint', '--extends', 'recommended', '--format', 'json', file];
    // No telemetry and no update check: a test sends nothing anywhere.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
    // It exits 1 when it finds errors; the report on stdout says which either way.
    const stdout = await promisify(execFile)(process.execPath, args, { env, maxBuffer: 16 * 1024 * 1024 }).then(
      (result) => result.stdout,
      (error: unknown) => (error instanceof Error && 'stdout' in error ? String(error.stdout) : Promise.reject(error)),
    );
    return JSON.parse(stdout) as LintReport;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A JSON pointer into the document, for `$ref`s the validator resolves against the whole of it. */
function pointer(...segments: string[]): string {
  return `openapi.json#/${segments.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

describe.each(databaseKinds())('the OpenAPI document on %s', (kind) => {
  let test: TestApp;
  let victim: SeededUser;
  /** The victim's personal budget (decision 0088), whose members and invitations the reads list. */
  let personalBudgetId: string;
  let document: OpenApiDocument;
  let documentText: string;
  // The document itself holds OpenAPI fields (info, paths) that are not JSON Schema keywords, hence not strict.
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  /** Throws with the validator's reasons unless `value` is valid under the schema the pointer names. */
  function expectValid(ref: string, value: unknown, label: string): void {
    const validate = ajv.compile({ $ref: ref });
    const valid = validate(value);
    expect(valid ? [] : validate.errors, `${label} against ${ref}`).toEqual([]);
  }

  function answerRef(call: ApiCall | string, status: '200' | '4XX', mediaType = 'application/json'): string {
    const route = typeof call === 'string' ? call : callName(call);
    const [method = '', path = ''] = route.split(' ');
    return pointer('paths', path.replace(/:(\w+)/g, '{$1}'), method.toLowerCase(), 'responses', status, 'content', mediaType, 'schema');
  }

  beforeAll(async () => {
    test = await startTestApp(kind);
    victim = await seedUser(test.as('openapi-victim'), 'openapi');
    personalBudgetId = (await test.as('openapi-victim').get('/api/budgets')).json<{ budgets: { id: string }[] }>().budgets[0]?.id ?? '';
    const response = await test.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(response.statusCode, response.body).toBe(200);
    documentText = response.body;
    document = response.json<OpenApiDocument>();
    ajv.addSchema(document, 'openapi.json');
  });
  afterAll(async () => {
    await test?.close();
  });

  it('is served without a token, as OpenAPI 3.1 with the bearer scheme, and is the same for everyone', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(operationOf(document, `GET ${OPENAPI_PATH}`)?.security).toEqual([]);
    // Nobody's data: a signed-in caller gets the very same text.
    const signedIn = await test.as('openapi-victim').get(OPENAPI_PATH);
    expect(signedIn.body).toBe(documentText);
    expect(documentText).not.toContain(victim.pending.id);
  });

  it('has an operation for every route the API registers, with its body and answer schemas and the error body', () => {
    const routes = registeredApiRoutes(test.app, { includePublic: true });
    expect(routes).toEqual([...API_CALLS.map(callName), ...PUBLIC_API_ROUTES].sort());
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.sort()).toEqual(routes);
    for (const call of API_CALLS) {
      const operation = operationOf(document, callName(call));
      const answer = operation?.responses['200']?.content?.[call.answerMediaType]?.schema;
      expect(answer, `${callName(call)}: answer schema`).toBeDefined();
      if (call.bodySchema) expect(operation?.requestBody?.content['application/json']?.schema, `${callName(call)}: body`).toBeDefined();
      for (const status of ['4XX', '5XX']) {
        expect(operation?.responses[status]?.content?.['application/json']?.schema, `${callName(call)} ${status}`).toEqual({
          $ref: '#/components/schemas/ErrorBody',
        });
      }
    }
  });

  it('names every operation as the endpoint table does, says what each does, and names its servers and license', () => {
    const routes = new Map(endpointRoutes().map((route) => [`${route.method} ${route.path}`, route]));
    const operationIds: string[] = [];
    for (const [route, operation] of Object.entries(document.paths).flatMap(([documentPath, item]) =>
      Object.entries(item).map(
        ([method, described]) => [`${method.toUpperCase()} ${documentPath.replace(/\{(\w+)\}/g, ':$1')}`, described] as const,
      ),
    )) {
      const row = routes.get(route);
      // The document's own call is not a row of the table (it needs no token).
      expect(operation.operationId, route).toBe(row?.operationId ?? 'getOpenApiDocument');
      if (row) expect(operation.summary, route).toBe(row.summary);
      expect(operation.summary, route).toMatch(/^[^\n]{5,100}$/);
      operationIds.push(operation.operationId ?? '');
    }
    expect(operationIds).toHaveLength(routes.size + 1);
    expect(new Set(operationIds).size).toBe(operationIds.length);
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(document.info.license?.name).toMatch(/\S/);
  });

  it('passes @redocly/cli lint with its recommended rules: no errors', async () => {
    const report = await redoclyLint(documentText);
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('takes the bodies the API tests send as valid requests', () => {
    for (const call of API_CALLS) {
      if (!call.validBody) continue;
      const ref = pointer(
        'paths',
        callName(call)
          .split(' ')[1]
          ?.replace(/:(\w+)/g, '{$1}') ?? '',
        call.method.toLowerCase(),
      );
      expectValid(`${ref}/requestBody/content/application~1json/schema`, call.validBody(victim.pending.id), callName(call));
    }
  });

  it("describes every read's real answer, a write's answer and the refusals", async () => {
    const user = test.as('openapi-victim');
    // The push key is there only where push is offered (a push sender, decision 0051); elsewhere its 404 is the error body's.
    const pushOffered = (await user.get('/api/notifications')).json<{ available: string[] }>().available.includes('PUSH');
    if (!pushOffered) {
      const refused = await user.get('/api/notifications/push-key');
      expect(refused.statusCode).toBe(404);
      expectValid(answerRef('GET /api/notifications/push-key', '4XX'), refused.json(), 'push-key without push');
    }
    for (const call of API_CALLS.filter(
      (candidate) => candidate.method === 'GET' && (pushOffered || candidate.operation !== 'getPushKey'),
    )) {
      // An account's ledger is named by its account's id, a budget's members and invitations by the budget's, every other read by a row's.
      const id = call.route.startsWith('/api/accounts/')
        ? victim.accountId
        : call.route.startsWith('/api/budgets/')
          ? personalBudgetId
          : victim.pending.id;
      const response = await user.get(call.url(id));
      if (call.answerMediaType === EVENT_STREAM_TYPE) {
        // A stream is for a client that asks for one (tests/api/live-changes.test.ts reads it); any other GET is refused at once.
        expect(response.statusCode, `${callName(call)}: ${response.body}`).toBe(400);
        expectValid(answerRef(call, '4XX'), response.json(), callName(call));
        continue;
      }
      expect(response.statusCode, `${callName(call)}: ${response.body}`).toBe(200);
      if (call.answerIsText) {
        expect(response.headers['content-type']).toMatch(/^text\/csv/);
        expectValid(answerRef(call, '200', 'text/csv'), response.body, callName(call));
      } else {
        expectValid(answerRef(call, '200'), response.json(), callName(call));
      }
    }
    const added = await user.post(DEPOSITS_PATHS.add, VALID_DEPOSIT);
    expect(added.statusCode, added.body).toBe(200);
    expectValid(answerRef(`POST ${DEPOSITS_PATHS.add}`, '200'), added.json(), 'add-deposit');

    const refusals = [
      await test.app.inject({ method: 'GET', url: LEDGER_PATHS.retrieve }),
      await user.post(DEPOSITS_PATHS.add, { ...VALID_DEPOSIT, amount: 'lots' }),
      await user.delete(`/api/deposits/${crypto.randomUUID()}`),
      await test.as('openapi-nobody').get(LEDGER_PATHS.forecast),
    ];
    expect(refusals.map((response) => response.statusCode)).toEqual([401, 400, 404, 404]);
    for (const response of refusals) expectValid(answerRef(`GET ${LEDGER_PATHS.retrieve}`, '4XX'), response.json(), response.body);
    // The validator is not lenient: a field the contract does not name is refused.
    const answer = (await user.get(LEDGER_PATHS.retrieve)).json<Record<string, unknown>>();
    expect(ajv.compile({ $ref: answerRef(`GET ${LEDGER_PATHS.retrieve}`, '200') })({ ...answer, extra: 1 })).toBe(false);
  });
});
