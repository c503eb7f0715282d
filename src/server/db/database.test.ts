import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './database.js';

describe('the SQLite statement cache', () => {
  const sqlite = new SQLite(':memory:');
  afterEach(() => sqlite.exec('drop table if exists t'));

  it('prepares a text once and hands back the same statement, which runs with new values each time', () => {
    const cached = withStatementCache(sqlite);
    cached.prepare('create table t (n integer)').run([]);
    const insert = cached.prepare('insert into t (n) values (?)');
    expect(cached.prepare('insert into t (n) values (?)')).toBe(insert);
    insert.run([1]);
    cached.prepare('insert into t (n) values (?)').run([2]);
    expect(cached.prepare('select n from t order by n').all([])).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('keeps at most 200 texts, dropping the least recently used', () => {
    const cached = withStatementCache(sqlite);
    const first = cached.prepare('select 0');
    const second = cached.prepare('select 1');
    for (let index = 2; index < 200; index += 1) cached.prepare(`select ${index}`);
    // Using the first text again makes the second the least recently used one.
    expect(cached.prepare('select 0')).toBe(first);
    cached.prepare('select 200');
    expect(cached.prepare('select 0')).toBe(first);
    expect(cached.prepare('select 1')).not.toBe(second);
  });
});
