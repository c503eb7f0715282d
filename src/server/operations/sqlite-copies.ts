/**
 * Operator backups of the SQLite database (issue 15, decision 0023): a consistent copy taken while
 * the server runs, with SQLite's online backup; and putting a copy back, only while no server has
 * the database open. PostgreSQL has pg_dump and pg_restore for both (README, Operations).
 */
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { PRIVATE_FILE_MODE } from '../db/private-files.js';

/** Something the operator must fix (a path, a running server); the scripts print it without a stack. */
export class OperationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperationError';
  }
}

/**
 * Pages per backup step: all of them. SQLite restarts a backup whenever another connection writes
 * between two steps, so under steady writes a copy made in small steps may never finish; one step
 * reads one snapshot (WAL mode lets the server keep writing meanwhile).
 */
const ALL_PAGES = 0x7fffffff;

/** How long the probe waits for a lock before it counts the database as in use. */
const PROBE_TIMEOUT_MS = 250;

function isBusy(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'SQLITE_BUSY' || error.code === 'SQLITE_LOCKED');
}

/**
 * True while another connection (a running server) has the database open. In WAL mode every
 * connection keeps a shared lock on the database file from its first read until it closes, idle
 * or not, so an exclusive lock is refused exactly while a server is up. No pid file to go stale
 * after a crash: the operating system drops a dead process's locks.
 */
export function databaseInUse(file: string): boolean {
  const probe = new SQLite(file, { fileMustExist: true, timeout: PROBE_TIMEOUT_MS });
  try {
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.prepare('select count(*) from sqlite_master').get();
    probe.exec('COMMIT');
    return false;
  } catch (error) {
    if (isBusy(error)) return true;
    throw error;
  } finally {
    // Closing the last connection folds the write-ahead log into the file: it then stands alone.
    probe.close();
  }
}

/** Opens a copy and checks it is a whole, sound Leftover database. */
function checkCopy(file: string): void {
  const copy = new SQLite(file, { fileMustExist: true, readonly: true });
  try {
    const result = copy.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new OperationError(`${file} is damaged: integrity_check says ${String(result)}.`);
    const migrations = copy.prepare("select count(*) as count from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!migrations || typeof migrations !== 'object' || !('count' in migrations) || migrations.count !== 1) {
      throw new OperationError(`${file} is not a Leftover database (it has no migration table).`);
    }
  } finally {
    copy.close();
  }
}

/**
 * Copies `source` to `target` with SQLite's online backup, checks the copy, and only then gives
 * it its name: an interrupted copy never looks like a finished one. The copy is one file (rollback
 * journal), so it can be moved or archived alone, and only its owner may read it (0600).
 */
async function copyDatabase(source: string, target: string): Promise<void> {
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  try {
    // The copy holds every user's data: 0600 from its first byte (SQLite gives its journal the
    // file's mode), and again after, whatever the umask or however the backup made the file.
    fs.closeSync(fs.openSync(partial, 'wx', PRIVATE_FILE_MODE));
    fs.chmodSync(partial, PRIVATE_FILE_MODE);
    const from = new SQLite(source, { fileMustExist: true, timeout: 5_000 });
    try {
      await from.backup(partial, { progress: () => ALL_PAGES });
    } finally {
      from.close();
    }
    const copy = new SQLite(partial, { fileMustExist: true });
    copy.pragma('journal_mode = DELETE');
    copy.close();
    checkCopy(partial);
    fs.chmodSync(partial, PRIVATE_FILE_MODE);
    const handle = fs.openSync(partial, 'r');
    fs.fsyncSync(handle);
    fs.closeSync(handle);
    fs.renameSync(partial, target);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

/** A consistent copy of the live database in `target`, which must not exist yet; the server may run. */
export async function backupDatabase(liveFile: string, target: string): Promise<void> {
  if (!fs.existsSync(liveFile)) throw new OperationError(`There is no database at ${liveFile}.`);
  if (fs.existsSync(target)) throw new OperationError(`${target} exists already: choose a new file name.`);
  await copyDatabase(liveFile, target);
}

/**
 * Puts the backup in place of the live database, which no server may have open. The database it
 * replaces is kept beside it (answered), never deleted. The server migrates an older backup when
 * it starts.
 */
export async function restoreDatabase(backupFile: string, liveFile: string, now = new Date()): Promise<string | null> {
  if (!fs.existsSync(backupFile)) throw new OperationError(`There is no backup at ${backupFile}.`);
  checkCopy(backupFile);
  const busy = () => new OperationError(`A server has ${liveFile} open: stop it, then restore again. Nothing was changed.`);
  // Asked first to fail fast, and again just before the swap, since a copy takes a moment.
  if (fs.existsSync(liveFile) && databaseInUse(liveFile)) throw busy();
  const staging = `${liveFile}.restoring`;
  fs.rmSync(staging, { force: true });
  await copyDatabase(backupFile, staging);
  let previous: string | null = null;
  try {
    if (fs.existsSync(liveFile)) {
      if (databaseInUse(liveFile)) throw busy();
      previous = `${liveFile}.before-restore-${now.toISOString().replaceAll(':', '-')}`;
      fs.renameSync(liveFile, previous);
    }
    // The probe folded and removed them; a stale log beside the restored file would be read as its own.
    for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${liveFile}${suffix}`, { force: true });
    fs.renameSync(staging, liveFile);
  } catch (error) {
    fs.rmSync(staging, { force: true });
    throw error;
  }
  return previous;
}
