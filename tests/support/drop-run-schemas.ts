/**
 * `node --import tsx tests/support/drop-run-schemas.ts <run>`: drops the PostgreSQL test schemas of
 * a run that `npm test` named for its Vitest runs (postgres-run-schemas.ts), and those of any run
 * more than a day old. Without TEST_POSTGRES_URL it does nothing.
 */
import { dropRunSchemas } from './postgres-run-schemas.js';

const run = process.argv[2];
if (run === undefined || !/^\d+r[0-9a-f]+$/.test(run)) {
  console.error('usage: drop-run-schemas.ts <run>, a run as LEFTOVER_TEST_RUN names it (seconds, "r", hex)');
  process.exit(2);
}
await dropRunSchemas(run);
