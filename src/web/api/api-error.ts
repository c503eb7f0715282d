/**
 * How a failed call reaches the page: the catalogue's message for its operation, with what the
 * server or the network said. Its own module, below the client: the changes' lazy chunk uses it
 * too, and importing it from the client made the two import each other.
 */
import { failureOf, type OperationId } from '../../contract/common.js';

export class ApiCallError extends Error {
  constructor(
    /** The call that failed: an alias keeps the words the page has always said for it (decision 0059). */
    readonly operation: OperationId,
    /** 0 when the server could not be reached at all. */
    readonly status: number,
    /** What the server said, or what went wrong on the way. */
    readonly detail: string,
    readonly fields: Record<string, string> = {},
    /** What the page says first; the operation's row's words unless the call said its own (Request.failure). */
    failure: string = failureOf(operation),
  ) {
    super(failure);
    this.name = 'ApiCallError';
  }
}
