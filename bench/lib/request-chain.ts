/**
 * The requests of one page load up to its paint, from the Chrome DevTools Protocol's network events
 * (a CDP session with Network enabled): how many were sent before the paint, how many of those went
 * over the network, and the critical chain, the longest run of requests each sent by what the one
 * before it brought (the document, then a script it names, then what that script asks for), among
 * those answered before the paint. Benchmark 12 writes them beside its times.
 */
import type { CDPSession } from '@playwright/test';

/** What the protocol says started a request (Network.Initiator), as far as it is read here. */
interface Initiator {
  readonly type: string;
  readonly url?: string;
  readonly stack?: StackTrace;
}

interface StackTrace {
  readonly callFrames: readonly { readonly url: string }[];
  readonly parent?: StackTrace;
}

interface SentRequest {
  readonly url: string;
  /** Wall-clock ms (since the epoch) when the request was sent. */
  readonly sentAtMs: number;
  /** The script or document that asked for it, when the protocol says. */
  readonly askedBy: string | undefined;
  /** Monotonic seconds minus wall-clock seconds, to place this request's later events on the wall clock. */
  readonly clockOffset: number;
  servedLocally: boolean;
  finishedAtMs: number | null;
}

export interface LoadRequests {
  /** Requests sent from the start of navigation to the paint, the document included. */
  readonly beforePaint: number;
  /** Of those, the ones that went over the network (not the service worker, not a cache). */
  readonly overNetwork: number;
  /** The critical chain's requests, from the document on: its length is the round trips in it when nothing is cached. */
  readonly chain: readonly string[];
  /** Of the chain's requests, the ones that went over the network. */
  readonly chainOverNetwork: number;
  /** When the last request answered before the paint had its answer, in ms from `startedAtMs`: the page's own work follows. */
  readonly lastAnswerMs: number;
  /** The path and query of every request sent before the paint, in the order sent. */
  readonly sent: readonly string[];
}

/** The first URL a stack trace names, its async parents included. */
function stackUrl(stack: StackTrace | undefined): string | undefined {
  for (let trace = stack; trace !== undefined; trace = trace.parent) {
    const frame = trace.callFrames.find((each) => each.url !== '');
    if (frame) return frame.url;
  }
  return undefined;
}

/** "/assets/ledger-view-abc123.js" from a whole URL: the path and query, for a note. */
function shortName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Watches one page's requests; `start` before a navigation, `summarize` once it has painted. */
export class RequestChain {
  private requests = new Map<string, SentRequest>();

  constructor(session: CDPSession) {
    session.on('Network.requestWillBeSent', (event) => {
      // A data: URL (a style sheet's inline icon) is read in place: not a request to anyone.
      if (event.request.url.startsWith('data:')) return;
      const initiator = event.initiator as Initiator;
      const askedBy = initiator.url ?? stackUrl(initiator.stack);
      this.requests.set(event.requestId, {
        url: event.request.url,
        sentAtMs: (event.wallTime ?? 0) * 1000,
        askedBy,
        clockOffset: event.timestamp - (event.wallTime ?? 0),
        servedLocally: false,
        finishedAtMs: null,
      });
    });
    session.on('Network.requestServedFromCache', (event) => {
      const request = this.requests.get(event.requestId);
      if (request) request.servedLocally = true;
    });
    session.on('Network.responseReceived', (event) => {
      const request = this.requests.get(event.requestId);
      const { response } = event;
      if (request && (response.fromServiceWorker === true || response.fromDiskCache === true || response.fromPrefetchCache === true))
        request.servedLocally = true;
    });
    session.on('Network.loadingFinished', (event) => {
      const request = this.requests.get(event.requestId);
      if (request) request.finishedAtMs = (event.timestamp - request.clockOffset) * 1000;
    });
  }

  /** Forgets what came before: the next navigation's requests only. */
  start(): void {
    this.requests = new Map();
  }

  /**
   * The requests from `startedAtMs` (the page's timeOrigin) up to `paintedAtMs` (the timeOrigin plus
   * its performance.now() at the paint), both wall-clock times.
   */
  summarize(startedAtMs: number, paintedAtMs: number): LoadRequests {
    const all = [...this.requests.entries()].sort(([, a], [, b]) => a.sentAtMs - b.sentAtMs);
    // A call the page before left unanswered is not this load's (its answer never comes).
    const sent = all.filter(([, request]) => request.sentAtMs >= startedAtMs - 1 && request.sentAtMs <= paintedAtMs);
    // Each URL's chain from the document: a request asked for by a URL loaded earlier in this load follows it.
    const chainOf = new Map<string, readonly string[]>();
    for (const [, request] of sent) {
      if (chainOf.has(request.url)) continue;
      const before = request.askedBy === undefined ? undefined : chainOf.get(request.askedBy);
      chainOf.set(request.url, [...(before ?? []), request.url]);
    }
    let chain: readonly string[] = [];
    for (const [, request] of sent) {
      const finishedInTime = request.finishedAtMs !== null && request.finishedAtMs <= paintedAtMs;
      const candidate = chainOf.get(request.url) ?? [];
      if (finishedInTime && candidate.length > chain.length) chain = candidate;
    }
    const local = new Set(sent.filter(([, request]) => request.servedLocally).map(([, request]) => request.url));
    const answered = sent.flatMap(([, request]) =>
      request.finishedAtMs !== null && request.finishedAtMs <= paintedAtMs ? [request.finishedAtMs] : [],
    );
    if (process.env.BENCH_TRACE === '1')
      for (const [, request] of sent)
        console.log(
          `    ${(request.sentAtMs - startedAtMs).toFixed(0)} -> ${request.finishedAtMs === null ? '-' : (request.finishedAtMs - startedAtMs).toFixed(0)} ${request.servedLocally ? 'local' : 'net'} ${shortName(request.url)}`,
        );
    return {
      beforePaint: sent.length,
      lastAnswerMs: Math.max(startedAtMs, ...answered) - startedAtMs,
      overNetwork: sent.filter(([, request]) => !request.servedLocally).length,
      chain: chain.map(shortName),
      chainOverNetwork: chain.filter((url) => !local.has(url)).length,
      sent: sent.map(([, request]) => shortName(request.url)),
    };
  }
}
