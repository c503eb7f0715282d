/**
 * SQLite's write-ahead log folded back into the database file in a thread of its own (decision 0125),
 * with a connection of its own: a checkpoint copies the log's pages into the file and waits for the
 * file's fsync, which in the server's thread held every other user's request for as long (about
 * 2.5 ms for a 2,000-row statement import here, more on a slow disk). PASSIVE never waits for a lock:
 * what a reader or writer still needs is left for the next round.
 */
import SQLite from 'better-sqlite3';

export interface WalCheckpointTask {
  /** The database file (its -wal beside it). */
  readonly file: string;
}

/** Frames in the log and how many of them are in the database file now, as SQLite counts them. */
export interface WalCheckpointOutcome {
  readonly log: number;
  readonly checkpointed: number;
}

let open: { readonly file: string; readonly db: SQLite.Database } | undefined;

function connection(file: string): SQLite.Database {
  if (open?.file !== file) {
    open?.db.close();
    const db = new SQLite(file, { fileMustExist: true });
    // The file's fsync after the copy, as the server's own connection would: a checkpoint lost to a power cut would lose acknowledged writes.
    db.pragma('synchronous = FULL');
    open = { file, db };
  }
  return open.db;
}

export default function runWalCheckpoint({ file }: WalCheckpointTask): WalCheckpointOutcome {
  const [result] = connection(file).pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
  return { log: result?.log ?? 0, checkpointed: result?.checkpointed ?? 0 };
}
