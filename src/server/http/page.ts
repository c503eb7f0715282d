/** The built page, served by the same server as the API. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from '../../contract/errors.js';

/** A script element with no attributes and its text, as the build writes the first reads' (scripts/first-reads-inline.ts). */
const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

/** The text of each inline script of a page (the built page has one: the first reads, decision 0121). */
export function inlineScriptTexts(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map((match) => match[1] ?? '');
}

/**
 * The content security policy's sources for the built page's own inline scripts: the hash of each
 * (decision 0121), read from its index.html when the server starts. None without a built page.
 */
export function inlineScriptSources(webRoot: string): string[] {
  const indexFile = path.join(webRoot, 'index.html');
  if (!fs.existsSync(indexFile)) return [];
  return inlineScriptTexts(fs.readFileSync(indexFile, 'utf8')).map(
    (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`,
  );
}

/**
 * Serves the built page: hashed assets are cached for good, index.html, sw.js and the manifest
 * revalidated on every use, and every page route (including /login/callback) falls back to
 * index.html. Source maps (*.map, built without a reference in the scripts) answer 404 unless
 * serveSourceMaps (SERVE_SOURCE_MAPS=true) says otherwise: they would hand out the page's source.
 */
export function registerPage(app: FastifyInstance, webRoot: string, { serveSourceMaps = false }: { serveSourceMaps?: boolean } = {}): void {
  const indexFile = path.join(webRoot, 'index.html');
  const built = fs.existsSync(indexFile);
  if (built) {
    void app.register(fastifyStatic, {
      root: webRoot,
      index: false,
      wildcard: false,
      allowedPath: (pathName) => serveSourceMaps || !isSourceMap(pathName),
      // Its own Cache-Control (public, max-age=0) would replace ours below.
      cacheControl: false,
      setHeaders: (response, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        // Everything else (index.html, sw.js, the manifest, the icons) is checked with the server
        // on every use, so a new deployment's service worker is found at once.
        response.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        if (filePath.endsWith('.webmanifest')) response.setHeader('Content-Type', 'application/manifest+json');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // A source map that is not served is missing, not a page address: no index.html for it.
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !isSourceMap(request.url.split('?')[0] ?? '');
    if (!wantsPage) {
      const body: ErrorBody = { error: { code: 'not_found', message: `There is nothing at this address (${request.method}).` } };
      return reply.code(404).send(body);
    }
    if (!built) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The page is not built yet: run `npm run build` (npm start does it for you).');
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(fs.createReadStream(indexFile));
  });
}

function isSourceMap(pathName: string): boolean {
  return pathName.endsWith('.map');
}
