/**
 * The endpoint table and the server agree (decision 0036): every row is a route the app registers,
 * with the row's method and path (and its alias on the primary account, decision 0059), and the
 * app has no other route behind the token check; each route has the row's schemas (as the OpenAPI
 * document, generated from the routes, shows them), the budget header where it acts on the header's
 * budget, and the row's body limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetPlaceOf, endpointRoutes, isFileAnswer } from '../../src/contract/endpoints.js';
import { BODY_LIMIT_BYTES } from '../../src/server/app.js';
import { OPENAPI_PATH } from '../../src/server/http/openapi.js';
import { registeredApiRoutes } from '../support/api-calls.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface Operation {
  readonly parameters?: readonly { readonly in?: string; readonly $ref?: string }[];
  readonly requestBody?: unknown;
  readonly responses: Record<string, { readonly content?: Record<string, unknown> }>;
}

describe.each(databaseKinds())('the endpoint table on %s', (kind) => {
  let test: TestApp;

  beforeAll(async () => {
    test = await startTestApp(kind);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('is what the app registers: every row (and alias) a route, and every /api route behind the token a row', () => {
    const rows = endpointRoutes().map(({ method, path }) => `${method} ${path}`);
    expect(new Set(rows).size).toBe(rows.length);
    expect(registeredApiRoutes(test.app)).toEqual([...rows].sort());
  });

  it("registers each row with the row's schemas: path, query and header parameters, body and answer", async () => {
    const document = (await test.app.inject({ method: 'GET', url: OPENAPI_PATH })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    for (const row of endpointRoutes()) {
      const operation = document.paths[row.path.replace(/:(\w+)/g, '{$1}')]?.[row.method.toLowerCase()];
      const places = new Set((operation?.parameters ?? []).map((parameter) => parameter.in));
      expect(
        { path: places.has('path'), query: places.has('query'), header: places.has('header'), body: operation?.requestBody !== undefined },
        row.operationId,
      ).toEqual({
        path: row.params !== undefined,
        query: row.query !== undefined,
        header: row.headers !== undefined,
        body: row.body !== undefined,
      });
      // The Leftover-Budget header (decision 0088): one shared parameter, on every call that acts on the budget it names.
      const budgetHeader = (operation?.parameters ?? []).some((parameter) => parameter.$ref === '#/components/parameters/LeftoverBudget');
      expect(budgetHeader, `${row.operationId}: Leftover-Budget`).toBe(budgetPlaceOf(row) === 'header');
      const answer = isFileAnswer(row.answer) ? row.answer.mediaType : 'application/json';
      expect(Object.keys(operation?.responses['200']?.content ?? {}), row.operationId).toEqual([answer]);
    }
  });

  it("takes a body over the app's limit only where the row gives its own", async () => {
    const user = test.as('endpoint-table');
    const overAppLimit = { fileName: 'statement.csv', content: 'x'.repeat(BODY_LIMIT_BYTES) };
    for (const row of endpointRoutes().filter((candidate) => candidate.body !== undefined)) {
      const response = await user.request(row.method, row.path.replace(':id', crypto.randomUUID()), overAppLimit);
      expect(response.statusCode === 413, `${row.operationId}: ${response.statusCode} ${response.body.slice(0, 200)}`).toBe(
        row.bodyLimit === undefined,
      );
    }
  });
});
