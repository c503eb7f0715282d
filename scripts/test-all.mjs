#!/usr/bin/env node
// `npm test`: every check and every test, stopping at the first step that fails. Each
// step says how long it took, and the last lines list them all, so a slow CI run shows where its
// minutes went (the CI budget is 20 minutes on a fresh clone).
import { spawn } from 'node:child_process';
import fs from 'node:fs';

/**
 * The checks read the sources and write nothing the others read (the build writes dist/, which no
 * check reads), and each mostly keeps one core busy: they run two at a time, each one's output
 * printed whole when it ends.
 */
const CHECKS = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['build', 'npm', ['run', 'build']],
  ['unused exports (knip)', 'npm', ['run', 'knip']],
  ['format', 'npm', ['run', 'format:check']],
];
const CHECKS_AT_ONCE = 2;

/**
 * Vitest writes one JSON report per run; the summary adds them up with Playwright's. The page's and
 * the API's tests run beside the browser tests: alone, Vitest keeps one worker on a 2-core machine
 * and leaves a third of the cores idle, and the browser tests mostly wait on the page (decision
 * 0078; a second Vitest worker beside them made three browser tests time out). The reliability
 * tests time one user while another loads the server, so they run last and alone.
 */
const VITEST_REPORT = 'reports/vitest.json';
const RELIABILITY_REPORT = 'reports/vitest-reliability.json';
const PLAYWRIGHT_REPORT = 'reports/playwright.json';
const VITEST_PROJECTS = ['node', 'web', 'web-isolated'];

const BESIDE_EACH_OTHER = [
  [
    'unit, component and API tests (Vitest)',
    'npx',
    ['vitest', 'run', ...VITEST_PROJECTS.flatMap((project) => ['--project', project])],
    { VITEST_JSON_REPORT: VITEST_REPORT },
  ],
  ['end-to-end tests (Playwright)', 'npx', ['playwright', 'test'], {}],
];

const STEPS = [
  ['reliability tests (Vitest, alone)', 'npx', ['vitest', 'run', '--project', 'reliability'], { VITEST_JSON_REPORT: RELIABILITY_REPORT }],
  ['summary', 'node', ['scripts/test-summary.mjs', VITEST_REPORT, RELIABILITY_REPORT, PLAYWRIGHT_REPORT], {}],
];

const took = [];
const started = Date.now();

/** Runs one check with its output held, and answers its exit status once it has printed it. */
function runCheck([name, command, args]) {
  return new Promise((resolve) => {
    const stepStarted = Date.now();
    const output = [];
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const finish = (status, error) => {
      const seconds = Math.round((Date.now() - stepStarted) / 1000);
      took.push([name, seconds]);
      console.log(`\n== ${name}`);
      process.stdout.write(Buffer.concat(output));
      if (error) console.error(error.message);
      console.log(`== ${name}: ${seconds} s${status === 0 ? '' : ' (failed)'}`);
      resolve(status);
    };
    child.on('error', (error) => finish(1, error));
    child.on('close', (status) => finish(status ?? 1));
  });
}

/** Runs one step with its output streamed, each line led by `label` when one is given. */
function runStreamed([name, command, args, env], label) {
  return new Promise((resolve) => {
    const stepStarted = Date.now();
    console.log(`\n== ${name}${label ? ` (its lines start with "${label}")` : ''}`);
    const child = spawn(command, args, {
      stdio: ['ignore', label ? 'pipe' : 'inherit', label ? 'pipe' : 'inherit'],
      env: { ...process.env, ...env },
    });
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

function stopIfFailed(names) {
  if (names.length === 0) return;
  console.error(`npm test stopped: ${names.join(', ')} failed.`);
  process.exit(1);
}

// No report of an earlier run may be counted in this one's summary.
for (const report of [VITEST_REPORT, RELIABILITY_REPORT, PLAYWRIGHT_REPORT]) fs.rmSync(report, { force: true });

const queue = [...CHECKS];
const failedChecks = [];
await Promise.all(
  Array.from({ length: CHECKS_AT_ONCE }, async () => {
    for (let check = queue.shift(); check !== undefined; check = queue.shift()) {
      if ((await runCheck(check)) !== 0) failedChecks.push(check[0]);
    }
  }),
);
stopIfFailed(failedChecks);

stopIfFailed(
  (await runStreamed(['a browser for the end-to-end tests', 'node', ['scripts/check-browser.mjs'], {}])) === 0 ? [] : ['the browser check'],
);

const [vitestStep, playwrightStep] = BESIDE_EACH_OTHER;
const besideStatuses = await Promise.all([runStreamed(vitestStep), runStreamed(playwrightStep, 'e2e │ ')]);
stopIfFailed(BESIDE_EACH_OTHER.filter((_, index) => besideStatuses[index] !== 0).map(([name]) => name));

for (const step of STEPS) stopIfFailed((await runStreamed(step)) === 0 ? [] : [step[0]]);

console.log('\n== time taken');
for (const [name, seconds] of took) console.log(`${String(seconds).padStart(5)} s  ${name}`);
console.log(`${String(Math.round((Date.now() - started) / 1000)).padStart(5)} s  in all`);
