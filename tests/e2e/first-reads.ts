/**
 * A document's first reads leave as one call (decision 0128): `/api/first-reads?paths=<read>,<read>`.
 * A test that drops a read finds it alone or among them.
 */
import { readsAskedBy } from '../../src/contract/first-reads-query.js';

/** Whether a request asks for `pathname` (with any query), alone or among the first reads. */
export function asksFor(url: URL, pathname: string): boolean {
  return readsAskedBy(url).some((read) => read === pathname || read.startsWith(`${pathname}?`));
}
