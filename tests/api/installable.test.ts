/**
 * Issue 16, item 2 (decision 0026): the page is installable. The real page is built here (the same
 * Vite configuration, into a folder of its own) and served by the server: the web app manifest
 * and the service worker answer with the right headers, and the worker precaches the page's own
 * files only, never an API path, the sign-in settings or the sign-in pages.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

interface Manifest {
  readonly name: string;
  readonly short_name: string;
  readonly start_url: string;
  readonly display: string;
  readonly theme_color: string;
  readonly icons: readonly { readonly src: string; readonly sizes: string; readonly type: string }[];
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

describe.each(databaseKinds().slice(0, 1))('the installable page on %s', (kind) => {
  let test: TestApp;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-installable-'));
    await build({
      configFile: path.join(REPO_ROOT, 'vite.config.ts'),
      root: path.join(REPO_ROOT, 'src/web'),
      logLevel: 'error',
      build: { outDir: webRoot, emptyOutDir: true, sourcemap: false },
    });
    test = await startTestApp(kind, { webRoot });
  }, 120_000);
  afterAll(async () => {
    await test?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('links the manifest from the page and lets the worker come from us', async () => {
    const page = await test.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<link rel="manifest" href="\/manifest\.webmanifest">/);
    expect(page.body).toContain('<meta name="theme-color" content="#198754"');
    expect(page.headers['content-security-policy']).toContain("worker-src 'self'");
    expect(page.headers['content-security-policy']).toContain("manifest-src 'self'");
  });

  it('serves the manifest as application/manifest+json with a name, start URL, standalone display and PNG icons of 192 and 512 px', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(response.headers['cache-control']).toBe('no-cache');
    const manifest = response.json<Manifest>();
    expect(manifest).toMatchObject({
      name: 'Leftover',
      short_name: 'Leftover',
      start_url: '/',
      display: 'standalone',
      theme_color: '#198754',
    });
    const sizes = new Set<string>();
    for (const icon of manifest.icons) {
      expect(icon.type).toBe('image/png');
      const image = await test.app.inject({ method: 'GET', url: icon.src });
      expect(image.statusCode, icon.src).toBe(200);
      expect(image.headers['content-type']).toMatch(/^image\/png/);
      expect(pngSize(image.rawPayload)).toBe(icon.sizes);
      sizes.add(icon.sizes);
    }
    expect([...sizes]).toEqual(expect.arrayContaining(['192x192', '512x512']));
  });

  it('serves sw.js revalidated on every use, precaching the page files only and never an API path', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/sw.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('no-cache');
    const precached = [...response.body.matchAll(/\burl:"([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(precached).toContain('index.html');
    expect(precached.some((url) => /^assets\/index-[\w-]+\.js$/.test(url))).toBe(true);
    for (const url of precached) {
      expect(url, 'a precached path').toMatch(/^(index\.html|manifest\.webmanifest|icon-\d+\.png|assets\/[\w.-]+\.(js|css))$/);
      expect(url).not.toMatch(/api|oidc|dev-sign-in|login|app-config/);
      const file = await test.app.inject({ method: 'GET', url: `/${url}` });
      expect(file.statusCode, url).toBe(200);
    }
    // Navigations fall back to the page, except the API and the sign-in pages; nothing is cached at run time.
    for (const denied of ['api', 'oidc', 'dev-sign-in', 'login']) expect(response.body).toContain(`/^\\/${denied}/`);
    expect(response.body).not.toMatch(/registerRoute\((?!new \w+\.NavigationRoute)/);
    // The Workbox runtime the worker imports is served too.
    const runtime = /define\(\["\.\/(workbox-[\w-]+)"\]/.exec(response.body)?.[1];
    expect(runtime).toBeDefined();
    const runtimeFile = await test.app.inject({ method: 'GET', url: `/${runtime}.js` });
    expect(runtimeFile.statusCode).toBe(200);
  });

  it('has no script or style under 1 KB, and every file a script or the page names is served (issue 35, decision 0112)', async () => {
    const assets = fs.readdirSync(path.join(webRoot, 'assets')).filter((file) => /\.(js|css)$/.test(file));
    expect(assets.some((file) => file.startsWith('shared-'))).toBe(true);
    for (const file of assets) {
      expect(file, "rolldown's runtime helpers live in shared").not.toMatch(/rolldown-runtime/);
      expect(fs.statSync(path.join(webRoot, 'assets', file)).size, file).toBeGreaterThanOrEqual(1024);
    }
    const named = new Set<string>();
    for (const file of assets.filter((each) => each.endsWith('.js'))) {
      const code = fs.readFileSync(path.join(webRoot, 'assets', file), 'utf8');
      // Static imports, dynamic imports and Vite's preload lists.
      for (const match of code.matchAll(/from"\.\/([\w.-]+\.js)"|import\("\.\/([\w.-]+\.js)"\)|"assets\/([\w.-]+\.(?:js|css))"/g)) {
        named.add(`assets/${match[1] ?? match[2] ?? match[3] ?? ''}`);
      }
    }
    const page = (await test.app.inject({ method: 'GET', url: '/' })).body;
    for (const match of page.matchAll(/(?:src|href)="\/(assets\/[\w.-]+)"/g)) named.add(match[1] ?? '');
    expect(named.size).toBeGreaterThan(3);
    for (const file of named) expect((await test.app.inject({ method: 'GET', url: `/${file}` })).statusCode, file).toBe(200);
  });
});
