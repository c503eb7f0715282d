/**
 * The built server (dist/server, what `npm start` runs) in a child process whose clock starts at a
 * fixed instant and runs on from there, and whose notification round runs every
 * TEST_NOTIFY_EVERY_MS instead of every minute, and its bank schedule's round every
 * TEST_BANK_EVERY_MS (a minute unless set): the reliability tests of notifications (issue 26) and of
 * the bank schedule (issue 37) start their processes with this, so "today" and the user's hour are
 * the tests' to choose while the leases, timeouts and processes are real. Otherwise as src/server/main.ts: configuration from
 * the environment, SIGTERM closes the app.
 */
import { buildApp } from '../../dist/server/server/app.js';
import { loadConfig } from '../../dist/server/server/config.js';

const start = Date.parse(process.env.TEST_CLOCK_START ?? '');
if (Number.isNaN(start)) throw new Error('TEST_CLOCK_START must be an ISO instant');
const bootedAt = Date.now();
const config = loadConfig(process.env);
const app = await buildApp(config, {
  now: () => new Date(start + (Date.now() - bootedAt)),
  notifications: { everyMs: Number(process.env.TEST_NOTIFY_EVERY_MS ?? '200') },
  bank: { everyMs: Number(process.env.TEST_BANK_EVERY_MS ?? '60000') },
});
process.once('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
await app.listen({ port: config.port, host: config.host });
