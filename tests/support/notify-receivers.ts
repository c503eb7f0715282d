/**
 * Real receivers for notifications (issue 26): an HTTP server on loopback that records every
 * webhook request, and an SMTP server (smtp-server) whose mail mailparser reads. Nothing of ours is
 * stood in for: the app sends to them as it would to anyone's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** When it arrived (Date.now()): how long a message took to come, on the test's side. */
  readonly receivedAt: number;
  /** What the receiver answered: a status, or 'hold' (the request was held open; the sender gave up or it was released). */
  readonly answered: number | 'hold';
}

/** How a path answers: a status (with a Location for a redirect), or never (the request is held open). */
export type PathBehaviour = { readonly status: number; readonly location?: string } | 'hold';

export interface WebhookReceiver {
  readonly port: number;
  url(path: string): string;
  readonly received: ReceivedRequest[];
  /** TCP connections opened to the receiver so far, whether or not a request came on them: a refused address must open none. */
  connections(): number;
  /** Sets how a path answers from now on (200 unless told). */
  behave(path: string, behaviour: PathBehaviour): void;
  /** Answers every request held on a path with 200. */
  release(path: string): void;
  /** Resolves once `count` requests have come to `path` (or any path), or rejects after `timeoutMs`. */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

async function until<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const behaviours = new Map<string, PathBehaviour>();
  const held = new Map<string, http.ServerResponse[]>();
  let connections = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const behaviour = behaviours.get(path.split('?')[0] ?? path) ?? { status: 200 };
      received.push({
        method: request.method ?? '',
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
        answered: behaviour === 'hold' ? 'hold' : behaviour.status,
      });
      if (behaviour === 'hold') {
        held.set(path, [...(held.get(path) ?? []), response]);
        return;
      }
      response.writeHead(behaviour.status, behaviour.location ? { location: behaviour.location } : {});
      response.end('ok');
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    connections: () => connections,
    behave: (path, behaviour) => behaviours.set(path, behaviour),
    release(path) {
      behaviours.delete(path);
      for (const response of held.get(path) ?? []) if (!response.writableEnded) response.end('ok');
      held.delete(path);
    },
    waitFor: (count, path, timeoutMs = 15_000) =>
      until(
        () => {
          const matching = received.filter((request) => path === undefined || request.path === path);
          return matching.length >= count ? matching : undefined;
        },
        timeoutMs,
        `${count} requests${path ? ` to ${path}` : ''}`,
      ),
    async close() {
      for (const responses of held.values()) for (const response of responses) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface SmtpReceiver {
  /** SMTP_URL for the app. */
  readonly url: string;
  readonly messages: ParsedMail[];
  /** Resolves once `count` mails have arrived for `to` (or anyone). */
  waitFor(count: number, to?: string, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** Recipients of a parsed mail, lowercased. */
export function recipientsOf(mail: ParsedMail): string[] {
  const to = mail.to === undefined ? [] : Array.isArray(mail.to) ? mail.to : [mail.to];
  return to.flatMap((address) => address.value.map((entry) => (entry.address ?? '').toLowerCase()));
}

/** A header as sent, its raw line's value (mailparser turns List-* headers into objects). */
export function rawHeader(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((header) => header.key === name.toLowerCase())?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
}

/**
 * An SMTP server on loopback without TLS or sign-in; addresses starting with "refuse" are refused (550).
 * On `port` when given (an end-to-end server's SMTP_URL names it before the test starts), else any free one.
 */
export async function startSmtpReceiver(port = 0): Promise<SmtpReceiver> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('refuse')) {
        callback(Object.assign(new Error('No such mailbox here'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: listening } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${listening}`,
    messages,
    waitFor: (count, to, timeoutMs = 15_000) =>
      until(
        () => {
          const matching = messages.filter((mail) => to === undefined || recipientsOf(mail).includes(to.toLowerCase()));
          return matching.length >= count ? matching : undefined;
        },
        timeoutMs,
        `${count} mails${to ? ` to ${to}` : ''}`,
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
