import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations.js';

const FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** A migration's file, by its recorded name: 0003_living_ledger lives in 0003-living-ledger.ts. */
const fileOf = (name: string) => `${name.replaceAll('_', '-')}.ts`;

describe('the migrations folder', () => {
  // The index is listed by hand (the bundled server cannot read a folder): a file it forgets would never run.
  it('holds one file per migration the index lists, and nothing else', () => {
    const files = fs
      .readdirSync(FOLDER)
      .filter((file) => file !== 'index.ts')
      .sort();
    expect(files).toEqual(Object.keys(migrations).map(fileOf).sort());
  });

  it('lists the migrations in the order of their names, which is the order they run in', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    expect(names.every((name) => /^\d{4}_[a-z0-9_]+$/.test(name))).toBe(true);
  });

  it('lists each name with the migration of its own file', async () => {
    for (const [name, migration] of Object.entries(migrations)) {
      const module: Record<string, unknown> = await import(path.join(FOLDER, fileOf(name).replace(/\.ts$/, '.js')));
      expect(Object.values(module), name).toContain(migration);
    }
  });
});
