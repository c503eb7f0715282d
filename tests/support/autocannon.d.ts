/**
 * The part of autocannon 9's library API the load test uses. autocannon ships no types, and a
 * hand-written, narrow declaration beats an untyped import under strict TypeScript.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    /** A connection's scratch object: fresh each time the connection starts the request list again. */
    type RequestContext = Record<string, unknown>;

    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface Request extends RequestParams {
      setupRequest?: (request: RequestParams, context: RequestContext) => RequestParams | null | undefined;
      onResponse?: (status: number, body: string, context: RequestContext, headers: Record<string, string | string[]>) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      pipelining?: number;
      /** Seconds a request may wait for its answer. */
      timeout?: number;
      requests?: Request[];
      headers?: Record<string, string>;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
    }

    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      /** Milliseconds. */
      latency: Histogram & { totalCount: number };
      requests: Histogram & { sent: number };
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
