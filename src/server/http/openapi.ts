/**
 * GET /api/openapi.json (issue 16): an OpenAPI 3.1 description of every /api call, generated from
 * the zod schemas the routes validate and answer with, so it cannot drift from them.
 * @fastify/swagger describes the routes; fastify-type-provider-zod turns their schemas into JSON
 * Schema 2020-12; this module adds what routes do not carry themselves: the bearer scheme, the
 * error body every refusal answers with, and the media type of each file the endpoint table's
 * rows answer with (decision 0036).
 *
 * Nothing of that runs at start (docs/decisions/0041-start-fast-idle-light.md): the app only
 * records its /api routes as they are added; the first request of the document loads
 * @fastify/swagger, hands it those routes in a scratch Fastify instance, and keeps the text.
 */
import type { FastifyDynamicSwaggerOptions, SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { toJSONSchema } from 'zod/v4/core';
import { API_PREFIX } from '../../contract/common.js';
import { BUDGET_HEADER } from '../../contract/budgets.js';
import { budgetPlaceOf, endpointRoutes, type FileAnswer, isFileAnswer } from '../../contract/endpoints.js';
import { errorBodySchema } from '../../contract/errors.js';

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/** The contract's version as scripts see it: raise it when a call changes in a way old scripts would notice. */
const API_VERSION = '1.0.0';
const BEARER = 'bearerAuth';
const ERROR_BODY_REF = '#/components/schemas/ErrorBody';
const BUDGET_PARAMETER = 'LeftoverBudget';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

interface MediaType {
  schema: unknown;
}
interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
}
interface OperationObject {
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  responses?: Record<string, ResponseObject>;
  [key: string]: unknown;
}
type PathItem = Partial<Record<(typeof METHODS)[number], OperationObject>> & Record<string, unknown>;

/** "get /api/ledger/export.csv" (`:id` as `{id}`, as the document spells paths) for each route answering a file. */
function fileAnswers(): Map<string, FileAnswer> {
  const files = new Map<string, FileAnswer>();
  for (const { method, path, answer } of endpointRoutes()) {
    if (isFileAnswer(answer)) files.set(`${method.toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`, answer);
  }
  return files;
}

/** "get /api/deposits/retrieve-deposits" for each route that acts on the budget the Leftover-Budget header names (decision 0088). */
function budgetHeaderRoutes(): Set<string> {
  return new Set(
    endpointRoutes()
      .filter((route) => budgetPlaceOf(route) === 'header')
      .map(({ method, path }) => `${method.toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`),
  );
}

/** Only /api is the scriptable API; the page, sign-in and the probes stay out of the document. */
const transform: SwaggerTransform = (input) => {
  if (!input.url.startsWith(`${API_PREFIX}/`)) return { schema: { hide: true }, url: input.url };
  return jsonSchemaTransform(input);
};

function errorBodyJsonSchema(): Record<string, unknown> {
  // The document names its dialect once (jsonSchemaDialect); a $schema per component would repeat it.
  const schema: Record<string, unknown> = { ...toJSONSchema(errorBodySchema, { target: 'draft-2020-12', io: 'output' }) };
  delete schema.$schema;
  return schema;
}

const errorResponse = (description: string): ResponseObject => ({
  description,
  content: { 'application/json': { schema: { $ref: ERROR_BODY_REF } } },
});

const transformObject: SwaggerTransformObject = (documentObject) => {
  const files = fileAnswers();
  const inBudget = budgetHeaderRoutes();
  const generated = jsonSchemaTransformObject(documentObject);
  const paths = (generated.paths ?? {}) as Record<string, PathItem>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses = operation.responses ?? {};
      if (path === OPENAPI_PATH) {
        // The description of the API holds nobody's data, so fetching it needs no token.
        operation.security = [];
        responses['200'] = { description: 'This document.', content: { 'application/json': { schema: { type: 'object' } } } };
        // The edge's one refusal of a call without a token (edge.ts), so no operation lacks its 4XX.
        responses['4XX'] = errorResponse(
          'Refused: 400 a request without a Host header, 421 in production one naming a host this server does not answer for.',
        );
      } else {
        responses['4XX'] = errorResponse(
          "Refused: 400 a bad request (fields names each bad field), 401 a missing or refused token, 403 a call your role in the budget does not allow (a viewer's change, an owner's call), 404 no such row or budget, 409 a conflict, 410 something that could be done once and no longer can (an invitation used, revoked or expired; an undo past its time), 412 a ledger write whose If-Match names a version the ledger is no longer at, 413 a body over the limit, 421 in production a host this server does not answer for, 429 past the request budget, or past an email address's mail limit (see Retry-After).",
        );
        responses['5XX'] = errorResponse('The server failed; the message says nothing of its internals.');
      }
      // The budget it acts on: one shared parameter, so every such operation documents the header alike.
      if (inBudget.has(`${method} ${path}`))
        operation.parameters = [...(operation.parameters ?? []), { $ref: `#/components/parameters/${BUDGET_PARAMETER}` }];
      const file = files.get(`${method} ${path}`);
      if (file) responses['200'] = { description: file.description, content: { [file.mediaType]: { schema: { type: 'string' } } } };
      operation.responses = responses;
    }
  }
  // Only an OpenAPI 3 document has components; this one always is (openapi: '3.1.0' below).
  const components: { schemas?: Record<string, unknown> } = ('components' in generated && generated.components) || {};
  return {
    ...generated,
    paths,
    components: {
      ...components,
      schemas: { ...components.schemas, ErrorBody: errorBodyJsonSchema() },
      parameters: {
        [BUDGET_PARAMETER]: {
          name: BUDGET_HEADER,
          in: 'header',
          required: false,
          description:
            'The budget the call acts on: the id of one of your budgets (GET /api/budgets). Left out, your personal budget. A budget you are not a member of answers 404 and changes nothing.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9-]{1,64}$' },
        },
      },
      securitySchemes: {
        [BEARER]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token from the sign-in provider (README, "Scripting the API").',
        },
      },
    },
    security: [{ [BEARER]: [] }],
  } as ReturnType<SwaggerTransformObject>;
};

const SWAGGER_OPTIONS: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Leftover API',
      version: API_VERSION,
      description:
        'Will I make it to payday, and what is left over? Every call answers JSON; amounts are dollars with at most two decimals.',
      // The project grants no licence (package.json is private and names none): said plainly, so
      // a client generated from this document does not guess one (decision 0059).
      license: { name: 'UNLICENSED: no licence is granted' },
    },
    // Relative: the API is wherever this document was fetched from, whatever PUBLIC_URL says.
    servers: [{ url: '/', description: 'The server this document was fetched from' }],
  },
  transform,
  transformObject,
};

/**
 * The document of the recorded routes: @fastify/swagger learns routes as they are added, and the
 * app is past adding any, so they are added again to a scratch instance that only describes them.
 */
async function describeRoutes(routes: readonly RouteOptions[]): Promise<string> {
  const { default: swagger } = await import('@fastify/swagger');
  const scratch = Fastify({ logger: false });
  // The app compiled and checks these schemas; the scratch instance only reads them.
  scratch.setValidatorCompiler(() => () => true);
  scratch.setSerializerCompiler(() => (data) => JSON.stringify(data));
  try {
    await scratch.register(swagger, SWAGGER_OPTIONS);
    for (const { method, url, schema, config } of routes) {
      scratch.route({
        method,
        url,
        exposeHeadRoute: false,
        handler: async () => undefined,
        ...(schema ? { schema } : {}),
        ...(config ? { config } : {}),
      });
    }
    await scratch.ready();
    return JSON.stringify(scratch.swagger());
  } finally {
    await scratch.close();
  }
}

/** Records the API's routes and serves their document; must run before any route is added. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const routes: RouteOptions[] = [];
  // As @fastify/swagger itself would: every route but the HEAD routes Fastify adds beside GETs.
  // Only /api is the scriptable API; the page, sign-in and the probes stay out of the document.
  app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD' && route.url.startsWith(`${API_PREFIX}/`)) routes.push(route);
  });

  let document: Promise<string> | undefined;
  // Not a row of the endpoint table (it needs no token), so it names its own operation here.
  const schema = { operationId: 'getOpenApiDocument', summary: 'This document: the API described in OpenAPI 3.1' };
  app.get(OPENAPI_PATH, { schema }, async (_request, reply) => {
    document ??= describeRoutes(routes).catch((error: unknown) => {
      document = undefined;
      throw error;
    });
    return reply
      .header('Cache-Control', 'no-store')
      .type('application/json; charset=utf-8')
      .send(await document);
  });
}
