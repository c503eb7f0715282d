/**
 * Throughput with autocannon, run as its own process (its CLI, JSON output) so the load generator
 * never shares an event loop with the code that starts and watches the servers.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from './build.js';

const autocannonResultSchema = z.object({
  requests: z.object({ average: z.number(), total: z.number() }),
  latency: z.object({ p50: z.number(), p99: z.number() }),
  errors: z.number(),
  timeouts: z.number(),
  non2xx: z.number(),
  '2xx': z.number(),
  duration: z.number(),
});
export type LoadResult = z.infer<typeof autocannonResultSchema>;

export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly headers?: Readonly<Record<string, string>>;
}

export async function autocannon(url: string, { connections, seconds, headers = {} }: LoadOptions): Promise<LoadResult> {
  const args = [path.join(REPO_ROOT, 'node_modules/autocannon/autocannon.js'), '--json', '-c', String(connections), '-d', String(seconds)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-5000)));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}: ${stderr}`);
  const result = autocannonResultSchema.parse(JSON.parse(stdout));
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`load run against ${url} had ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}
