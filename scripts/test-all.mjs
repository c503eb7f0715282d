#!/usr/bin/env node
// `npm test`: every check and every test, stopping at the first failure (the build, then Vitest with the other checks beside it, then Playwright). Each
// step says how long it took, and the last lines list them all, so a slow CI run shows where its
// minutes went (the CI budget is 20 minutes on a fresh clone).
import { spawn, spawnSync } from 'node:child_process';

/**
 * The build comes first: the reliability tests start the built server, and the browser tests serve
 * it. The other checks read the sources and write nothing a test reads, and each keeps one core
 * busy for a minute or two: they run one after another beside Vitest's first project files (the
 * reliability tests, which measure latency, run last in Vitest and start after the checks are
 * done), each one's output printed whole when it ends. On 2 cores that hides about a minute and a
 * half of the CI run.
 */
const BUILD = ['build', 'npm', ['run', 'build']];
const CHECKS = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['unused exports (knip)', 'npm', ['run', 'knip']],
  ['format', 'npm', ['run', 'format:check']],
];
const VITEST = ['unit, component and API tests (Vitest)', 'npm', ['run', 'test:unit']];

const STEPS = [
  ['a browser for the end-to-end tests', 'node', ['scripts/check-browser.mjs']],
  ['end-to-end tests (Playwright)', 'npx', ['playwright', 'test']],
  ['summary', 'node', ['scripts/test-summary.mjs']],
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

/** Runs a step with the terminal as its output; answers its exit status. */
function runInPlace([name, command, args]) {
  return new Promise((resolve) => {
    console.log(`\n== ${name}`);
    const stepStarted = Date.now();
    const child = spawn(command, args, { stdio: 'inherit' });
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

if ((await runCheck(BUILD)) !== 0) {
  console.error('npm test stopped: build failed.');
  process.exit(1);
}
const failedChecks = [];
const checksDone = (async () => {
  for (const check of CHECKS) if ((await runCheck(check)) !== 0) failedChecks.push(check[0]);
})();
const [vitestStatus] = await Promise.all([runInPlace(VITEST), checksDone]);
if (failedChecks.length > 0 || vitestStatus !== 0) {
  const failed = [...failedChecks, ...(vitestStatus === 0 ? [] : [VITEST[0]])];
  console.error(`npm test stopped: ${failed.join(', ')} failed.`);
  process.exit(1);
}

for (const [name, command, args] of STEPS) {
  console.log(`\n== ${name}`);
  const stepStarted = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit' });
  const seconds = Math.round((Date.now() - stepStarted) / 1000);
  took.push([name, seconds]);
  console.log(`== ${name}: ${seconds} s`);
  if (result.status !== 0) {
    console.error(`npm test stopped: ${name} failed${result.error ? ` (${result.error.message})` : ''}.`);
    process.exit(result.status ?? 1);
  }
}
console.log('\n== time taken');
for (const [name, seconds] of took) console.log(`${String(seconds).padStart(5)} s  ${name}`);
console.log(`${String(Math.round((Date.now() - started) / 1000)).padStart(5)} s  in all`);
