/**
 * A document's first reads leave as one call (decision 0128): `/api/first-reads?paths=<read>,<read>`.
 * A test that watches or drops a read finds it alone or among them.
 */
import { firstReadsOf } from '../../src/contract/first-reads-query.js';

/** The reads a request asks for, each as "path?query": the first reads' each, else its own. */
export function readsOf(url: URL): string[] {
  return url.pathname === '/api/first-reads' ? firstReadsOf(url.searchParams.get('paths') ?? undefined) : [`${url.pathname}${url.search}`];
}

/** Whether a request asks for `pathname` (with any query), alone or among the first reads. */
export function asksFor(url: URL, pathname: string): boolean {
  return readsOf(url).some((read) => read === pathname || read.startsWith(`${pathname}?`));
}
