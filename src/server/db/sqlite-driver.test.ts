import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './database.js';
import { SplitSqliteDialect } from './sqlite-driver.js';

interface Schema {
  notes: { id: number; text: string };
}

describe('the SQLite connections: one that writes, one that reads aside (decision 0098)', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-split-'));
  const file = path.join(folder, 'split.sqlite');
  let dialect: SplitSqliteDialect;
  let db: Kysely<Schema>;

  beforeAll(async () => {
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    dialect = new SplitSqliteDialect({
      writer: withStatementCache(writer),
      openReader: () => withStatementCache(new SQLite(file, { readonly: true, fileMustExist: true })),
    });
    db = new Kysely<Schema>({ dialect });
    await sql`create table notes (id integer primary key, text text not null)`.execute(db);
    // Before this, a SELECT runs on the writer (a migration must read what it has not committed yet).
    dialect.readAside();
  });

  afterAll(async () => {
    await db.destroy();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await db.deleteFrom('notes').execute();
  });

  const texts = async () => (await db.selectFrom('notes').select('text').orderBy('id').execute()).map((row) => row.text);

  it('answers a read outside a transaction while another transaction is open, with the last commit', async () => {
    await db.insertInto('notes').values({ id: 1, text: 'committed' }).execute();
    let readMeanwhile: string[] | undefined;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 2, text: 'not yet' }).execute();
      // With one connection under one lock, this read would wait for the commit below, and so would this transaction: a deadlock.
      readMeanwhile = await texts();
      expect(await trx.selectFrom('notes').select('text').orderBy('id').execute()).toEqual([{ text: 'committed' }, { text: 'not yet' }]);
    });
    expect(readMeanwhile).toEqual(['committed']);
    expect(await texts()).toEqual(['committed', 'not yet']);
  });

  it('makes a write outside a transaction wait for the open one, and runs writes in the order they came', async () => {
    const order: string[] = [];
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ id: 1, text: 'first' }).execute();
      await held;
      order.push('transaction done');
    });
    await new Promise((resolve) => setImmediate(resolve));
    const single = db
      .insertInto('notes')
      .values({ id: 2, text: 'second' })
      .execute()
      .then(() => order.push('single write done'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    letGo();
    await Promise.all([transaction, single]);
    expect(order).toEqual(['transaction done', 'single write done']);
    expect(await texts()).toEqual(['first', 'second']);
  });

  it('rolls a refused transaction back and lets the next write go', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ id: 1, text: 'taken back' }).execute();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await db.insertInto('notes').values({ id: 1, text: 'after' }).execute();
    expect(await texts()).toEqual(['after']);
  });

  it('holds this process’s writes while another connection writes the file, and lets reads go on', async () => {
    const other = new SQLite(file);
    other.pragma('busy_timeout = 0');
    const written: string[] = [];
    const outside = await dialect.whileWritesWait(async () => {
      const waiting = db
        .insertInto('notes')
        .values({ id: 2, text: 'this process' })
        .execute()
        .then(() => written.push('this process'));
      await new Promise((resolve) => setTimeout(resolve, 10));
      // Another connection (a thread's, in the app) may write now: nothing of this process holds SQLite's lock.
      other.prepare("insert into notes (id, text) values (1, 'other connection')").run();
      written.push('other connection');
      const seen = await texts();
      return { waiting, seen };
    });
    await outside.waiting;
    other.close();
    expect(outside.seen).toEqual(['other connection']);
    expect(written).toEqual(['other connection', 'this process']);
  });

  it('gives the event loop a turn during a long transaction, so other requests are served in between', async () => {
    let turns = 0;
    let counting = true;
    const count = () => {
      if (!counting) return;
      turns += 1;
      setImmediate(count);
    };
    setImmediate(count);
    // Statements back to back until the loop has turned five times inside the transaction (each
    // statement resolves in a microtask, which alone never lets it turn), or two seconds have passed.
    // Counted in turns, not in time: on a loaded machine a 40 ms run saw only three.
    const deadline = performance.now() + 2_000;
    let turnsInside = 0;
    await db.transaction().execute(async (trx) => {
      const atStart = turns;
      for (let id = 1; turns - atStart < 5 && performance.now() < deadline; id += 1) {
        await trx.insertInto('notes').values({ id, text: 'row' }).execute();
      }
      turnsInside = turns - atStart;
    });
    counting = false;
    expect(turnsInside).toBe(5);
  });
});
