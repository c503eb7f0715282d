/**
 * Bytes on the wire, counted from the Chrome DevTools Protocol's network events of one page (a CDP
 * session with Network enabled). Benchmark 7 counts the bytes of each Pay with it.
 */
import type { CDPSession } from '@playwright/test';

/** Header names and values, as the protocol gives them. */
type Headers = Readonly<Record<string, unknown>>;

/** What a request says of its body (Network.Request): the text, or its parts base64-encoded. */
interface RequestBody {
  readonly postData?: string;
  readonly postDataEntries?: readonly { readonly bytes?: string }[];
}

/** One request in the tally, as the protocol's events describe it. */
interface TalliedRequest {
  readonly label: string;
  readonly requestLineBytes: number;
  readonly bodyBytes: number;
  /** When the page sent it, in ms since the epoch (the event's wallTime). */
  readonly sentAt: number;
  /** The document request of a navigation. */
  readonly navigation: boolean;
  /** The document that sent it (the protocol's loaderId): a navigation's own request carries the new document's. */
  readonly loaderId: string;
  headers: Headers;
  /** Answered by the service worker or a cache: nothing went over the network. */
  servedLocally: boolean;
  responseBytes: number | null;
  failed: boolean;
}

export interface WireCount {
  readonly bytes: number;
  readonly overNetwork: number;
  readonly servedLocally: number;
  /** "METHOD /path?query" of each request that went over the network, in order. */
  readonly labels: readonly string[];
}

function headerBytes(headers: Headers): number {
  // "Name: value\r\n" for each, as HTTP/1.1 writes them (the bench's server is plain HTTP/1.1 on loopback).
  return Object.entries(headers).reduce((sum, [name, value]) => sum + Buffer.byteLength(`${name}: ${String(value)}\r\n`), 0);
}

function postDataBytes(request: RequestBody): number {
  if (request.postDataEntries !== undefined) {
    return request.postDataEntries.reduce(
      (sum, entry) => sum + (entry.bytes === undefined ? 0 : Buffer.from(entry.bytes, 'base64').length),
      0,
    );
  }
  return request.postData === undefined ? 0 : Buffer.byteLength(request.postData);
}

/**
 * Bytes on the wire of the requests a page starts while the tally is open. A request that went
 * over the network counts its request line, its headers as sent (requestWillBeSentExtraInfo, which
 * holds what the network stack added, such as Host, Cookie and Accept-Encoding; requestWillBeSent's
 * headers when that event does not come), the blank line and its body, plus everything received
 * for it (loadingFinished.encodedDataLength: status line, headers and body as transferred, so
 * compressed when the server compressed it). A request answered by the service worker or a
 * browser cache counts nothing: it did not reach the network.
 */
export class WireTally {
  private open = false;
  private readonly tallied = new Map<string, TalliedRequest>();
  /** Extra-info headers that came before their requestWillBeSent (the protocol allows either order). */
  private readonly earlyHeaders = new Map<string, Headers>();
  private changed: () => void = () => undefined;

  constructor(session: CDPSession) {
    session.on('Network.requestWillBeSent', (event) => {
      const early = this.earlyHeaders.get(event.requestId);
      this.earlyHeaders.delete(event.requestId);
      if (!this.open || this.tallied.has(event.requestId)) return;
      const url = new URL(event.request.url);
      const label = `${event.request.method} ${url.pathname}${url.search}`;
      this.tallied.set(event.requestId, {
        label,
        requestLineBytes: Buffer.byteLength(`${event.request.method} ${url.pathname}${url.search} HTTP/1.1\r\n\r\n`),
        bodyBytes: postDataBytes(event.request),
        sentAt: event.wallTime * 1000,
        navigation: event.type === 'Document' && event.requestId === event.loaderId,
        loaderId: event.loaderId,
        headers: early ?? event.request.headers,
        servedLocally: url.protocol === 'data:' || url.protocol === 'blob:',
        responseBytes: null,
        failed: false,
      });
    });
    session.on('Network.requestWillBeSentExtraInfo', (event) => {
      const request = this.tallied.get(event.requestId);
      if (request !== undefined) request.headers = event.headers;
      else if (this.open) this.earlyHeaders.set(event.requestId, event.headers);
    });
    session.on('Network.requestServedFromCache', (event) => this.markLocal(event.requestId));
    session.on('Network.responseReceived', (event) => {
      const { fromServiceWorker, fromDiskCache, fromPrefetchCache } = event.response;
      if (fromServiceWorker === true || fromDiskCache === true || fromPrefetchCache === true) this.markLocal(event.requestId);
    });
    session.on('Network.loadingFinished', (event) => {
      const request = this.tallied.get(event.requestId);
      if (request === undefined) return;
      request.responseBytes = event.encodedDataLength;
      this.changed();
    });
    session.on('Network.loadingFailed', (event) => {
      const request = this.tallied.get(event.requestId);
      if (request === undefined) return;
      request.failed = true;
      this.changed();
    });
  }

  private markLocal(requestId: string): void {
    const request = this.tallied.get(requestId);
    if (request === undefined) return;
    request.servedLocally = true;
    this.changed();
  }

  start(): void {
    this.tallied.clear();
    this.earlyHeaders.clear();
    this.open = true;
  }

  /**
   * Closes the tally to new requests, waits for those in it to end, and counts them. When the
   * tally holds a navigation, what the page being left sent before it is not counted: the
   * navigation cancels it, and Chromium does not always report the end of a request it cancelled
   * that way (the page's idle read of its budgets, started as the tally opened, never ended).
   * `sentBefore` (ms since the epoch) closes the tally at that moment: requests sent from then on
   * are left out and not waited for.
   */
  async stop(options: { readonly sentBefore?: number } = {}): Promise<WireCount> {
    this.open = false;
    this.earlyHeaders.clear();
    const { sentBefore } = options;
    if (sentBefore !== undefined && !Number.isFinite(sentBefore)) throw new Error('the tally cannot close at an unknown moment');
    const navigation = [...this.tallied.values()].find((request) => request.navigation);
    for (const [id, request] of this.tallied) {
      // The page being left may still send a request in the moment after the navigation starts (its
      // after-paint reads, on a slow phone): it is that document's, cancelled with it, as is one sent before.
      const leftBehind = navigation !== undefined && (request.sentAt < navigation.sentAt || request.loaderId !== navigation.loaderId);
      const afterClose = sentBefore !== undefined && request.sentAt >= sentBefore;
      if (leftBehind || afterClose) this.tallied.delete(id);
    }
    // A request the service worker or a cache answered put nothing on the wire, and Chromium does
    // not always report its end to this session (a chunk fetched by the idle prefetch and answered
    // by the service worker, say): it has ended once it is known to be local.
    const ended = () =>
      [...this.tallied.values()].every((request) => request.failed || request.responseBytes !== null || request.servedLocally);
    if (!ended()) {
      await new Promise<void>((resolve, reject) => {
        const open = () =>
          [...this.tallied.values()]
            .filter((request) => !request.failed && request.responseBytes === null && !request.servedLocally)
            .map((request) => request.label)
            .join(', ');
        const timer = setTimeout(() => {
          // The page's own hashed files are the service worker's precache: a returning user's page
          // gets them from it, and Chromium sometimes reports neither where one came from nor its end.
          const stuck = [...this.tallied.values()].filter(
            (request) => !request.failed && request.responseBytes === null && !request.servedLocally,
          );
          if (stuck.every((request) => / \/assets\//.test(request.label))) {
            console.warn(`  wire tally: no end reported within 30 s for ${open()}; counted as served by the service worker`);
            for (const request of stuck) request.servedLocally = true;
            resolve();
            return;
          }
          reject(new Error(`requests in the tally did not end within 30 s: ${open()}`));
        }, 30_000);
        this.changed = () => {
          if (!ended()) return;
          clearTimeout(timer);
          resolve();
        };
      }).finally(() => (this.changed = () => undefined));
    }
    const requests = [...this.tallied.values()];
    this.tallied.clear();
    const network = requests.filter((request) => !request.servedLocally);
    const bytes = network.reduce(
      (sum, request) => sum + request.requestLineBytes + headerBytes(request.headers) + request.bodyBytes + (request.responseBytes ?? 0),
      0,
    );
    return {
      bytes,
      overNetwork: network.length,
      servedLocally: requests.length - network.length,
      labels: network.map((request) => `${request.label}${request.failed ? ' (failed)' : ''}`),
    };
  }
}
