#!/usr/bin/env node
// `npm run build:server`: the server as a few bundled ES modules in dist/server/server (decision 0055).
// Node 20 spends about 0.3 ms of CPU on every ES module it loads; tsc's output is one module per
// source file plus Kysely's 262, so bundling our code and Kysely cuts the start by about a fifth.
// Type errors are `npm run typecheck`'s business (esbuild strips types without checking them).
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Packages bundled in rather than loaded from node_modules at run time. Kysely is many small modules
 * and nothing else imports it. zod stays external: fastify-type-provider-zod imports it too, and two
 * copies would keep two registries of schema metadata.
 */
const BUNDLED_PACKAGES = new Set(['kysely']);

/**
 * Builds the server into `outDir` (`server/main.js` and `server/file-worker.js` beside the shared
 * chunks: the file-work pool finds its worker as `./file-worker.js` next to its own module; and
 * `server/app.js` and `server/config.js`, which main.js shares its chunks with).
 */
export async function buildServer({ outDir = path.join(ROOT, 'dist/server'), sourcemap = true } = {}) {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const external = Object.keys(manifest.dependencies)
    .filter((name) => !BUNDLED_PACKAGES.has(name))
    .flatMap((name) => [name, `${name}/*`]);
  fs.rmSync(outDir, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: {
      'server/main': 'src/server/main.ts',
      'server/file-worker': 'src/server/file-work/file-worker.ts',
      // The bank sync's thread on SQLite, found as ./bank-sync-worker.js beside the runner's chunk (decision 0098).
      'server/bank-sync-worker': 'src/server/bank-sync-worker.ts',
      // Restores' and big undos' thread on SQLite, found as ./big-write-worker.js beside the runner's chunk (decision 0103).
      'server/big-write-worker': 'src/server/big-write-worker.ts',
      // The app factory and the configuration as modules of their own: the reliability tests of
      // notifications and of the bank schedule start the built app on a clock they set
      // (tests/support/fixed-clock-server.mjs, issues 26 and 37).
      'server/app': 'src/server/app.ts',
      'server/config': 'src/server/config.ts',
    },
    outdir: outDir,
    chunkNames: 'server/chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external,
    sourcemap,
    logLevel: 'warning',
  });
  return { main: path.join(outDir, 'server/main.js') };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
