#!/usr/bin/env node
// `npm test`: every check and every test, stopping at the first step that fails. Each
// step says how long it took, and the last lines list them all, so a slow CI run shows where its
// minutes went (the CI budget is 20 minutes on a fresh clone).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { newTestRunName } from '../tests/support/test-run-name.mjs';

/**
 * The build comes first: the browser and reliability tests run the built server. Then two lanes at
 * once (decision 0078, reordered in 0083 and 0116), each keeping about one of a 2-core machine's
 * cores busy, split so that the two end about together: in one the lint, Vitest's API and domain
 * tests (the `node` project) and the format check; in the other the typecheck, the browser tests
 * (Playwright), Vitest's page tests and its property tests against the API (the `fuzz` project),
 * and knip. A failure in either lane stops the other. The reliability tests come last, alone: first
 * those that kill, race and load server processes, two files at a time, then those that time one
 * user while another loads the server, one file at a time.
 */
const BUILD = ['build', 'npm', ['run', 'build'], {}];
/** Vitest writes one JSON report per run; the summary adds them up with Playwright's. */
const VITEST_REPORT = 'reports/vitest.json';
const VITEST_PAGE_REPORT = 'reports/vitest-page.json';
const VITEST_FUZZ_REPORT = 'reports/vitest-fuzz.json';
const RELIABILITY_REPORT = 'reports/vitest-reliability.json';
const PLAYWRIGHT_REPORT = 'reports/playwright.json';

/**
 * One PostgreSQL test run (tests/support/postgres-run-schemas.ts) for every Vitest run of this
 * `npm test`: Vitest runs in both lanes at once, and a run that dropped its schemas while another
 * reads the catalogue would fail that one. The children inherit it; its schemas are dropped once
 * the last Vitest run has ended, or one has failed.
 */
const TEST_RUN = newTestRunName();
process.env.LEFTOVER_TEST_RUN = TEST_RUN;
const DROP_TEST_SCHEMAS = [
  "the PostgreSQL test run's schemas dropped",
  'node',
  ['--import', 'tsx', 'tests/support/drop-run-schemas.ts', TEST_RUN],
  {},
];

/** A Vitest run of the given projects (vitest.config.ts) writing its JSON report to `report`. */
function vitestRun(name, projects, report) {
  return [name, 'npx', ['vitest', 'run', ...projects.flatMap((project) => ['--project', project])], { VITEST_JSON_REPORT: report }];
}

const API_LANE = [
  ['lint', 'npm', ['run', 'lint'], {}],
  vitestRun('unit and API tests (Vitest)', ['node'], VITEST_REPORT),
  ['format', 'npm', ['run', 'format:check'], {}],
];
const BROWSER_LANE = [
  ['typecheck', 'npm', ['run', 'typecheck'], {}],
  ['end-to-end tests (Playwright)', 'npx', ['playwright', 'test'], {}],
  vitestRun('component tests of the page (Vitest)', ['web', 'web-isolated'], VITEST_PAGE_REPORT),
  vitestRun('property tests against the API (Vitest)', ['fuzz'], VITEST_FUZZ_REPORT),
  ['unused exports (knip)', 'npm', ['run', 'knip'], {}],
];

const STEPS = [
  // Processes killed, raced and loaded, two files at a time; then the timed ones, alone (vitest.config.ts).
  [
    'reliability tests (Vitest, alone)',
    'npx',
    ['vitest', 'run', '--project', 'reliability-processes', '--project', 'reliability'],
    { VITEST_JSON_REPORT: RELIABILITY_REPORT },
  ],
  DROP_TEST_SCHEMAS,
  [
    'summary',
    'node',
    ['scripts/test-summary.mjs', VITEST_REPORT, VITEST_PAGE_REPORT, VITEST_FUZZ_REPORT, RELIABILITY_REPORT, PLAYWRIGHT_REPORT],
    {},
  ],
];

const took = [];
const started = Date.now();

/** Every step still running, each its own process group: a failure elsewhere stops them all. */
const running = new Set();

/** Runs one step with its output streamed, each line led by `label` when one is given; answers its exit status. */
function runStep([name, command, args, env], label) {
  return new Promise((resolve) => {
    const stepStarted = Date.now();
    console.log(`\n== ${name}${label ? ` (its lines start with "${label}")` : ''}`);
    const child = spawn(command, args, {
      stdio: ['ignore', label ? 'pipe' : 'inherit', label ? 'pipe' : 'inherit'],
      env: { ...process.env, ...env },
      // Its own process group, so stopping it stops what it started (Playwright's server and browser).
      detached: true,
    });
    running.add(child);
    if (label) {
      for (const stream of [child.stdout, child.stderr]) {
        let pending = '';
        stream.setEncoding('utf8');
        stream.on('data', (text) => {
          const lines = (pending + text).split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) process.stdout.write(`${label}${line}\n`);
        });
        stream.on('end', () => {
          if (pending) process.stdout.write(`${label}${pending}\n`);
        });
      }
    }
    const finish = (status, error) => {
      running.delete(child);
      const seconds = Math.round((Date.now() - stepStarted) / 1000);
      took.push([name, seconds]);
      if (error) console.error(error.message);
      console.log(`== ${name}: ${seconds} s${status === 0 ? '' : ' (failed)'}`);
      resolve(status);
    };
    child.on('error', (error) => finish(1, error));
    child.on('close', (status) => finish(status ?? 1));
  });
}

/** Runs steps one after another and stops the other lane at the first that fails; answers the failed step's name, or null. */
async function runLane(steps, label) {
  for (const step of steps) {
    if ((await runStep(step, label)) !== 0) {
      stopRunning();
      return step[0];
    }
  }
  return null;
}

function stopRunning() {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

process.on('SIGINT', () => {
  stopRunning();
  process.exit(130);
});

async function stopIfFailed(names) {
  if (names.length === 0) return;
  console.error(`npm test stopped: ${names.join(', ')} failed.`);
  // The run's schemas go with it, unless dropping them is what failed.
  if (!names.includes(DROP_TEST_SCHEMAS[0])) await runStep(DROP_TEST_SCHEMAS);
  process.exit(1);
}

// No report of an earlier run may be counted in this one's summary.
for (const report of [VITEST_REPORT, VITEST_PAGE_REPORT, VITEST_FUZZ_REPORT, RELIABILITY_REPORT, PLAYWRIGHT_REPORT])
  fs.rmSync(report, { force: true });

const unprepared = await runLane([BUILD, ['a browser for the end-to-end tests', 'node', ['scripts/check-browser.mjs'], {}]]);
await stopIfFailed(unprepared === null ? [] : [unprepared]);

const lanes = await Promise.all([runLane(BROWSER_LANE, 'browser │ '), runLane(API_LANE)]);
await stopIfFailed(lanes.filter((failed) => failed !== null));

for (const step of STEPS) await stopIfFailed((await runStep(step)) === 0 ? [] : [step[0]]);

console.log('\n== time taken');
for (const [name, seconds] of took) console.log(`${String(seconds).padStart(5)} s  ${name}`);
console.log(`${String(Math.round((Date.now() - started) / 1000)).padStart(5)} s  in all`);
