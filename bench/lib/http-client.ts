/**
 * A small timed HTTP client over one kept-alive loopback connection: latency benchmarks time one
 * request at a time, and a reused socket keeps connection set-up out of every figure alike.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { BUDGET_HEADER } from '../../src/contract/budgets.js';

export interface TimedResponse {
  readonly status: number;
  readonly body: string;
  readonly headers: http.IncomingHttpHeaders;
  /** From sending the request to the last byte of the answer. */
  readonly ms: number;
}

export class ApiClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  /** `budget`: every call names this budget (the Leftover-Budget header); left out, the user's personal one. */
  constructor(
    readonly origin: string,
    readonly accessToken: string,
    readonly budget?: string,
  ) {}

  /** `extraHeaders`: more request headers (an If-Match, say). */
  request(method: string, path: string, body?: unknown, extraHeaders: http.OutgoingHttpHeaders = {}): Promise<TimedResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: http.OutgoingHttpHeaders = { ...extraHeaders, authorization: `Bearer ${this.accessToken}` };
    if (this.budget !== undefined) headers[BUDGET_HEADER.toLowerCase()] = this.budget;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    const send = (mayResend: boolean): Promise<TimedResponse> =>
      new Promise((resolve, reject) => {
        const started = performance.now();
        const request = http.request(`${this.origin}${path}`, { method, headers, agent: this.agent }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              headers: response.headers,
              ms: performance.now() - started,
            }),
          );
          response.on('error', reject);
        });
        request.on('error', (error: NodeJS.ErrnoException) => {
          // The server closes a connection left idle for its keep-alive time (5 s). Node's agent
          // drops such a socket a moment before, but a client whose thread is busy (parsing a
          // 5,000-row answer, on a loaded machine) may send on it as the server's close arrives, and
          // the request is reset unread. It is sent again once, on a new connection, as Node's
          // documentation of `request.reusedSocket` advises. Any other failure names the call.
          if (mayResend && request.reusedSocket && error.code === 'ECONNRESET') resolve(send(false));
          else reject(new Error(`${method} ${path} failed: ${error.message}`, { cause: error }));
        });
        request.end(payload);
      });
    return send(true);
  }

  /** The answer's JSON, or an error naming the call when it did not answer 200. */
  async json(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await this.request(method, path, body);
    if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${response.body.slice(0, 500)}`);
    return JSON.parse(response.body) as unknown;
  }

  close(): void {
    this.agent.destroy();
  }
}
