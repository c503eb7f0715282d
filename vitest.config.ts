import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { FILES_THAT_REPLACE_MODULES } from './tests/support/isolated-test-files.js';

/** The reliability tests that time one user while another loads the server: alone, one at a time, last. */
const TIMED_RELIABILITY_FILES = [
  'tests/reliability/heavy-user.test.ts',
  'tests/reliability/hostile-files.test.ts',
  'tests/reliability/big-writes.test.ts',
];

export default defineConfig({
  plugins: [react()],
  test: {
    // `npm test` runs the reliability project apart from the others and names each run's report.
    reporters: ['default', ['json', { outputFile: process.env.VITEST_JSON_REPORT ?? 'reports/vitest.json' }]],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          globalSetup: ['tests/support/postgres-run-schemas.ts'],
          include: [
            'src/domain/**/*.test.ts',
            'src/contract/**/*.test.ts',
            'src/server/**/*.test.ts',
            'tests/api/**/*.test.ts',
            // README's map and the decision records, checked against the tree and each other.
            'tests/docs/**/*.test.ts',
            // The build's own steps (the page's chunks, decision 0112).
            'scripts/**/*.test.ts',
          ],
          // API tests start servers and databases: give them room on a 2-core machine.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One module graph per worker, not per file: every API file imports the whole server, and
          // importing it again for each of them cost more than their tests (alone on this machine,
          // 462 s of wall time isolated and 288 s not, 435 and 265 s of CPU). No file here replaces
          // a module or a global; each starts its own app and database and closes them.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The property tests that send generated requests to a real app: the node project's
          // settings, a run of their own so `npm test` can put them in the lane with room (decision 0116).
          name: 'fuzz',
          environment: 'node',
          globalSetup: ['tests/support/postgres-run-schemas.ts'],
          include: ['tests/fuzz/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'reliability-processes',
          environment: 'node',
          globalSetup: ['tests/support/postgres-run-schemas.ts'],
          include: ['tests/reliability/**/*.test.ts'],
          exclude: TIMED_RELIABILITY_FILES,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Server processes killed, restarted, loaded and raced: what these check (no lost write,
          // one message, one winner) holds however busy the machine is, so two files run at once.
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'reliability',
          environment: 'node',
          globalSetup: ['tests/support/postgres-run-schemas.ts'],
          include: TIMED_RELIABILITY_FILES,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // These measure one user's latency while another loads the server: they run after every
          // other project, one file at a time, so no other test's work is in their figures.
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          exclude: FILES_THAT_REPLACE_MODULES,
          setupFiles: ['src/web/test-setup.ts'],
          testTimeout: 15_000,
          // After the node project, not interleaved with it: a worker that moves between a node
          // file and a jsdom file builds a new jsdom each time (73.0 s of a CI run's 585 s of Vitest;
          // 4.3 s once the page's files followed the API's, decision 0116).
          sequence: { groupOrder: 1 },
          // One jsdom and one module graph per worker, not per file: building them for each of the
          // page's test files cost more than the tests themselves. test-setup.ts cleans the
          // document, storage and timers after every test.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'web-isolated',
          environment: 'jsdom',
          include: FILES_THAT_REPLACE_MODULES,
          setupFiles: ['src/web/test-setup.ts'],
          testTimeout: 15_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
