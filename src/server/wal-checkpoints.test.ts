/**
 * SQLite's log folded back by the checkpoint thread (decision 0125): a real database file with the
 * server's own connection (openDatabase), a real thread running wal-checkpoint-worker.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenDatabase, openDatabase, WAL_PAGES_BEFORE_OWN_CHECKPOINT } from './db/database.js';
import { WalCheckpoints } from './wal-checkpoints.js';

const warnings: string[] = [];
const log = { warn: (_details: object, message: string) => void warnings.push(message) };

describe('the checkpoint thread', () => {
  let folder: string;
  let file: string;
  let server: OpenDatabase;
  /** A second connection set up as the server's writer is: writes here land in the same log. */
  let writer: SQLite.Database;
  let checkpoints: WalCheckpoints;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-wal-'));
    file = path.join(folder, 'leftover.sqlite');
    server = await openDatabase({ kind: 'sqlite', file });
    writer = new SQLite(file);
    writer.pragma(`wal_autocheckpoint = ${WAL_PAGES_BEFORE_OWN_CHECKPOINT}`);
    writer.exec('create table scratch (body blob not null)');
    // Rounds only when the test asks: no timer between its steps.
    checkpoints = new WalCheckpoints(file, log, 3_600_000);
  });

  afterAll(async () => {
    await checkpoints.close();
    writer.close();
    await server.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  /** About 4 MB of log in one transaction: over SQLite's default 1,000 pages, under the server's own limit. */
  const writeMegabytes = () => {
    const insert = writer.prepare('insert into scratch (body) values (?)');
    writer.transaction(() => {
      for (let index = 0; index < 1_000; index += 1) insert.run(Buffer.alloc(4_000, index % 251));
    })();
  };
  const logBytes = () => fs.statSync(`${file}-wal`).size;

  it("leaves a big transaction's log to the thread: the server's connection checkpoints only past 10,000 pages", async () => {
    const rows = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(server.db);
    expect(rows.rows[0]?.wal_autocheckpoint).toBe(WAL_PAGES_BEFORE_OWN_CHECKPOINT);
    writeMegabytes();
    await checkpoints.round();
    expect(checkpoints.last?.log).toBeGreaterThan(1_000);
    expect(checkpoints.last?.checkpointed).toBe(checkpoints.last?.log);
    expect(warnings).toEqual([]);
  });

  it('keeps the log from growing: once folded back, the next writes reuse it from the start', async () => {
    const after = logBytes();
    for (let round = 0; round < 3; round += 1) {
      writeMegabytes();
      await checkpoints.round();
      expect(checkpoints.last?.checkpointed).toBe(checkpoints.last?.log);
    }
    // Three more such transactions without checkpoints would have tripled it.
    expect(logBytes()).toBeLessThanOrEqual(after * 1.1);
    expect(writer.prepare('select count(*) as rows from scratch').get()).toEqual({ rows: 4_000 });
  });

  it('asks the thread nothing when nothing was written since the last round', async () => {
    const before = checkpoints.last;
    await checkpoints.round();
    expect(checkpoints.last).toBe(before);
  });
});
