/**
 * The data folder and the SQLite files hold everyone's money: only the server's own user may read
 * them (issue 17). Modes are set explicitly, whatever the umask (a common 022 would leave them
 * readable by every local user); the umask is process-wide, so it is never changed.
 */
import fs from 'node:fs';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the folder (and any missing parent) 0700; an existing folder is left as its owner set it. */
export function ensurePrivateFolder(folder: string): void {
  if (fs.existsSync(folder)) return;
  fs.mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  // mkdir's mode passes through the umask; a umask such as 0o277 must not leave the server locked out,
  // and one such as 0o002 must not let others in.
  fs.chmodSync(folder, PRIVATE_FOLDER_MODE);
}

/**
 * Creates the SQLite file 0600 before SQLite opens it: SQLite then creates its -wal and -shm files
 * with the database file's mode. Files of an older install, made 0644, lose their group and other
 * bits; a file owned by another user (a deliberate shared set-up) is left alone.
 */
export function preparePrivateDatabaseFile(file: string): void {
  if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  tightenDatabaseFiles(file);
}

/** Takes group and other permissions off the database file and its -wal and -shm, where they exist. */
export function tightenDatabaseFiles(file: string): void {
  for (const each of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      const mode = fs.statSync(each).mode & 0o777;
      if ((mode & 0o077) !== 0) fs.chmodSync(each, mode & PRIVATE_FOLDER_MODE & ~0o111);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw error;
    }
  }
}
