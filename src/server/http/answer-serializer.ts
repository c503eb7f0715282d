/**
 * How every answer leaves the server: checked against its response schema (a route can never
 * send a field the contract does not name), then JSON text.
 *
 * fastify-type-provider-zod's own serializer checks answers with zod's `safeEncode`, which runs
 * codecs backwards; the contract has no codecs, and encoding took twice as long as parsing the
 * same value (3.9 against 1.9 ms for a 2,000-row ledger, measured with zod 4 on Node 20). With no
 * codecs the two give the same result, so answers are checked with `safeParse`.
 */
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeParse } from 'zod/v4/core';

export const answerSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  if (!(schema instanceof $ZodType)) throw new Error(`The response schema of ${method} ${url} is not a zod schema.`);
  return (data) => {
    const result = safeParse(schema, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
