/**
 * How every answer leaves the server: checked against its response schema (a route can never
 * send a field the contract does not name), then JSON text.
 *
 * fastify-type-provider-zod's own serializer checks answers with zod's `safeEncode`, which runs
 * codecs backwards; the contract has no codecs, and encoding took twice as long as parsing the
 * same value (3.9 against 1.9 ms for a 2,000-row ledger, measured with zod 4 on Node 20). With no
 * codecs the two give the same result, so answers are checked with `safeParse`.
 *
 * A long answer (a 20,000-row ledger) is checked and written in slices before the serializer runs
 * (`answerInSlices`, from a preSerialization hook), giving way to other requests between them: in
 * one piece its check and text held the thread every user is served on for about 200 ms (issue 34).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest, FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeParse } from 'zod/v4/core';

/** An answer already checked against its schema and written, slice by slice: the serializer sends its text as it is. */
class CheckedAnswerText {
  constructor(readonly text: string) {}
}

export const answerSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  if (!(schema instanceof $ZodType)) throw new Error(`The response schema of ${method} ${url} is not a zod schema.`);
  return (data) => {
    if (data instanceof CheckedAnswerText) return data.text;
    const result = safeParse(schema, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};

/** Items checked and written at a time: about 5 ms of a ledger's rows on this machine. */
const SLICE_ITEMS = 1_000;
/** How deep in an answer a long array is looked for: a ledger's rows are two objects down. */
const DEEPEST = 4;

type Path = readonly string[];

/** The object schema's fields, the array's items and what a nullable or optional wraps, as zod's own definition names them. */
interface SchemaDefinition {
  readonly type: string;
  readonly shape?: Readonly<Record<string, $ZodType>>;
  readonly element?: $ZodType;
  readonly innerType?: $ZodType;
  readonly checks?: readonly unknown[];
}

function definitionOf(schema: $ZodType): SchemaDefinition {
  return schema._zod.def as SchemaDefinition;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Where the answer holds an array of at least two slices, with the array's schema: found through
 * objects (and what is nullable or optional) only, and only an array whose schema has no checks of
 * its own, so checking its items slice by slice is checking the array.
 */
function longArrayIn(
  schema: $ZodType,
  value: unknown,
  path: Path = [],
): { path: Path; schema: $ZodType; items: readonly unknown[] } | undefined {
  if (path.length > DEEPEST) return undefined;
  const definition = definitionOf(schema);
  if ((definition.type === 'nullable' || definition.type === 'optional') && definition.innerType) {
    return value === null || value === undefined ? undefined : longArrayIn(definition.innerType, value, path);
  }
  if (definition.type === 'array' && Array.isArray(value)) {
    return value.length >= 2 * SLICE_ITEMS && (definition.checks ?? []).length === 0 ? { path, schema, items: value } : undefined;
  }
  if (definition.type !== 'object' || !definition.shape || !isRecord(value)) return undefined;
  for (const [key, field] of Object.entries(definition.shape)) {
    const found = Object.hasOwn(value, key) ? longArrayIn(field, value[key], [...path, key]) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** A copy of `value` with `replacement` at `path` (objects copied along the path only). */
function withValueAt(value: unknown, path: Path, replacement: unknown): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return replacement;
  if (!isRecord(value)) throw new Error('an answer changed shape while it was checked');
  return { ...value, [key]: withValueAt(value[key], rest, replacement) };
}

/** The schema the route answers this status with, as Fastify picks it: the status, its class (2xx), or the default. */
function responseSchemaOf(request: FastifyRequest, status: number): unknown {
  const answers: unknown = request.routeOptions.schema?.response;
  if (!isRecord(answers)) return undefined;
  return answers[String(status)] ?? answers[`${String(status).charAt(0)}xx`] ?? answers['default'];
}

function giveWay(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A long answer as its checked text for the route's serializer (checkedInSlices), anything else as it is. */
export function answerInSlices(request: FastifyRequest, status: number, payload: unknown): Promise<unknown> {
  return checkedInSlices(responseSchemaOf(request, status), payload, request.method, request.routeOptions.url ?? request.url);
}

/**
 * The answer as its checked text, when it holds a long array (see longArrayIn); anything else as
 * it is, for the serializer. The same text the serializer would write: the answer around the array
 * is checked whole (with the array empty), the array's items a slice at a time, each slice's text
 * written as it is checked, and the slices put in the array's place.
 */
export async function checkedInSlices(schema: unknown, payload: unknown, method: string, url: string): Promise<unknown> {
  if (!(schema instanceof $ZodType)) return payload;
  const long = longArrayIn(schema, payload);
  if (!long) return payload;
  const checked = (part: $ZodType, value: unknown) => {
    const result = safeParse(part, value);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return result.data;
  };
  const around = checked(schema, withValueAt(payload, long.path, []));
  // The array's place in the text: a string nothing in an answer can hold, and how the text writes it.
  const place = `\u0000${randomUUID()}`;
  const placeText = JSON.stringify(place);
  const aroundText = JSON.stringify(withValueAt(around, long.path, place));
  const slices: string[] = [];
  for (let start = 0; start < long.items.length; start += SLICE_ITEMS) {
    await giveWay();
    const text = JSON.stringify(checked(long.schema, long.items.slice(start, start + SLICE_ITEMS)));
    if (text.length > 2) slices.push(text.slice(1, -1));
  }
  const at = aroundText.indexOf(placeText);
  if (at < 0) throw new Error('an answer lost the place of its long array');
  return new CheckedAnswerText(`${aroundText.slice(0, at)}[${slices.join(',')}]${aroundText.slice(at + placeText.length)}`);
}
