/**
 * A private build of the page and the server for the benchmarks: the same Vite config and the same
 * TypeScript options as `npm run build`, written under node_modules/.cache instead of dist/, so a
 * benchmark run never swaps the page out from under someone else's server or end-to-end run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { buildServer } from '../../scripts/build-server.mjs';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface PrivateBuild {
  /** The working folder to start the server in: its dist/web is the page the server serves. */
  readonly root: string;
  readonly webRoot: string;
  /** Leftover's server entry point (src/server/main.ts bundled as `npm run build:server` does). */
  readonly serverMain: string;
  /** The bare comparison server (bench/servers/bare-ledger-server.ts compiled). */
  readonly bareServerMain: string;
  /** The bare start-up comparison for benchmark 10 (bench/servers/bare-readyz-server.ts compiled). */
  readonly bareReadyzServerMain: string;
}

/**
 * Where the private builds go: under node_modules/.cache, or BENCH_CACHE_DIR (a worktree whose
 * node_modules is another checkout's must not build over that checkout's run).
 */
export const BENCH_CACHE = process.env.BENCH_CACHE_DIR ?? path.join(REPO_ROOT, 'node_modules/.cache/leftover-bench');

export async function buildForBench(root = path.join(BENCH_CACHE, 'build')): Promise<PrivateBuild> {
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  // Inside node_modules Node stops looking for the project's package.json, so say ESM here.
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ type: 'module', private: true }));

  const webRoot = path.join(root, 'dist/web');
  await build({
    configFile: path.join(REPO_ROOT, 'vite.config.ts'),
    // The config names its root relative to the working folder; pin it to the repository's.
    root: path.join(REPO_ROOT, 'src/web'),
    // Build warnings are `npm run build`'s business; here they would only bury the figures.
    logLevel: 'error',
    build: { outDir: webRoot, emptyOutDir: true },
  });

  // The server exactly as `npm run build:server` builds it (bundled, decision 0045); the bare
  // comparison servers with the server's own TypeScript options.
  const { main: serverMain } = await buildServer({ outDir: path.join(root, 'server'), sourcemap: false });
  const out = path.join(root, 'out');
  const tsconfig = path.join(root, 'tsconfig.bench.json');
  fs.writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: path.join(REPO_ROOT, 'tsconfig.server.json'),
      compilerOptions: { rootDir: REPO_ROOT, outDir: out, sourceMap: false, tsBuildInfoFile: null },
      include: [path.join(REPO_ROOT, 'bench/servers')],
    }),
  );
  const tsc = spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', tsconfig], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  const bareReadyzServerMain = path.join(out, 'bench/servers/bare-readyz-server.js');
  if (!fs.existsSync(bareReadyzServerMain)) throw new Error(`tsc emitted no bare servers:\n${tsc.stdout}${tsc.stderr}`);
  // tsc still emits on type errors; `npm run typecheck` is where those fail, not here.
  if (tsc.status !== 0) console.warn(`Warning: the bare servers have type errors (building anyway):\n${tsc.stdout}${tsc.stderr}`);

  return {
    root,
    webRoot,
    serverMain,
    bareServerMain: path.join(out, 'bench/servers/bare-ledger-server.js'),
    bareReadyzServerMain,
  };
}
