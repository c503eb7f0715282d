/**
 * Changes seen live (issue 38 point 6, decision 0096): what GET /api/events streams to the page as
 * server-sent events. The server writes these frames and the page reads them with this schema.
 */
import * as z from 'zod/mini';

export const EVENT_STREAM_TYPE = 'text/event-stream';

export const EVENT_STREAM_ACCEPT = `Accept must be ${EVENT_STREAM_TYPE}: this call answers a stream of events.`;

/** The events a stream carries, by their `event:` name. */
export const LIVE_EVENTS = {
  /** Once, when the stream is open: changes from now on reach it. */
  ready: 'ready',
  /** A member changed the budget. */
  change: 'change',
  /** The caller is no longer a member of the budget (removed, or the budget deleted): the stream ends. */
  gone: 'gone',
} as const;

/** The most characters of a change's text carried: a name in it is the user's own, bounded on the way in. */
export const MAX_CHANGE_TEXT_LENGTH = 300;

/** One change of the budget, as a member's page is told of it. */
export const liveChangeSchema = z.object({
  /** Who made it, by display name; null when their sign-in gave none, or for the server's own work (a bank sync). */
  by: z.nullable(z.string()),
  /** What to say, "Alex paid Rent."; null for a change the page reloads for quietly. */
  text: z.nullable(z.string()),
  /** True when the signed-in person made it themself (in this page, or another of theirs). */
  you: z.boolean(),
});

export type LiveChange = z.infer<typeof liveChangeSchema>;
