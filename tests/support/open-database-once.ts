/**
 * Opens (and so migrates) the database named by DATABASE_URL, then exits: one server start
 * without the server, for tests that start several processes at once.
 */
import { loadConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/database.js';

const opened = await openDatabase(loadConfig(process.env).database);
await opened.close();
