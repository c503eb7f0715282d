/**
 * How a view's first reads are asked for in one call (decision 0128): the reads' paths, each with
 * its own query, comma-separated in one query parameter. Apart from first-reads.ts's schemas: the
 * document's first script builds this query and carries no schema (benchmark 4a).
 */
import { ENDPOINTS } from './common.js';

/** The query parameter that lists the reads. */
export const FIRST_READS_PARAMETER = 'paths';

/** Between the reads: no read's path or query holds one. */
export const FIRST_READS_SEPARATOR = ',';

/** The query of a call for these reads, in this order. */
export function firstReadsQuery(reads: readonly string[]): string {
  return new URLSearchParams({ [FIRST_READS_PARAMETER]: reads.join(FIRST_READS_SEPARATOR) }).toString();
}

/** The reads a query's parameter lists, in order; none for an empty or missing list. */
export function firstReadsOf(paths: string | undefined): string[] {
  return paths === undefined || paths === '' ? [] : paths.split(FIRST_READS_SEPARATOR);
}

/** The reads a request asks for, each as "path?query": a first reads call's each, any other request its own. */
export function readsAskedBy(url: URL): string[] {
  return url.pathname === ENDPOINTS.getFirstReads.path
    ? firstReadsOf(url.searchParams.get(FIRST_READS_PARAMETER) ?? undefined)
    : [`${url.pathname}${url.search}`];
}
