/**
 * The stack's floor for benchmark 10: Fastify and better-sqlite3 in their own process, started as
 * Leftover is (same logger level and host), opening a SQLite file and answering GET /readyz with
 * the result of `select 1`. No other plugin, no migrations, no sign-in, no page.
 *
 * Environment: PORT, HOST, LOG_LEVEL, DATABASE_FILE (the SQLite file to open, made if missing).
 */
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';

const databaseFile = process.env.DATABASE_FILE;
if (!databaseFile) throw new Error('DATABASE_FILE must name the SQLite file to open');
const sqlite = new SQLite(databaseFile);
const selectOne = sqlite.prepare('select 1 as one');

const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } });
app.get('/readyz', async (_request, reply) => {
  const row = selectOne.get() as { one: number } | undefined;
  if (row?.one !== 1) return reply.code(503).send({ status: 'unavailable' });
  return { status: 'ok' };
});
app.addHook('onClose', async () => sqlite.close());

const shutdown = () => void app.close().then(() => process.exit(0));
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? 'localhost' });
