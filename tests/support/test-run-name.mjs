// The name of a PostgreSQL test run (postgres-run-schemas.ts): its start in seconds, "r", and a
// random part, so a schema's name (`test_<run>_<random>`) says when its run began. Plain JavaScript:
// scripts/test-all.mjs names the run of a whole `npm test` with it.
import crypto from 'node:crypto';

export const TEST_RUN_NAME = /^(\d+)r[0-9a-f]+$/;

export function newTestRunName() {
  return `${Math.floor(Date.now() / 1000)}r${crypto.randomBytes(3).toString('hex')}`;
}
