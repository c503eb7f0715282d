/**
 * Routes registered from the endpoint table (decision 0036): a call's method and path come from its
 * row (ENDPOINTS, contract/common.ts), its schemas (params, query, headers, body, the 200 answer)
 * and its body limit from the row's schemas (contract/endpoints.ts). A route file names the
 * operation and gives its handler, and only what is truly its own besides (a restore's validator).
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
import { type ApiOperation, ENDPOINTS } from '../../contract/common.js';
import { ENDPOINT_SCHEMAS, type EndpointSchemas, type FileAnswer, isFileAnswer } from '../../contract/endpoints.js';
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

/** Registers the operation's route in the /api scope, as its row in the endpoint table says. */
export function registerEndpoint<Operation extends ApiOperation>(
  api: ZodApi,
  operation: Operation,
  handler: EndpointHandler<Operation>,
  options: EndpointOptions<Operation> = {},
): void {
  const { method, path } = ENDPOINTS[operation];
  const { params, query, headers, body, answer, bodyLimit }: EndpointSchemas = ENDPOINT_SCHEMAS[operation];
  const schema = {
    ...(headers && { headers }),
    ...(query && { querystring: query }),
    ...(params && { params }),
    ...(body && { body }),
    ...(!isFileAnswer(answer) && { response: { 200: answer } }),
  };
  api.route<RouteGenericInterface, ContextConfigDefault, SchemaOf<Operation>>({
    method,
    url: routeInApi(path),
    // The same schemas the row's type names, gathered from the row at run time.
    schema: schema as SchemaOf<Operation>,
    ...(bodyLimit !== undefined && { bodyLimit }),
    ...options,
    handler,
  });
}
