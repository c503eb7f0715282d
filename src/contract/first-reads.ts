/**
 * A view's first reads in one call (issue 35, decision 0128): the document's first script asks for
 * the GETs the view paints from as one request, and the server answers each as it would have alone
 * (its status, its ETag and its body as text), in the order asked. Only the first views' reads may be
 * asked for this way, at most FIRST_READS_MOST of them; each is checked, charged and answered as the
 * call it names (its token, its budget, its own limits), so a read that fails says so in its place.
 * The server's and the API's; the page's first script builds the query and splits the answer by hand
 * (early-calls.ts): it carries no schema.
 */
import * as z from 'zod/mini';
import { type ApiOperation, ENDPOINTS, type EndpointRow } from './common.js';
import { FIRST_READS_PARAMETER, firstReadsOf } from './first-reads-query.js';

/** The most reads one call may ask for: Home's three, the Ledger's two, Plan's three, and one to spare. */
export const FIRST_READS_MOST = 4;

/** The reads a view paints from first (first-reads.ts in the page): nothing else may be asked for this way. */
const FIRST_READ_OPERATIONS = [
  'getDeposits',
  'getExpenses',
  'getForecast',
  'getLedger',
  'listAccounts',
] as const satisfies readonly ApiOperation[];

/** One read's path, query included, at most: an account's window with its query is about 110 characters. */
const MOST_READ_LENGTH = 300;

/** An account's id in a read's path: what the calls' id parameter accepts (idSchema), nothing to climb out with. */
const ID_SEGMENT = /^[A-Za-z0-9-]{1,64}$/;

/** Each read's route as its segments, `:id` standing for one segment: the row's own path and its alias. */
const READ_ROUTES: readonly (readonly string[])[] = FIRST_READ_OPERATIONS.flatMap((operation) => {
  const row: EndpointRow = ENDPOINTS[operation];
  return [row.path, ...(row.primary ? [row.primary.path] : [])].map((path) => path.split('/'));
});

/** Whether `read` (a path under /api with its own query, if any) is one of the first views' reads. */
export function isFirstRead(read: string): boolean {
  if (read.length > MOST_READ_LENGTH || read.includes('#')) return false;
  const query = read.indexOf('?');
  const segments = (query === -1 ? read : read.slice(0, query)).split('/');
  return READ_ROUTES.some(
    (route) =>
      route.length === segments.length &&
      route.every((part, index) => {
        const segment = segments[index] ?? '';
        return part.startsWith(':') ? ID_SEGMENT.test(segment) : part === segment;
      }),
  );
}

const READS_MESSAGE = `paths must list at most ${FIRST_READS_MOST} of the first views' reads (deposits, expenses, an account's forecast or ledger, the accounts), comma-separated.`;

export const firstReadsQuerySchema = z.object({
  [FIRST_READS_PARAMETER]: z.optional(
    z.string({ error: READS_MESSAGE }).check(
      z.describe(
        "The reads, comma-separated, each a path under /api with its own query: the deposits, the expenses, an account's forecast or ledger (whole or a window), the accounts. At most 4.",
      ),
      z.refine((paths) => {
        const reads = firstReadsOf(paths);
        return reads.length <= FIRST_READS_MOST && reads.every(isFirstRead);
      }, READS_MESSAGE),
    ),
  ),
});

/** One read's answer as the call alone would have given it: its status, its ETag (a ledger's version) and its body's text. */
export const firstReadAnswerSchema = z.object({
  path: z.string(),
  status: z.number().check(z.int()),
  etag: z.nullable(z.string()),
  body: z.string(),
});

export const firstReadsSchema = z.object({ answers: z.array(firstReadAnswerSchema) });
export type FirstReadsView = z.output<typeof firstReadsSchema>;
