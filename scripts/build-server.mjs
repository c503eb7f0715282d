#!/usr/bin/env node
// `npm run build:server`: the server as a few bundled ES modules in dist/server/server (decision 0055).
// Node 20 spends about 0.3 ms of CPU on every ES module it loads; tsc's output is one module per
// source file plus Kysely's 262, so bundling our code and its dependencies cuts the start (decisions 0055, 0113).
// Type errors are `npm run typecheck`'s business (esbuild strips types without checking them).
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Packages loaded from node_modules at run time; every other dependency the server imports is
 * bundled in (decision 0113). Node 20 lexes each CommonJS package an ES module imports, stats every
 * file on its way through node_modules, and compiles module by module: about 130 ms of the start for
 * Fastify, its plugins, zod and the rest, against one compile of the bundle. Kept out: native code
 * (better-sqlite3, pg's optional bindings), packages that start threads from files of their own
 * (piscina), and those the server imports only on first use, which stay out of the start either way
 * (the development provider, jose, the OpenAPI document's plugin, mail and push senders).
 */
const EXTERNAL_PACKAGES = new Set([
  'better-sqlite3',
  'pg',
  'piscina',
  'oidc-provider',
  'jose',
  '@fastify/swagger',
  'nodemailer',
  'web-push',
]);

/**
 * Bundled CommonJS code calls `require` for Node's own modules (`require('node:http')`), which an ES
 * module has no binding for: each output file makes one from its own URL.
 */
const REQUIRE_IN_ES_MODULES =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/**
 * Builds the server into `outDir` (`server/main.js` and `server/file-worker.js` beside the shared
 * chunks: the file-work pool finds its worker as `./file-worker.js` next to its own module; and
 * `server/app.js` and `server/config.js`, which main.js shares its chunks with).
 */
export async function buildServer({ outDir = path.join(ROOT, 'dist/server'), sourcemap = true } = {}) {
  const external = [...EXTERNAL_PACKAGES].flatMap((name) => [name, `${name}/*`]);
  fs.rmSync(outDir, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: {
      'server/main': 'src/server/main.ts',
      'server/file-worker': 'src/server/file-work/file-worker.ts',
      // The bank sync's thread on SQLite, found as ./bank-sync-worker.js beside the runner's chunk (decision 0098).
      'server/bank-sync-worker': 'src/server/bank-sync-worker.ts',
      // The process a background task module runs in, found as ./background-process-entry.js (decision 0115).
      'server/background-process-entry': 'src/server/background-process-entry.ts',
      // Restores' and big undos' thread on SQLite, found as ./big-write-worker.js beside the runner's chunk (decision 0103).
      'server/big-write-worker': 'src/server/big-write-worker.ts',
      // The SQLite log's checkpoints, found as ./wal-checkpoint-worker.js beside the runner's chunk (decision 0125).
      'server/wal-checkpoint-worker': 'src/server/wal-checkpoint-worker.ts',
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
    banner: { js: REQUIRE_IN_ES_MODULES },
    sourcemap,
    logLevel: 'warning',
  });
  return { main: path.join(outDir, 'server/main.js') };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
