/**
 * Benchmark 1, the API read against the stack's limit: requests per second of GET retrieve-ledger
 * on a 1,000-row ledger (authenticated, embedded SQLite) over those of a bare Fastify route that
 * serves the same ledger object from memory through the same serializer, with no token and no
 * database. 10 connections for 10 s each, the two servers taking turns so drift hits both alike.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import type { PrivateBuild } from '../lib/build.js';
import { autocannon } from '../lib/load.js';
import { type BenchResult, result } from '../lib/report.js';
import { seedLedger, signIn } from '../lib/seed.js';
import { newDataDir, startBareLedgerServer, startLeftover } from '../lib/server-process.js';
import type { BenchSettings } from '../lib/settings.js';
import { median, round } from '../lib/stats.js';

export const LEDGER_ROWS = 1000;
const CONNECTIONS = 10;

export async function apiThroughput(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const seconds = settings.quick ? 3 : 10;
  const rounds = settings.quick ? 1 : 3;
  const dataDir = newDataDir();
  const ours = await startLeftover(build, dataDir);
  try {
    const client = await signIn(ours.origin, 'bench-throughput');
    await seedLedger(client, LEDGER_ROWS);
    const answer = await client.request('GET', LEDGER_PATHS.retrieve);
    client.close();
    const ledgerFile = path.join(dataDir, 'ledger-answer.json');
    fs.writeFileSync(ledgerFile, answer.body);

    const bare = await startBareLedgerServer(build, ledgerFile);
    try {
      const bareAnswer = await fetch(`${bare.origin}${LEDGER_PATHS.retrieve}`);
      // The same bytes on the wire: the comparison is about everything around the ledger, not the ledger.
      if ((await bareAnswer.text()) !== answer.body) throw new Error('the bare route does not answer the same ledger');

      const ourTarget = { url: `${ours.origin}${LEDGER_PATHS.retrieve}`, headers: { authorization: `Bearer ${client.accessToken}` } };
      const bareTarget = { url: `${bare.origin}${LEDGER_PATHS.retrieve}`, headers: {} };
      // Warm both up (JIT, caches, SQLite pages) before anything counts.
      for (const target of [ourTarget, bareTarget])
        await autocannon(target.url, { connections: CONNECTIONS, seconds: 2, headers: target.headers });

      const runs = {
        ours: { rates: [] as number[], perCpuSecond: [] as number[] },
        bare: { rates: [] as number[], perCpuSecond: [] as number[] },
      };
      for (let turn = 0; turn < rounds; turn += 1) {
        // Alternate which goes first, so neither always runs on the warmer (or hotter) machine.
        const order = turn % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
        for (const which of order) {
          const target = which === 'ours' ? ourTarget : bareTarget;
          const server = which === 'ours' ? ours : bare;
          const cpuBefore = server.cpuSeconds();
          const run = await autocannon(target.url, { connections: CONNECTIONS, seconds, headers: target.headers });
          const cpu = server.cpuSeconds() - cpuBefore;
          runs[which].rates.push(run.requests.total / seconds);
          runs[which].perCpuSecond.push(run.requests.total / cpu);
        }
      }
      const list = (values: readonly number[]) => values.map((value) => value.toFixed(0)).join('/');
      const oursCapacity = median(runs.ours.perCpuSecond);
      const bareCapacity = median(runs.bare.perCpuSecond);
      const rawRatio = median(runs.ours.rates) / median(runs.bare.rates);
      return [
        result(
          `1. GET ledger (${LEDGER_ROWS} rows) req/s per CPU-second vs bare route`,
          'req/CPU-s',
          round(oursCapacity, 1),
          round(bareCapacity, 1),
          { atLeast: 0.5 },
          `${rounds} x ${seconds} s at ${CONNECTIONS} connections each, medians. Wall-clock req/s: ours ${list(runs.ours.rates)}, bare ${list(runs.bare.rates)} (ratio ${rawRatio.toFixed(3)}); per CPU-second of the server: ours ${list(runs.ours.perCpuSecond)}, bare ${list(runs.bare.perCpuSecond)}`,
        ),
      ];
    } finally {
      await bare.stop();
    }
  } finally {
    await ours.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
