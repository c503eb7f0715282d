#!/usr/bin/env node
// `npm test`: every check and every test, one after another, stopping at the first failure. Each
// step says how long it took, and the last lines list them all, so a slow CI run shows where its
// minutes went (the CI budget is 20 minutes on a fresh clone).
import { spawnSync } from 'node:child_process';

const STEPS = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['unused exports (knip)', 'npm', ['run', 'knip']],
  ['format', 'npm', ['run', 'format:check']],
  ['build', 'npm', ['run', 'build']],
  ['unit, component and API tests (Vitest)', 'npm', ['run', 'test:unit']],
  ['a browser for the end-to-end tests', 'node', ['scripts/check-browser.mjs']],
  ['end-to-end tests (Playwright)', 'npx', ['playwright', 'test']],
  ['summary', 'node', ['scripts/test-summary.mjs']],
];

const took = [];
const started = Date.now();
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
