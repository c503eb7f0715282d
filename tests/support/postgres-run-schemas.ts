/**
 * Vitest's global setup for the PostgreSQL test schemas. Test files run side by side, and
 * PostgreSQL's catalogue functions fail on a schema dropped while another file reads the catalogue
 * (kysely's introspection, which the migrator and the snapshots use, then answers "schema does not
 * exist"). So no schema is dropped while files run: each is named after this run
 * (`test_<run>_<random>`), and the run drops its own once every file is done. Schemas of runs that
 * ended without their teardown are dropped the next time, once a day old.
 *
 * `npm test` runs several Vitest runs at once (decision 0116): it names one run for all of them
 * (LEFTOVER_TEST_RUN set before they start), so none drops schemas while another reads the
 * catalogue, and drops the run's schemas itself once they have all ended (drop-run-schemas.ts).
 */
import pg from 'pg';
import { newTestRunName, TEST_RUN_NAME } from './test-run-name.mjs';

/** The environment variable that tells the test files which run they belong to. */
export const TEST_RUN_VARIABLE = 'LEFTOVER_TEST_RUN';
const DAY_SECONDS = 24 * 60 * 60;

async function dropSchemas(which: (name: string) => boolean): Promise<void> {
  const baseUrl = process.env.TEST_POSTGRES_URL;
  if (!baseUrl) return;
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`select nspname as name from pg_namespace where nspname like 'test\\_%'`);
    for (const { name } of rows) if (which(name)) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  } finally {
    await client.end();
  }
}

/** Drops the schemas of `run`, and those of any run that began more than a day ago. */
export async function dropRunSchemas(run: string): Promise<void> {
  const dayAgo = Math.floor(Date.now() / 1000) - DAY_SECONDS;
  await dropSchemas((name) => {
    if (name.startsWith(`test_${run}_`)) return true;
    const started = TEST_RUN_NAME.exec(/^test_([^_]+)_/.exec(name)?.[1] ?? '')?.[1];
    return started !== undefined && Number(started) < dayAgo;
  });
}

export default async function setup(): Promise<() => Promise<void>> {
  // Each project that names this file calls it; the first one names the run. A run named before
  // Vitest started (by `npm test`) is dropped by whoever named it.
  if (process.env[TEST_RUN_VARIABLE] !== undefined) return async () => undefined;
  const run = newTestRunName();
  process.env[TEST_RUN_VARIABLE] = run;
  return () => dropRunSchemas(run);
}
