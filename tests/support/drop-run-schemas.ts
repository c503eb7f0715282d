/**
 * `node --import tsx tests/support/drop-run-schemas.ts <run>`: drops the PostgreSQL test schemas of
 * a run that `npm test` named for its Vitest runs (postgres-run-schemas.ts), and those of any run
 * more than a day old. Without TEST_POSTGRES_URL it does nothing.
 */
import { dropRunSchemas } from './postgres-run-schemas.js';
import { TEST_RUN_NAME } from './test-run-name.mjs';

const run = process.argv[2];
if (run === undefined || !TEST_RUN_NAME.test(run)) {
  console.error('usage: drop-run-schemas.ts <run>, a run as LEFTOVER_TEST_RUN names it (seconds, "r", hex)');
  process.exit(2);
}
await dropRunSchemas(run);
