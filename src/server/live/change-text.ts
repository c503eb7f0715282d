/**
 * The seam where a change's words come in (decision 0096). The activity log (issue 38 point 5)
 * describes each change ("Alex paid Rent"); whoever records that description calls noteChangeText
 * with the caller object the write was made for (a LedgerWrite's `owner` is the request's own), and
 * the change published once the call is answered carries it. Without one, the generic text.
 */
import type { Caller } from '../auth/access-token.js';

const texts = new WeakMap<Caller, string>();

/** Says what the call acting for `owner` did, in a sentence: "Alex paid Rent." The last one noted wins. */
export function noteChangeText(owner: Caller, text: string): void {
  texts.set(owner, text);
}

/** What was noted for the call acting for `owner`, if anything. */
export function changeTextOf(owner: Caller): string | undefined {
  return texts.get(owner);
}
