#!/usr/bin/env node
// One closing line for the whole of `npm test`: unit, component and API tests (Vitest, one report
// per run) plus the browser tests (Playwright), read from their JSON reports. The reports are named
// on the command line; without them, reports/vitest.json and reports/playwright.json.
import fs from 'node:fs';

const named = process.argv.slice(2);
const reports = named.length > 0 ? named : ['reports/vitest.json', 'reports/playwright.json'];

const missing = reports.filter((file) => !fs.existsSync(file));
if (missing.length > 0) {
  console.error(`test summary: a report is missing (${missing.join(', ')})`);
  process.exit(1);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
for (const file of reports) {
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (report.stats) {
    // Playwright's report.
    passed += report.stats.expected + report.stats.flaky;
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    lines.push(`Playwright: ${report.stats.expected} passed`);
  } else {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    lines.push(`Vitest (${file}): ${report.numPassedTests} passed`);
  }
}
console.log(lines.join('; '));
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0 || (process.env.CI && skipped > 0)) process.exit(1);
