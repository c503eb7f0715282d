#!/usr/bin/env node
// One closing line for the whole of `npm test`: unit, component and API tests (Vitest) plus the
// browser tests (Playwright), read from their JSON reports.
import fs from 'node:fs';

function read(file) {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

const vitest = read('reports/vitest.json');
const playwright = read('reports/playwright.json');
let passed = 0;
let failed = 0;
let skipped = 0;
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
}
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  failed += playwright.stats.unexpected;
  skipped += playwright.stats.skipped;
}
if (!vitest || !playwright) {
  console.error('test summary: a report is missing (reports/vitest.json or reports/playwright.json)');
  process.exit(1);
}
console.log(`Vitest: ${vitest.numPassedTests} passed; Playwright: ${playwright.stats.expected} passed`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0 || (process.env.CI && skipped > 0)) process.exit(1);
