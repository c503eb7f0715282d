/**
 * Data at rest is the server's alone (issue 17): on a fresh start with the defaults' layout, even
 * under the common umask 022, the data folder is 0700 and the SQLite database, -wal and -shm are
 * 0600, beside the provider's keys (0600); files an older install left 0644 are tightened; and an
 * operator's backup (`npm run backup`) and the database a restore puts in place are 0600 too
 * (issue 22, finding 8).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { backupDatabase, restoreDatabase } from '../../src/server/operations/sqlite-copies.js';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('the data folder and the database files', () => {
  let root: string;
  let umask: number;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-files-'));
    umask = process.umask(0o022);
  });
  afterEach(() => void process.umask(0o022));
  afterAll(() => {
    process.umask(umask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('creates a fresh data folder 0700 and the database, -wal and -shm 0600, under umask 022', async () => {
    const dataDir = path.join(root, 'fresh', 'data');
    const file = path.join(dataDir, 'leftover.sqlite');
    const config = loadConfig({ NODE_ENV: 'test', PORT: '3999', DATABASE_URL: `sqlite:${file}`, LOG_LEVEL: 'silent' });
    const app = await buildApp(config, { logger: false });
    try {
      await app.ready();
      // The provider's keys are made when first needed, not at start (decision 0041): ask for them.
      const keysFile = path.join(dataDir, 'dev-oidc-keys.json');
      expect(fs.existsSync(keysFile)).toBe(false);
      expect((await app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' })).statusCode).toBe(200);
      expect(modeOf(dataDir).toString(8)).toBe('700');
      for (const each of [file, `${file}-wal`, `${file}-shm`, keysFile]) {
        expect(modeOf(each).toString(8), path.basename(each)).toBe('600');
      }
    } finally {
      await app.close();
    }
  });

  it('tightens the files an older install left 0644, and leaves an existing folder as its owner set it', async () => {
    const dataDir = path.join(root, 'older');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    const file = path.join(dataDir, 'leftover.sqlite');
    const first = await openDatabase({ kind: 'sqlite', file });
    await first.close();
    fs.chmodSync(file, 0o644);
    const again = await openDatabase({ kind: 'sqlite', file });
    try {
      expect(modeOf(file).toString(8)).toBe('600');
      expect(modeOf(`${file}-wal`).toString(8)).toBe('600');
      expect(modeOf(dataDir).toString(8)).toBe('755');
    } finally {
      await again.close();
    }
  });

  it('writes a backup 0600 under umask 022, and a restore puts the database back 0600', async () => {
    const dataDir = path.join(root, 'backups');
    fs.mkdirSync(dataDir);
    const file = path.join(dataDir, 'leftover.sqlite');
    await (await openDatabase({ kind: 'sqlite', file })).close();
    const backup = path.join(dataDir, 'backup.sqlite');
    await backupDatabase(file, backup);
    expect(modeOf(backup).toString(8)).toBe('600');
    expect(fs.existsSync(`${backup}.partial`)).toBe(false);
    const restored = path.join(dataDir, 'restored.sqlite');
    await restoreDatabase(backup, restored);
    expect(modeOf(restored).toString(8)).toBe('600');
  });
});
