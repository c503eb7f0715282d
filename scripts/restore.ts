// `npm run restore -- <file>`: puts a backup in place of the SQLite database named by DATABASE_URL
// (and .env), only while no server has it open; the database it replaces is kept beside it.
// PostgreSQL: pg_restore (README).
import path from 'node:path';
import dotenv from 'dotenv';
import { ConfigError, loadDatabaseConfig } from '../src/server/config.js';
import { OperationError, restoreDatabase } from '../src/server/operations/sqlite-copies.js';

dotenv.config({ quiet: true });
const [backup] = process.argv.slice(2);
try {
  if (!backup) throw new OperationError('Usage: npm run restore -- <file>');
  const database = loadDatabaseConfig(process.env);
  if (database.kind !== 'sqlite') {
    throw new OperationError('DATABASE_URL names a PostgreSQL database: restore it with pg_restore (README, Operations).');
  }
  const previous = await restoreDatabase(path.resolve(backup), database.file);
  console.log(
    `Restored ${path.resolve(backup)} to ${database.file}.${previous ? ` The database it replaced is kept as ${previous}.` : ''}`,
  );
} catch (error) {
  if (!(error instanceof OperationError || error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
