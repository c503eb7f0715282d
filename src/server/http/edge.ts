/**
 * What the server does at its edge for every request, before and after the routes (issues 17 and
 * 34): answers are never stored by a cache unless they say so, a request without a Host header is
 * refused with our body and headers instead of Node's bare 400, in production one naming another
 * host than the server's own answers 421; addresses are logged without the values of their query
 * strings.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../../contract/errors.js';
import type { AllowedHosts } from '../config.js';

/**
 * Every answer says `Cache-Control: no-store` unless it set its own: answers hold one person's
 * money, and a shared cache or the browser's disk must not keep them. Decided by the answer, not
 * by the address as sent: `/ap%69/...` and an absolute-form `GET http://host/api/...` reach the API
 * too. Only the page, its hashed assets and the service worker set their own (page.ts). A refusal
 * or failure is no-store whatever was set before it, so a cacheable route that fails is not kept.
 */
export function registerNoStoreByDefault(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode >= 400 || !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
}

/** Paths a load balancer or an orchestrator probes by the server's own address (operations/health.ts), whatever the Host. */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

export const MISDIRECTED_MESSAGE = 'This server does not answer for the host this request names.';

/** A Host as a URL spells it (lowercase, the scheme's default port left out), or null when it is more than a host. */
function hostAsUrlSpells(host: string, protocol: string): string | null {
  if (/[/?#@\\\s]/.test(host) || !URL.canParse(`${protocol}//${host}`)) return null;
  return new URL(`${protocol}//${host}`).host;
}

/**
 * Node refuses an HTTP/1.1 request without Host on the socket (a bare 400, none of our headers);
 * the server is created with `requireHostHeader: false` so the request reaches this hook, which
 * refuses it like every other refusal. HTTP/1.0 may omit Host and is let through, as Node does.
 *
 * In production with PUBLIC_URL set (`allowed`), a request must name PUBLIC_URL's host or one of
 * ALLOWED_HOSTS, as its Host or, from a trusted proxy (TRUST_PROXY), its X-Forwarded-Host: any
 * other answers 421 Misdirected Request (RFC 9110 section 15.5.20), so a name pointed at the
 * server by someone else (DNS rebinding, a forged Host) is served nothing. Only the health probes
 * answer whatever the Host, since balancers and orchestrators call them by address (decision 0068).
 * Registered after helmet, so the refusals carry the security headers.
 */
export function registerHostCheck(app: FastifyInstance, allowed: AllowedHosts | null): void {
  app.addHook('onRequest', async (request, reply) => {
    const { headers, httpVersionMajor, httpVersionMinor } = request.raw;
    const needsHost = httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1);
    const hasHost = (headers.host !== undefined && headers.host !== '') || headers[':authority'] !== undefined;
    if (needsHost && !hasHost) {
      const message = 'The request has no Host header.';
      const body: ErrorBody = { error: { code: 'bad_request', message, fields: { host: message } } };
      await reply.code(400).header('Connection', 'close').type('application/json; charset=utf-8').send(body);
      return;
    }
    if (allowed === null || PROBE_PATHS.has(request.url.split('?', 1)[0] ?? '')) return;
    const host = hostAsUrlSpells(request.host, allowed.protocol);
    if (host !== null && allowed.hosts.includes(host)) return;
    const body: ErrorBody = { error: { code: 'misdirected_request', message: MISDIRECTED_MESSAGE } };
    await reply.code(421).header('Connection', 'close').type('application/json; charset=utf-8').send(body);
  });
}

/** A query parameter's name is kept in the log only when it looks like a name, not like a value. */
const PLAIN_PARAMETER_NAME = /^[A-Za-z0-9_.[\]-]{1,32}$/;
export const REDACTED = '[redacted]';

/**
 * An address as the log may show it: the path, and for the query string only the names of its
 * parameters, every value redacted. Sign-out carries the whole ID token (`id_token_hint`), the
 * provider's callback a code, and any client may send `?access_token=`; none of them may reach a log.
 */
export function redactedUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const names = url
    .slice(query + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      return `${PLAIN_PARAMETER_NAME.test(name) ? name : REDACTED}=${REDACTED}`;
    });
  return `${url.slice(0, query)}?${names.join('&')}`;
}

/** Fastify's own request serializer (method, address, host, client), with the address redacted. */
export function requestLogSerializer(request: FastifyRequest): Record<string, string | number | undefined> {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
