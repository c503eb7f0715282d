/**
 * What the server does at its edge for every request, before and after the routes (issue 17):
 * personal answers are never stored by a cache.
 */
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../contract/common.js';

/** The path of a request's address, without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

export function isApiPath(url: string): boolean {
  const path = pathOf(url);
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/**
 * Every /api answer, success or refusal, says `Cache-Control: no-store`: they hold one person's
 * money, and a shared cache or the browser's disk must not keep them.
 */
export function registerNoStoreForApi(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiPath(request.url)) reply.header('Cache-Control', 'no-store');
    return payload;
  });
}
