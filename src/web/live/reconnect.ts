/**
 * When to open the stream of changes again after it ended (decision 0096): soon after a stream that
 * was open (a token that expired, a server that restarted), else after waits that double from 1 s to
 * 30 s, so a server that is down is not asked many times a second by every page.
 */
import type { StreamEnd } from '../api/change-stream.js';

const FIRST_WAIT_MS = 1_000;
const LONGEST_WAIT_MS = 30_000;

/** The wait after `failures` tries in a row that did not open a stream: 1 s, 2 s, 4 s ... 30 s. */
export function reconnectWait(failures: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(Math.max(failures, 1) - 1, 15));
}

/**
 * What the page does when a stream ended: stop for good when the user is no longer a member (404 "No
 * such budget.", or `gone`) or the page and server disagree about the call (400); else try again.
 */
export function afterStreamEnd(end: StreamEnd): 'gone' | 'stop' | 'again' {
  if (end.kind === 'gone' || (end.kind === 'refused' && end.status === 404)) return 'gone';
  if (end.kind === 'refused' && end.status === 400) return 'stop';
  return 'again';
}
