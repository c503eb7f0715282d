/**
 * What a load balancer or an orchestrator asks (issue 16): is the process up (/healthz), and can it
 * serve (/readyz: the database answers and holds every migration this build knows). No token, no
 * personal data, nothing that names the database: a tiny JSON body and the status code.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ErrorBody } from '../../contract/errors.js';
import type { OpenDatabase } from '../db/database.js';
import { migrations } from '../db/migrations.js';

export const HEALTH_PATH = '/healthz';
export const READINESS_PATH = '/readyz';

/** A stuck connection must not hang the probe: past this the database counts as unreachable. */
const READINESS_TIMEOUT_MS = 2_000;

const NOT_READY: ErrorBody = { error: { code: 'service_unavailable', message: 'The server cannot serve requests right now.' } };

/** True when the database answers and every migration of this build is recorded as applied. */
export async function databaseReady(database: OpenDatabase): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS);
  });
  // Kysely's own bookkeeping table, in the connection's schema (see migrateToLatest).
  const applied = sql<{ name: string }>`select name from kysely_migration`
    .execute(database.db)
    .then(({ rows }) => {
      const names = new Set(rows.map((row) => row.name));
      return Object.keys(migrations).every((name) => names.has(name));
    })
    .catch(() => false);
  try {
    return await Promise.race([applied, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthChecks(app: FastifyInstance): void {
  // Set once SIGTERM has begun the close: the balancer is told to stop sending before the port goes away.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  app.get(HEALTH_PATH, async (_request, reply) => reply.header('Cache-Control', 'no-store').send({ status: 'ok' }));

  app.get(READINESS_PATH, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!closing && (await databaseReady(app.database))) return reply.send({ status: 'ok' });
    return reply.code(503).send(NOT_READY);
  });
}
