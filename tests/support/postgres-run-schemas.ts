/**
 * Vitest's global setup for the PostgreSQL test schemas. Test files run side by side, and
 * PostgreSQL's catalogue functions fail on a schema dropped while another file reads the catalogue
 * (kysely's introspection, which the migrator and the snapshots use, then answers "schema does not
 * exist"). So no schema is dropped while files run: each is named after this run
 * (`test_<run>_<random>`), and the run drops its own once every file is done. Schemas of runs that
 * ended without their teardown are dropped the next time, once a day old.
 */
import crypto from 'node:crypto';
import pg from 'pg';

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

export default async function setup(): Promise<() => Promise<void>> {
  // Each project that names this file calls it; the first one names the run and drops its schemas.
  if (process.env[TEST_RUN_VARIABLE] !== undefined) return async () => undefined;
  // The run's start in seconds: a schema's name says when its run began.
  const run = `${Math.floor(Date.now() / 1000)}r${crypto.randomBytes(3).toString('hex')}`;
  process.env[TEST_RUN_VARIABLE] = run;
  const dayAgo = Math.floor(Date.now() / 1000) - DAY_SECONDS;
  await dropSchemas((name) => {
    const started = /^test_(\d+)r[0-9a-f]+_/.exec(name)?.[1];
    return started !== undefined && Number(started) < dayAgo;
  });
  return () => dropSchemas((name) => name.startsWith(`test_${run}_`));
}
