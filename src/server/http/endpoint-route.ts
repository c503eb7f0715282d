/**
 * Routes registered from the endpoint table (decision 0036): a call's method, path, operationId and
 * summary come from its row (ENDPOINTS, contract/common.ts), its schemas (params, query, headers,
 * body, the 200 answer), its body limit and who may call it (decision 0088) from the row's schemas
 * (contract/endpoints.ts). A route file names the operation and gives its handler, and only what
 * is truly its own besides (a restore's validator). An account's ledger call is one row with two
 * paths (decision 0059): registerLedgerEndpoint registers both with one handler.
 */
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AliasedOperation, ApiOperation } from '../../contract/common.js';
import {
  aliasIdParameter,
  budgetPlaceOf,
  type ENDPOINT_SCHEMAS,
  type EndpointRoute,
  type FileAnswer,
  isFileAnswer,
  PERSON,
  routesOf,
} from '../../contract/endpoints.js';
import { routeInApi } from './api-scope.js';

/** The /api scope as its route plugins see it: zod schemas type every request and answer. */
type ZodApi = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/** A row's schemas as Fastify names them; a file answer has no schema to serialize with. */
type RouteSchema<Schemas> = {
  readonly [
    Key in keyof Schemas as Key extends 'params' | 'headers' | 'body' ? Key : Key extends 'query' ? 'querystring' : never
  ]: Schemas[Key];
} & (Schemas extends { readonly answer: infer Answer }
  ? Answer extends FileAnswer
    ? unknown
    : { readonly response: { readonly 200: Answer } }
  : unknown);

type SchemaOf<Operation extends ApiOperation> = RouteSchema<(typeof ENDPOINT_SCHEMAS)[Operation]>;

/** The handler of one operation: its request and its answer typed by the row's schemas. */
export type EndpointHandler<Operation extends ApiOperation> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<Operation>,
  ZodTypeProvider
>;

/** What a route may add to its row: a restore checks its body in a worker, not with the schema (decision 0031). */
type EndpointOptions<Operation extends ApiOperation> = Pick<
  RouteShorthandOptions<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    SchemaOf<Operation>,
    ZodTypeProvider
  >,
  'validatorCompiler'
>;

/** The operations without an alias: one path each. */
type PlainOperation = Exclude<ApiOperation, AliasedOperation>;

/** Registers the operation's route in the /api scope, as its row in the endpoint table says. */
export function registerEndpoint<Operation extends PlainOperation>(
  api: ZodApi,
  operation: Operation,
  handler: EndpointHandler<Operation>,
  options: EndpointOptions<Operation> = {},
): void {
  for (const route of routesOf(operation)) addRoute(api, route, handler, options);
}

/** Which account a ledger call acts on: the one its path names, or the primary one at its alias. */
export type PathAccount = 'primary' | { readonly id: string };

type HandlerRequest<Operation extends ApiOperation> = Parameters<EndpointHandler<Operation>>[0];
type HandlerReply<Operation extends ApiOperation> = Parameters<EndpointHandler<Operation>>[1];

/**
 * A ledger call's request at either of its paths: its path parameters but the account, which the
 * handler is given apart (`:id` at the row's path, the primary account at its alias).
 */
export type LedgerCallRequest<Operation extends AliasedOperation> = Omit<HandlerRequest<Operation>, 'params'> & {
  readonly params: Omit<HandlerRequest<Operation>['params'], 'id'>;
};

/** The one handler of a ledger call, for both its paths. */
export type LedgerEndpointHandler<Operation extends AliasedOperation> = (
  request: LedgerCallRequest<Operation>,
  reply: HandlerReply<Operation>,
  account: PathAccount,
) => ReturnType<EndpointHandler<Operation>>;

/**
 * Registers an account's ledger call at both its paths (decision 0059): the row's own
 * (`/api/accounts/:id/ledger/...`, the account its `:id` names) and its alias (`/api/ledger/...`,
 * the primary account), with one handler.
 */
export function registerLedgerEndpoint<Operation extends AliasedOperation>(
  api: ZodApi,
  operation: Operation,
  handler: LedgerEndpointHandler<Operation>,
  options: EndpointOptions<Operation> = {},
): void {
  const ownParameter = aliasIdParameter(operation);
  for (const route of routesOf(operation)) {
    const routeHandler: EndpointHandler<Operation> = route.atPrimary
      ? (request, reply) => {
          // The alias's `:id` is the row's own parameter under the row's name, so the handler reads
          // one name at both paths; Fastify's validation sets request.params the same way.
          if (ownParameter !== undefined) {
            const { id } = request.params as { readonly id: string };
            (request as { params: unknown }).params = { [ownParameter]: id };
          }
          return handler(request as unknown as LedgerCallRequest<Operation>, reply, 'primary');
        }
      : (request, reply) =>
          handler(request as unknown as LedgerCallRequest<Operation>, reply, { id: (request.params as { readonly id: string }).id });
    addRoute(api, route, routeHandler, options);
  }
}

/** Adds one route: its method, path and operationId, and its schemas, answer and body limit from the table. */
function addRoute<Operation extends ApiOperation>(
  api: ZodApi,
  route: EndpointRoute,
  handler: EndpointHandler<Operation>,
  options: EndpointOptions<Operation>,
): void {
  const { method, path, operationId, summary, params, query, headers, body, answer, bodyLimit, roles } = route;
  // Deny by default (decision 0088): a row that says nobody may call it is a mistake, refused at start.
  if (roles !== PERSON && (!Array.isArray(roles) || roles.length === 0)) {
    throw new Error(`${operationId} declares no role: every row of the endpoint table says who may call it (decision 0088)`);
  }
  const schemas = {
    ...(headers && { headers }),
    ...(query && { querystring: query }),
    ...(params && { params }),
    ...(body && { body }),
    ...(!isFileAnswer(answer) && { response: { 200: answer } }),
  };
  api.route<RouteGenericInterface, ContextConfigDefault, SchemaOf<Operation>>({
    method,
    url: routeInApi(path),
    // The same schemas the row's type names, gathered from the row at run time; the OpenAPI
    // document names the operation by operationId and says what it does in its summary.
    schema: { ...(schemas as SchemaOf<Operation>), operationId, summary },
    ...(bodyLimit !== undefined && { bodyLimit }),
    // Who may call it and which budget it acts on: the /api scope's hooks check both (api-scope.ts).
    config: { access: roles, budgetPlace: budgetPlaceOf(route) },
    ...options,
    handler,
  });
}
