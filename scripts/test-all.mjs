#!/usr/bin/env node
// `npm test`: every check and every test, stopping at the first step that fails. Each
// step says how long it took, and the last lines list them all, so a slow CI run shows where its
// minutes went (the CI budget is 20 minutes on a fresh clone).
import { spawn } from 'node:child_process';
import fs from 'node:fs';

/**
 * The build comes first: the browser and reliability tests run the built server. Then two lanes at
 * once (decision 0078, reordered in 0083 and 0116): in one the typecheck, the browser tests
 * (Playwright), knip and the format check; in the other the lint, then Vitest's API and page tests.
 * Each lane keeps about one of a 2-core machine's cores busy, and the checks are split so that the
 * two end about together. A failure in either lane stops the other. The reliability tests come
 * last, alone: first those that kill, race and load server processes, two files at a time, then
 * those that time one user while another loads the server, one file at a time.
 */
const BUILD = ['build', 'npm', ['run', 'build'], {}];
/** Checks that run before Vitest, in its lane. */
const CHECKS_BEFORE_VITEST = [['lint', 'npm', ['run', 'lint'], {}]];
/** Checks that run before and after the browser tests, in theirs: the two lanes then end about together. */
const CHECKS_BEFORE_PLAYWRIGHT = [['typecheck', 'npm', ['run', 'typecheck'], {}]];
const CHECKS_AFTER_PLAYWRIGHT = [
  ['unused exports (knip)', 'npm', ['run', 'knip'], {}],
  ['format', 'npm', ['run', 'format:check'], {}],
];
/** Vitest writes one JSON report per run; the summary adds them up with Playwright's. */
const VITEST_REPORT = 'reports/vitest.json';
const RELIABILITY_REPORT = 'reports/vitest-reliability.json';
const PLAYWRIGHT_REPORT = 'reports/playwright.json';
const VITEST_PROJECTS = ['node', 'web', 'web-isolated'];

const VITEST = [
  'unit, component and API tests (Vitest)',
  'npx',
  ['vitest', 'run', ...VITEST_PROJECTS.flatMap((project) => ['--project', project])],
  { VITEST_JSON_REPORT: VITEST_REPORT },
];
const PLAYWRIGHT = ['end-to-end tests (Playwright)', 'npx', ['playwright', 'test'], {}];

const STEPS = [
  // Processes killed, raced and loaded, two files at a time; then the timed ones, alone (vitest.config.ts).
  [
    'reliability tests (Vitest, alone)',
    'npx',
    ['vitest', 'run', '--project', 'reliability-processes', '--project', 'reliability'],
    { VITEST_JSON_REPORT: RELIABILITY_REPORT },
  ],
  ['summary', 'node', ['scripts/test-summary.mjs', VITEST_REPORT, RELIABILITY_REPORT, PLAYWRIGHT_REPORT], {}],
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

function stopIfFailed(names) {
  if (names.length === 0) return;
  console.error(`npm test stopped: ${names.join(', ')} failed.`);
  process.exit(1);
}

// No report of an earlier run may be counted in this one's summary.
for (const report of [VITEST_REPORT, RELIABILITY_REPORT, PLAYWRIGHT_REPORT]) fs.rmSync(report, { force: true });

const unprepared = await runLane([BUILD, ['a browser for the end-to-end tests', 'node', ['scripts/check-browser.mjs'], {}]]);
stopIfFailed(unprepared === null ? [] : [unprepared]);

const lanes = await Promise.all([
  runLane([...CHECKS_BEFORE_PLAYWRIGHT, PLAYWRIGHT, ...CHECKS_AFTER_PLAYWRIGHT], 'e2e │ '),
  runLane([...CHECKS_BEFORE_VITEST, VITEST]),
]);
stopIfFailed(lanes.filter((failed) => failed !== null));

for (const step of STEPS) stopIfFailed((await runStep(step)) === 0 ? [] : [step[0]]);

console.log('\n== time taken');
for (const [name, seconds] of took) console.log(`${String(seconds).padStart(5)} s  ${name}`);
console.log(`${String(Math.round((Date.now() - started) / 1000)).padStart(5)} s  in all`);
