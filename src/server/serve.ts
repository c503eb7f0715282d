/** Leftover's server: configuration from the environment (and .env), then the app on PORT (main.ts runs it). */
import closeWithGrace from 'close-with-grace';
import dotenv from 'dotenv';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createPushSender } from './notifications/push-sender.js';

/** Resolves once the app is listening; a configuration error ends the process with its message. */
export async function serve(): Promise<void> {
  dotenv.config({ quiet: true });
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Web push with the VAPID keys kept in the database (decision 0048): offered by every started server.
  const app = await buildApp(config, { notifications: { pushSender: createPushSender } });
  // SIGTERM or SIGINT: stop listening, let requests in flight finish, then close the database; past
  // the grace period the process exits 1 anyway, so a stuck request cannot block a rolling restart.
  // A second signal exits at once.
  closeWithGrace({ delay: config.shutdownGraceMs, logger: app.log }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing after an uncaught error');
    else app.log.info(`${signal ?? 'exit'}: closing (up to ${config.shutdownGraceMs} ms for requests in flight)`);
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
  const signIn = config.oidc.kind === 'embedded' ? `development sign-in at ${config.oidc.issuer}` : `sign-in through ${config.oidc.issuer}`;
  app.log.info(`Leftover is ready at http://localhost:${config.port} (${config.database.kind} database, ${signIn})`);
}
