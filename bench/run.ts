/**
 * `npm run bench`: Leftover against the limits of its own stack, each figure a ratio of two
 * measurements taken side by side in this run (absolute times on a shared 2-core machine are
 * noise). Prints a table, writes bench/results.json, and exits 1 when a target is missed.
 *
 *   npm run bench                 every benchmark
 *   npm run bench -- 1 3          only benchmarks 1 and 3
 *   npm run bench -- 9d           only part d of benchmark 9
 *   BENCH_QUICK=1 npm run bench   shorter runs for a first look (not for judging targets)
 *   BENCH_BUILD_DIR=node_modules/.cache/mine/build npm run bench -- 11
 *                                 the private build elsewhere, for two runs side by side
 *
 * See docs/PERFORMANCE.md for the method and what each ratio means.
 */
import path from 'node:path';
import { apiThroughput } from './benchmarks/api-throughput.js';
import { bankSync } from './benchmarks/bank-sync.js';
import { firstView } from './benchmarks/first-view.js';
import { growth } from './benchmarks/growth.js';
import { leaks } from './benchmarks/leaks.js';
import { livePay } from './benchmarks/live-pay.js';
import { manyAccounts } from './benchmarks/many-accounts.js';
import { pageSpeed } from './benchmarks/page-speed.js';
import { pageWeight } from './benchmarks/page-weight.js';
import { phone } from './benchmarks/phone.js';
import { safeToSpend } from './benchmarks/safe-to-spend.js';
import { scale } from './benchmarks/scale.js';
import { startup } from './benchmarks/startup.js';
import { statementImport } from './benchmarks/statement-import.js';
import { writeCost } from './benchmarks/write-cost.js';
import { buildForBench, type PrivateBuild } from './lib/build.js';
import { type BenchResult, PartlyRunError, printTable, RESULTS_FILE, writeResults } from './lib/report.js';
import { type BenchSettings, settingsFromEnvironment } from './lib/settings.js';

type Benchmark = (build: PrivateBuild, settings: BenchSettings) => Promise<BenchResult[]>;

const BENCHMARKS: Readonly<Record<string, Benchmark>> = {
  '1': apiThroughput,
  '2': writeCost,
  '3': growth,
  '4': pageWeight,
  '5': pageSpeed,
  '6': leaks,
  '7': phone,
  '8': statementImport,
  '9': scale,
  '10': startup,
  '11': manyAccounts,
  '12': firstView,
  '13': safeToSpend,
  '14': bankSync,
  '15': livePay,
};

async function main(): Promise<void> {
  const given = process.argv.slice(2).filter((argument) => argument !== '--');
  // "9d" (or "9ab") runs only those parts of a benchmark whose figures can be measured apart.
  const chosen = [...new Set(given.map((argument) => argument.replace(/(?<=^\d+)[a-z]+$/, '')))];
  const parts = new Set(given.flatMap((argument) => [...(/(?<=^\d+)[a-z]+$/.exec(argument)?.[0] ?? '')]));
  const unknown = chosen.filter((name) => !(name in BENCHMARKS));
  if (unknown.length > 0) throw new Error(`no benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}`);
  const names = chosen.length > 0 ? chosen : Object.keys(BENCHMARKS);
  const settings: BenchSettings = { ...settingsFromEnvironment(process.env), parts };

  console.log('Building the page and the server (private copy under node_modules/.cache/leftover-bench)...');
  // Kept inside node_modules when moved, so the built server still finds its packages.
  const build = await buildForBench(process.env.BENCH_BUILD_DIR ? path.resolve(process.env.BENCH_BUILD_DIR) : undefined);
  const results: BenchResult[] = [];
  const broken: string[] = [];
  for (const name of names) {
    const benchmark = BENCHMARKS[name];
    if (!benchmark) continue;
    console.log(`Running benchmark ${name}...`);
    const started = Date.now();
    try {
      const measured = await benchmark(build, settings);
      for (const entry of measured)
        console.log(
          `  ${entry.name}: ${entry.ratio.toFixed(3)} (${entry.target}) ${entry.pass ? 'PASS' : 'FAIL'}${entry.note ? ` - ${entry.note}` : ''}`,
        );
      results.push(...measured);
    } catch (error) {
      // One broken benchmark should not cost the figures of the others, nor of its own parts that ran.
      console.error(`  benchmark ${name} could not run:`, error);
      if (error instanceof PartlyRunError) results.push(...error.results);
      broken.push(name);
    }
    console.log(`  (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  console.log('');
  printTable(results);
  writeResults(results);
  console.log(`\nWrote ${RESULTS_FILE}${settings.quick ? ' (BENCH_QUICK: rough figures)' : ''}`);
  if (broken.length > 0) console.error(`\nBenchmarks that could not run: ${broken.join(', ')}`);
  if (broken.length > 0 || results.some((entry) => !entry.pass)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
