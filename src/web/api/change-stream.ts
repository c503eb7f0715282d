/**
 * The budget's changes as they happen (issue 38 point 6, decision 0096): GET /api/events read as
 * server-sent events through fetch, so the access token travels in the Authorization header as on
 * every call (an EventSource cannot send it, and an address would put it in request logs). The api
 * folder is the only code that calls fetch; a lazy chunk, loaded once the page has painted.
 */
import { BUDGET_HEADER } from './budget-header.js';
import { ENDPOINTS } from '../../contract/common.js';
import { errorBodySchema } from '../../contract/errors.js';
import { EVENT_STREAM_TYPE, type LiveChange, liveChangeSchema, LIVE_EVENTS } from '../../contract/live-changes.js';

export interface StreamFrame {
  readonly event: string;
  readonly data: string;
}

/**
 * The whole frames at the start of what arrived so far, and the rest (a frame cut by the network).
 * Comment lines (the heartbeat) and fields the page does not use are skipped; `data` lines join with
 * newlines, as the event-stream format says.
 */
export function takeFrames(buffer: string): { readonly frames: StreamFrame[]; readonly rest: string } {
  const normalized = buffer.replace(/\r\n?/g, '\n');
  const frames: StreamFrame[] = [];
  let start = 0;
  let end = normalized.indexOf('\n\n', start);
  while (end >= 0) {
    let event = 'message';
    const data: string[] = [];
    for (const line of normalized.slice(start, end).split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) frames.push({ event, data: data.join('\n') });
    start = end + 2;
    end = normalized.indexOf('\n\n', start);
  }
  return { frames, rest: normalized.slice(start) };
}

/** How a stream ended: closed (the server, the network, a token that expired: open another), gone, or refused with the server's words. */
export type StreamEnd =
  { readonly kind: 'closed' } | { readonly kind: 'gone' } | { readonly kind: 'refused'; readonly status: number; readonly message: string };

export interface FollowOptions {
  readonly accessToken: string;
  /** The budget in view, sent as the Leftover-Budget header; undefined for the personal one. */
  readonly budget?: string;
  readonly signal: AbortSignal;
  /** The stream is open: changes from now on arrive. */
  readonly onOpen: () => void;
  readonly onChange: (change: LiveChange) => void;
  readonly fetchImpl?: typeof fetch;
}

/** Follows the budget's changes until the stream ends or `signal` aborts (then it settles as closed). */
export async function followChanges({
  accessToken,
  budget,
  signal,
  onOpen,
  onChange,
  fetchImpl = fetch,
}: FollowOptions): Promise<StreamEnd> {
  const headers: Record<string, string> = { accept: EVENT_STREAM_TYPE, authorization: `Bearer ${accessToken}` };
  if (budget !== undefined) headers[BUDGET_HEADER] = budget;
  let response: Response;
  try {
    response = await fetchImpl(ENDPOINTS.streamChanges.path, { headers, signal, cache: 'no-store' });
  } catch {
    return { kind: 'closed' };
  }
  if (!response.ok || !response.body) {
    const error = errorBodySchema.safeParse(await response.json().catch(() => undefined));
    return { kind: 'refused', status: response.status, message: error.success ? error.data.error.message : '' };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { kind: 'closed' };
      const { frames, rest } = takeFrames(buffer + value);
      buffer = rest;
      for (const frame of frames) {
        if (frame.event === LIVE_EVENTS.ready) onOpen();
        else if (frame.event === LIVE_EVENTS.gone) return { kind: 'gone' };
        else if (frame.event === LIVE_EVENTS.change) {
          const change = liveChangeSchema.safeParse(parseJson(frame.data));
          // An event this page does not understand is still a change: reload, quietly.
          onChange(change.success ? change.data : { by: null, text: null, you: false });
        }
      }
    }
  } catch {
    return { kind: 'closed' };
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
