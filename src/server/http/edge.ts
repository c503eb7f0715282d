/**
 * What the server does at its edge for every request, before and after the routes (issue 17):
 * answers are never stored by a cache unless they say so, and a request without a Host header is refused
 * with our body and headers instead of Node's bare 400; addresses are logged without the values of
 * their query strings.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../../contract/errors.js';

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

/**
 * Node refuses an HTTP/1.1 request without Host on the socket (a bare 400, none of our headers);
 * the server is created with `requireHostHeader: false` so the request reaches this hook, which
 * refuses it like every other refusal. HTTP/1.0 may omit Host and is let through, as Node does.
 * Registered after helmet, so the refusal carries the security headers.
 */
export function registerHostCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    const { headers, httpVersionMajor, httpVersionMinor } = request.raw;
    const needsHost = httpVersionMajor > 1 || (httpVersionMajor === 1 && httpVersionMinor >= 1);
    if (!needsHost || (headers.host !== undefined && headers.host !== '') || headers[':authority'] !== undefined) return;
    const message = 'The request has no Host header.';
    const body: ErrorBody = { error: { code: 'bad_request', message, fields: { host: message } } };
    await reply.code(400).header('Connection', 'close').type('application/json; charset=utf-8').send(body);
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
