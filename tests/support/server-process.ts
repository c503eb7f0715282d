/**
 * The built server (`node dist/server/server/main.js`) as a child process on a loopback port, the
 * way it runs in production: tests that kill it or load it need a real process and real sockets,
 * not `app.inject()`. Sign-in is pointed at a loopback test issuer, so the dev provider is off.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestIssuer } from './test-issuer.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_ENTRY = path.join(ROOT, 'dist/server/server/main.js');
/** The sources tsconfig.server.json compiles into dist/server. */
const SERVER_SOURCES = ['src/server', 'src/domain', 'src/contract'].map((folder) => path.join(ROOT, folder));

const READY_TIMEOUT_MS = 30_000;
const EXIT_TIMEOUT_MS = 10_000;
/** Enough of the child's output to explain a failure, without holding a whole load run's log. */
const OUTPUT_LIMIT_CHARS = 20_000;

function newestSource(target: string): { file: string; at: number } {
  const stats = fs.statSync(target);
  if (!stats.isDirectory()) return { file: target, at: target.endsWith('.test.ts') ? 0 : stats.mtimeMs };
  let newest = { file: target, at: 0 };
  for (const entry of fs.readdirSync(target)) {
    const candidate = newestSource(path.join(target, entry));
    if (candidate.at > newest.at) newest = candidate;
  }
  return newest;
}

/**
 * Throws unless dist/server holds a build at least as new as its sources. Testing an old build
 * would prove nothing about the code under review, so this fails rather than guessing.
 */
export function assertServerBuilt(): void {
  if (!fs.existsSync(SERVER_ENTRY)) {
    throw new Error(`The built server is missing (${path.relative(ROOT, SERVER_ENTRY)}): run \`npm run build:server\` before these tests.`);
  }
  const builtAt = fs.statSync(SERVER_ENTRY).mtimeMs;
  const newest = SERVER_SOURCES.filter((folder) => fs.existsSync(folder))
    .map(newestSource)
    .reduce((a, b) => (b.at > a.at ? b : a));
  if (newest.at > builtAt) {
    throw new Error(`The built server is older than ${path.relative(ROOT, newest.file)}: run \`npm run build:server\` before these tests.`);
  }
}

/** A port nobody listens on right now (the OS picks it; a race with another process is unlikely). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port from the OS');
  return address.port;
}

export interface ServerProcessOptions {
  readonly databaseUrl: string;
  readonly issuer: TestIssuer;
  /** Reuse a port to restart "the same" server; a free one is picked otherwise. */
  readonly port?: number;
  /** Extra environment, e.g. a rate-limit budget. */
  readonly env?: Readonly<Record<string, string>>;
  /** Another script that runs the built server (a fixed clock's, say); dist/server/server/main.js otherwise. */
  readonly entry?: string;
}

export interface ServerProcess {
  readonly origin: string;
  readonly port: number;
  readonly pid: number;
  /** What the server wrote to stdout and stderr (the last part of it). */
  output(): string;
  /** SIGKILL: no shutdown hook runs, open transactions die with the process. Resolves on exit. */
  kill(): Promise<void>;
  /** SIGTERM (the server closes itself), SIGKILL if it has not exited within a bounded wait. */
  stop(): Promise<void>;
  /** Resolves when the process has exited, with how it ended. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const result = await Promise.race([exited(child).then(() => true as const), timedOut]);
  clearTimeout(timer);
  return result;
}

/** Starts the built server and resolves once it answers on its port. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  assertServerBuilt();
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [options.entry ?? SERVER_ENTRY], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      // All three set: the embedded development provider stays off, tokens come from the test issuer.
      OIDC_ISSUER: options.issuer.issuer,
      OIDC_CLIENT_ID: 'leftover-web',
      OIDC_AUDIENCE: options.issuer.audience,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server process did not start');

  const deadline = Date.now() + READY_TIMEOUT_MS;
  let ready = false;
  // Polls a cheap public address; bounded by the deadline, and stops early if the child died.
  while (!ready && Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited before it was ready (code ${child.exitCode}, signal ${child.signalCode}):\n${output}`);
    }
    try {
      const response = await fetch(`${origin}/app-config.json`, { signal: AbortSignal.timeout(2_000) });
      ready = response.ok;
    } catch {
      // Not listening yet.
    }
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`the server did not answer within ${READY_TIMEOUT_MS} ms:\n${output}`);
  }

  return {
    origin,
    port,
    pid,
    output: () => output,
    async kill() {
      child.kill('SIGKILL');
      if (!(await waitForExit(child, EXIT_TIMEOUT_MS))) throw new Error(`server ${pid} survived SIGKILL`);
    },
    async stop() {
      child.kill('SIGTERM');
      if (await waitForExit(child, EXIT_TIMEOUT_MS)) return;
      child.kill('SIGKILL');
      await waitForExit(child, EXIT_TIMEOUT_MS);
    },
    async exited() {
      await exited(child);
      return { code: child.exitCode, signal: child.signalCode };
    },
  };
}
