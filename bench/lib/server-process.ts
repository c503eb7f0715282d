/**
 * Servers under test run as child processes, so what a benchmark measures (throughput, latency,
 * resident memory) belongs to the server alone, not to the process driving the load. Memory comes
 * from /proc: VmRSS now, and VmHWM, the peak since the last reset.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { PrivateBuild } from './build.js';

export interface ServerProcess {
  readonly origin: string;
  readonly pid: number;
  /**
   * From spawning the process to the first 2xx answer of its ready path, in ms. The path is asked
   * again every `pollMs` (see StartOptions) after a refusal, so the figure is late by up to that.
   */
  readonly readyMs: number;
  /** Resident memory now, in bytes. */
  rssBytes(): number;
  /** The highest resident memory since the last resetPeak (or the start), in bytes. */
  peakRssBytes(): number;
  resetPeak(): void;
  /** CPU time the process has used so far (user and system, all its threads), in seconds. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** Both servers log at this level: "warn" keeps per-request lines out of both measurements alike. */
export const BENCH_LOG_LEVEL = 'warn';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} for process ${pid}`);
  return Number(match[1]);
}

/** Clock ticks per second for /proc's CPU times (getconf CLK_TCK; 100 on Linux almost everywhere). */
const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

function procCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which sits in parentheses and may itself hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** Where and how often a start is watched. */
export interface StartOptions {
  /** The address the server listens on and is asked at (HOST): "localhost" unless said. */
  readonly host?: string;
  /** How long to wait after a refused or failed ready check before the next: 100 ms unless said. */
  readonly pollMs?: number;
}

/** One GET: its status code, or 0 when nothing answered (not listening yet, or too slow). */
function statusOf(url: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    // A connection of its own each time: a kept-alive socket would outlive a refused start.
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
      response.once('error', () => resolve(0));
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve(0));
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess, output: () => string, pollMs: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    const status = await statusOf(url, 2000);
    if (status >= 200 && status < 300) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`server did not answer ${url} within 60 s:\n${output()}`);
}

/**
 * Starts `node entry` in `cwd` with only `env`, and waits for a 2xx from `readyPath` on `port`.
 * Exported for servers that are not ours (benchmark 10 starts Actual Budget's sync server with it).
 */
export async function startProcess(
  entry: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  readyPath: string,
  port: number,
  { host = 'localhost', pollMs = 100 }: StartOptions = {},
): Promise<ServerProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, [entry], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // What the server said (its log goes to stdout, at the benchmarks' level: warnings and errors),
  // for the error of a start that failed. Only the tail is kept: a long run must not grow this
  // process's memory.
  let said = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      said = (said + chunk).slice(-20_000);
    });
  }
  const origin = `http://${host}:${port}`;
  try {
    await waitUntilAnswering(`${origin}${readyPath}`, child, () => said, pollMs);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const readyMs = performance.now() - started;
  const pid = child.pid;
  if (pid === undefined) throw new Error('server process has no pid');
  return {
    origin,
    pid,
    readyMs,
    rssBytes: () => procStatusKb(pid, 'VmRSS') * 1024,
    peakRssBytes: () => procStatusKb(pid, 'VmHWM') * 1024,
    // Writing 5 to clear_refs resets the peak resident set size to the current one (Linux).
    resetPeak: () => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'),
    cpuSeconds: () => procCpuSeconds(pid),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A fresh data folder (SQLite file and dev provider keys) that the caller removes when done. */
export function newDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-bench-'));
}

/** What Leftover and the bare servers all start with, so they run the same way. */
function sameStart(port: number, host = 'localhost'): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: host,
    LOG_LEVEL: BENCH_LOG_LEVEL,
  };
}

/** NODE_OPTIONS made of every part given, or nothing when none is. */
function nodeOptions(...parts: readonly (string | undefined)[]): NodeJS.ProcessEnv {
  const given = parts.filter((part): part is string => part !== undefined && part !== '');
  return given.length === 0 ? {} : { NODE_OPTIONS: given.join(' ') };
}

/** The request log's preload when BENCH_SERVER_REQUEST_LOG names a file: a diagnostic, off unless asked for (it costs each request two reads of /proc). */
function requestLogPreload(): string | undefined {
  return process.env.BENCH_SERVER_REQUEST_LOG ? `--import ${new URL('./request-log-preload.mjs', import.meta.url).href}` : undefined;
}

/**
 * For startLeftover's `env`: the server asks V8 for a full garbage collection, handing free memory
 * back to the system, when sent COLLECT_GARBAGE_SIGNAL (benchmark 6, decision 0118). A preload of
 * the benchmarks' own, never part of a start of the product.
 */
export const COLLECT_GARBAGE_ON_SIGNAL: NodeJS.ProcessEnv = {
  NODE_OPTIONS: `--import ${new URL('./collect-garbage-on-signal.mjs', import.meta.url).href}`,
};
/** A signal the server leaves alone (it closes on SIGINT, SIGTERM and SIGUSR2) and Linux ignores by default. */
export const COLLECT_GARBAGE_SIGNAL = 'SIGWINCH';

/**
 * Leftover as `npm start` runs it: the built server with the built page, the embedded SQLite
 * database and the embedded development OpenID provider. Rows belong to the issuer, whose address
 * holds the port: restart on the same port to find the same users' data again.
 */
export async function startLeftover(
  build: PrivateBuild,
  dataDir: string,
  port?: number,
  {
    readyPath = '/app-config.json',
    env: extra = {},
    ...start
  }: StartOptions & { readonly readyPath?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<ServerProcess> {
  port ??= await freePort();
  const env: NodeJS.ProcessEnv = {
    ...sameStart(port, start.host),
    ...extra,
    // BENCH_SERVER_NODE_OPTIONS="--import <a preload that starts node:inspector's profiler>", say, for where
    // the time goes in any benchmark's server (Node 20 refuses --cpu-prof in NODE_OPTIONS). Added to
    // a benchmark's own options, never in their place: benchmark 6's preload (COLLECT_GARBAGE_ON_SIGNAL)
    // dropped would leave its signal ignored, and its figure read without the collection.
    // BENCH_SERVER_REQUEST_LOG=<file>: a line per request with where its time went (request-log-preload.mjs).
    ...nodeOptions(extra.NODE_OPTIONS, process.env.BENCH_SERVER_NODE_OPTIONS, requestLogPreload()),
    ...(process.env.BENCH_SERVER_REQUEST_LOG ? { BENCH_SERVER_REQUEST_LOG: path.resolve(process.env.BENCH_SERVER_REQUEST_LOG) } : {}),
    DATABASE_URL: `sqlite:${path.join(dataDir, 'leftover.sqlite')}`,
    // The per-user request budget guards production against floods; a benchmark is one on purpose.
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000000',
    // The development sign-in's own budget (decision 0028): benchmarks sign in many users from one address.
    OIDC_RATE_LIMIT_PER_MINUTE: '1000000',
  };
  return startProcess(build.serverMain, build.root, env, readyPath, port, start);
}

/** The bare Fastify route serving the ledger answer stored in ledgerFile. */
export async function startBareLedgerServer(build: PrivateBuild, ledgerFile: string): Promise<ServerProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...sameStart(port), LEDGER_FILE: ledgerFile };
  return startProcess(build.bareServerMain, build.root, env, '/ready', port);
}

/** Bare Fastify and better-sqlite3 answering /readyz from a fresh SQLite file in dataDir (benchmark 10). */
export async function startBareReadyzServer(build: PrivateBuild, dataDir: string, start: StartOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...sameStart(port, start.host), DATABASE_FILE: path.join(dataDir, 'bare.sqlite') };
  return startProcess(build.bareReadyzServerMain, build.root, env, '/readyz', port, start);
}
