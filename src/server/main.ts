/** Starts Leftover: configuration from the environment (and .env), then the app on PORT. */
import dotenv from 'dotenv';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

async function main(): Promise<void> {
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
  const app = await buildApp(config);
  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: closing`);
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const signIn = config.oidc.kind === 'embedded' ? `development sign-in at ${config.oidc.issuer}` : `sign-in through ${config.oidc.issuer}`;
  app.log.info(`Leftover is ready at http://localhost:${config.port} (${config.database.kind} database, ${signIn})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
