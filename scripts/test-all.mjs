#!/usr/bin/env node
// `npm test`: every check and every test, one after another, stopping at the first failure. Each
// step says how long it took, and the last lines list them all, so a slow CI run shows where its
// minutes went (the CI budget is 20 minutes on a fresh clone).
import { spawn, spawnSync } from 'node:child_process';

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

const STEPS = [
  ['unit, component and API tests (Vitest)', 'npm', ['run', 'test:unit']],
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

const queue = [...CHECKS];
const failedChecks = [];
await Promise.all(
  Array.from({ length: CHECKS_AT_ONCE }, async () => {
    for (let check = queue.shift(); check !== undefined; check = queue.shift()) {
      if ((await runCheck(check)) !== 0) failedChecks.push(check[0]);
    }
  }),
);
if (failedChecks.length > 0) {
  console.error(`npm test stopped: ${failedChecks.join(', ')} failed.`);
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
