/**
 * The open streams of GET /api/events (decision 0096): each member's page holds one per budget it
 * shows, and hears every change of that budget by anyone. A stream is a hijacked answer written as
 * server-sent events, so nothing buffers or compresses it; it carries a heartbeat so idle proxies
 * and the server's own connection timeout leave it open, ends when its access token expires (the
 * page opens another with a fresh one), and ends with `gone` when its person is no longer a member.
 * One person holds at most a few at once in each process, so no one can hold all the server's sockets.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EVENT_STREAM_TYPE, LIVE_EVENTS } from '../../contract/live-changes.js';
import { TooManyRequestsError } from '../../domain/errors.js';
import type { Caller, SignedInUser } from '../auth/access-token.js';
import type { BudgetFinder, BudgetMembership } from '../http/api-scope.js';
import { type BudgetChange, ownerKey, toMember } from './budget-change.js';
import type { LiveBus } from './live-bus.js';

/** Streams one person may hold open in one process: a few tabs and budgets. */
export const MAX_STREAMS_PER_PERSON = 5;
export const TOO_MANY_STREAMS = `You have ${MAX_STREAMS_PER_PERSON} pages following changes already. Close one and try again.`;
/** A comment line this often: well within the server's connection timeout (60 s) and common proxies' (60 s). */
const HEARTBEAT_MS = 20_000;
/** A timer longer than this fires at once (Node's 32-bit limit); a stream that old is ended and opened again. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export interface StreamOptions {
  readonly bus: LiveBus;
  /** The budget's membership now: a member removed since the stream opened is told `gone`. */
  readonly findBudget: BudgetFinder;
  /** The connection timeout: the heartbeat comes well within it. */
  readonly connectionMs: number;
  readonly onError: (error: unknown) => void;
}

/** One server-sent event: its name and one JSON line of data. */
export function eventFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** When the bearer token the scope already verified expires, in ms since the epoch; undefined when it says nothing. */
export function tokenExpiry(authorization: string | undefined): number | undefined {
  const payload = authorization?.split(' ')[1]?.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const exp: unknown = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export class EventStreams {
  private readonly perPerson = new Map<string, number>();
  private readonly open = new Set<() => void>();

  constructor(private readonly options: StreamOptions) {}

  /** Opens the caller's stream of the budget the call acts on; refused (429) past the person's open streams. */
  follow(request: FastifyRequest, reply: FastifyReply, user: SignedInUser, owner: Caller, budget: BudgetMembership | undefined): void {
    const person = ownerKey(user);
    const held = this.perPerson.get(person) ?? 0;
    if (held >= MAX_STREAMS_PER_PERSON) throw new TooManyRequestsError(TOO_MANY_STREAMS, 5);
    this.perPerson.set(person, held + 1);

    reply.hijack();
    const raw = reply.raw;
    // The headers the scope and helmet set (security headers, request budget), with the stream's own.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
    raw.writeHead(200, {
      'content-type': `${EVENT_STREAM_TYPE}; charset=utf-8`,
      'cache-control': 'no-store',
      // A proxy that buffers answers (nginx) would hold the events back.
      'x-accel-buffering': 'no',
    });
    raw.write(eventFrame(LIVE_EVENTS.ready, {}));

    let ended = false;
    // Changes are told in the order they came, each after the membership check of the one before.
    let queue = Promise.resolve();
    const end = (last?: string) => {
      if (ended) return;
      ended = true;
      if (last !== undefined) raw.write(last);
      raw.end();
    };
    const listener = (change: BudgetChange) => {
      queue = queue
        .then(async () => {
          if (ended) return;
          // A shared budget's member may have been removed (or the budget deleted) by this very change.
          if (budget && !budget.personal && !(await this.options.findBudget(user, budget.id))) {
            end(eventFrame(LIVE_EVENTS.gone, { budget: budget.name }));
            return;
          }
          raw.write(eventFrame(LIVE_EVENTS.change, toMember(change, user)));
        })
        .catch((error: unknown) => this.options.onError(error));
    };
    const unsubscribe = this.options.bus.subscribe(owner, listener);
    const heartbeat = setInterval(() => raw.write(': still here\n\n'), Math.min(HEARTBEAT_MS, Math.floor(this.options.connectionMs / 3)));
    const expiresAt = tokenExpiry(request.headers.authorization);
    // A token that expires ends its stream: the page opens another with the token it renewed.
    const expiry =
      expiresAt === undefined ? undefined : setTimeout(() => end(), Math.min(LONGEST_TIMER_MS, Math.max(0, expiresAt - Date.now())));
    const closeNow = () => end();
    this.open.add(closeNow);
    raw.on('close', () => {
      ended = true;
      unsubscribe();
      clearInterval(heartbeat);
      clearTimeout(expiry);
      this.open.delete(closeNow);
      const left = (this.perPerson.get(person) ?? 1) - 1;
      if (left > 0) this.perPerson.set(person, left);
      else this.perPerson.delete(person);
    });
  }

  /** Ends every stream: the server is closing, and a stream would otherwise hold it open. */
  closeAll(): void {
    for (const close of [...this.open]) close();
  }
}
