// `npm run backup -- <file>`: a consistent copy of the SQLite database named by DATABASE_URL (and
// .env, as the server reads them), taken while the server runs. PostgreSQL: pg_dump (README).
import path from 'node:path';
import dotenv from 'dotenv';
import { ConfigError, loadDatabaseConfig } from '../src/server/config.js';
import { backupDatabase, OperationError } from '../src/server/operations/sqlite-copies.js';

dotenv.config({ quiet: true });
const [target] = process.argv.slice(2);
try {
  if (!target) throw new OperationError('Usage: npm run backup -- <file>');
  const database = loadDatabaseConfig(process.env);
  if (database.kind !== 'sqlite') {
    throw new OperationError('DATABASE_URL names a PostgreSQL database: back it up with pg_dump (README, Operations).');
  }
  await backupDatabase(database.file, path.resolve(target));
  console.log(`Backed up ${database.file} to ${path.resolve(target)}.`);
} catch (error) {
  if (!(error instanceof OperationError || error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
