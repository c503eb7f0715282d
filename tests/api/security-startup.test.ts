/**
 * Start-up safety: the development provider refuses production, a missing or wrong sign-in setting
 * in production stops the real server process with a message naming the variable (before it
 * touches any file), and migrations are safe to run twice, at once, and from every earlier version.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { registerDevProvider } from '../../src/server/auth/dev-provider.js';
import { type AppConfiguration, loadConfig } from '../../src/server/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrateToLatest, migrations } from '../../src/server/db/migrations.js';
import { buildServer } from '../../scripts/build-server.mjs';
import { migratorOf, openRawDatabase } from '../support/raw-database.js';
import { createTestDatabase, databaseKinds } from '../support/test-databases.js';
import { freePort } from '../support/server-process.js';

const PRODUCTION_REFUSAL = /refuses to run with NODE_ENV=production/;

function temporaryFolder(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `leftover-${label}-`));
}

describe('the development provider in production', () => {
  it('refuses to register', async () => {
    const folder = temporaryFolder('dev-provider');
    const { oidc } = loadConfig({ NODE_ENV: 'development', DATABASE_URL: `sqlite:${path.join(folder, 'db.sqlite')}` });
    if (oidc.kind !== 'embedded') throw new Error('expected the embedded provider');
    const app = Fastify();
    try {
      await expect(registerDevProvider(app, oidc, 'production')).rejects.toThrow(PRODUCTION_REFUSAL);
      // Refused before it made its keys: nothing was written.
      expect(fs.existsSync(oidc.keysFile)).toBe(false);
    } finally {
      await app.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('stops buildApp, even when a configuration slipped past loadConfig, before the database is opened', async () => {
    const folder = temporaryFolder('build-app');
    const file = path.join(folder, 'db.sqlite');
    const development = loadConfig({ NODE_ENV: 'development', DATABASE_URL: `sqlite:${file}` });
    const production: AppConfiguration = { ...development, nodeEnv: 'production' };
    try {
      await expect(buildApp(production, { logger: false })).rejects.toThrow(PRODUCTION_REFUSAL);
      expect(fs.existsSync(file)).toBe(false);
      expect(fs.readdirSync(folder)).toEqual([]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('the real server process in production', () => {
  let buildFolder: string;
  let mainFile: string;

  beforeAll(async () => {
    // The production build (`npm run build:server`) into a folder of its own, so this test never
    // runs a stale dist/ nor races another build writing there.
    buildFolder = temporaryFolder('server-build');
    ({ main: mainFile } = await buildServer({ outDir: buildFolder, sourcemap: false }));
    fs.writeFileSync(path.join(buildFolder, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.symlinkSync(path.resolve('node_modules'), path.join(buildFolder, 'node_modules'), 'dir');
  }, 120_000);
  afterAll(() => fs.rmSync(buildFolder, { recursive: true, force: true }));

  /** Starts main.js in an empty folder (so no .env is read) with only the given environment. */
  function start(env: Record<string, string>, cwd: string): ChildProcess {
    return spawn(process.execPath, [mainFile], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  }

  async function exitOf(env: Record<string, string>): Promise<{ code: number | null; stderr: string; wrote: string[] }> {
    const cwd = temporaryFolder('start');
    try {
      const child = start(env, cwd);
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      return { code, stderr, wrote: fs.readdirSync(cwd) };
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  }

  const production = { NODE_ENV: 'production', HOST: '127.0.0.1' };
  const oidc = { OIDC_ISSUER: 'https://sign-in.example.com', OIDC_CLIENT_ID: 'leftover-web', OIDC_AUDIENCE: 'api://leftover' };

  // Concurrent: each is a separate process in a separate folder.
  it.concurrent.each([
    { label: 'no OIDC settings at all', env: production, message: /OIDC_ISSUER: required when NODE_ENV=production/ },
    {
      label: 'only an issuer',
      env: { ...production, OIDC_ISSUER: oidc.OIDC_ISSUER },
      message: /OIDC_CLIENT_ID: required[\s\S]*OIDC_AUDIENCE: required/,
    },
    {
      label: 'a plain-http issuer',
      env: { ...production, ...oidc, OIDC_ISSUER: 'http://sign-in.example.com' },
      message: /OIDC_ISSUER: must be an https:\/\/ URL/,
    },
    {
      label: 'an issuer that is not a URL',
      env: { ...production, ...oidc, OIDC_ISSUER: 'sign-in.example.com' },
      message: /OIDC_ISSUER: must be the provider issuer URL/,
    },
    {
      label: 'a bad rate limit',
      env: { ...production, ...oidc, RATE_LIMIT_PER_MINUTE: 'lots' },
      message: /RATE_LIMIT_PER_MINUTE: must be a whole number/,
    },
  ])('exits with code 1 and a clear message for $label, having written nothing', async ({ env, message }) => {
    const { code, stderr, wrote } = await exitOf(env);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Invalid configuration:/);
    expect(stderr).toMatch(message);
    // No stack trace: the message is the whole story.
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(wrote).toEqual([]);
  });

  it('starts with a complete production configuration: the refusals above were the settings, not the build', async () => {
    const port = await freePort();
    const cwd = temporaryFolder('start-ok');
    const child = start({ ...production, ...oidc, PORT: String(port) }, cwd);
    try {
      await new Promise<void>((resolve, reject) => {
        let output = '';
        const timer = setTimeout(() => reject(new Error(`not ready within 20 s:\n${output}`)), 20_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Leftover is ready')) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout?.on('data', read);
        child.stderr?.on('data', read);
        child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
      });
      const config = await fetch(`http://127.0.0.1:${port}/app-config.json`);
      expect(await config.json()).toMatchObject({ oidc: { issuer: oidc.OIDC_ISSUER }, developmentSignIn: false });
      // No development provider in production: its discovery address is just an unknown page.
      expect((await fetch(`http://127.0.0.1:${port}/oidc/.well-known/openid-configuration`)).status).not.toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/api/me`)).status).toBe(401);
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});

/** Tables, columns, types, nullability and defaults: what two databases must share to be the same version. */
async function schemaOf<Schema>(db: Kysely<Schema>, kind: 'sqlite' | 'postgres'): Promise<unknown> {
  // The app's PostgreSQL introspection reads only the connection's own schema (own-schema-dialect.ts);
  // filtered again here, so another test file's schema could never join this one's.
  const current =
    kind === 'postgres' ? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name : undefined;
  const tables = (await db.introspection.getTables()).filter((table) => table.schema === current);
  return tables
    .map((table) => ({
      name: table.name,
      columns: table.columns.map(({ name, dataType, isNullable, hasDefaultValue, isAutoIncrementing }) => ({
        name,
        dataType,
        isNullable,
        hasDefaultValue,
        isAutoIncrementing,
      })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

describe.each(databaseKinds())('migrations on %s', (kind) => {
  const names = Object.keys(migrations).sort();
  let reference: unknown;

  beforeAll(async () => {
    const database = await createTestDatabase(kind);
    const db = openRawDatabase(kind, database.url);
    try {
      await migrateToLatest(db, kind);
      reference = await schemaOf(db, kind);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });

  it('has migrations named so that their order is their name order', () => {
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name) => /^\d{4}_[a-z0-9_]+$/.test(name))).toBe(true);
  });

  // Every earlier version, from an empty database up to the one before the latest, upgraded one
  // migration at a time: the same schema as a fresh database, and running them again does nothing.
  it.each(names.map((_name, applied) => [applied === 0 ? 'an empty database' : `version ${names[applied - 1]}`, applied] as const))(
    'upgrades from %s, one migration at a time, to the latest schema',
    async (_label, applied) => {
      const database = await createTestDatabase(kind);
      const db = openRawDatabase(kind, database.url);
      try {
        if (applied > 0) {
          const earlier = await (await migratorOf(db, kind, names.slice(0, applied))).migrateToLatest();
          expect(earlier.error).toBeUndefined();
        }
        const migrator = await migratorOf(db, kind, names);
        const steps: string[] = [];
        for (;;) {
          const { error, results = [] } = await migrator.migrateUp();
          expect(error).toBeUndefined();
          if (results.length === 0) break;
          expect(results.map((result) => result.status)).toEqual(['Success']);
          steps.push(...results.map((result) => result.migrationName));
        }
        expect(steps).toEqual(names.slice(applied));
        expect(await schemaOf(db, kind)).toEqual(reference);

        // The start-up path, twice more: nothing left to do, nothing changed.
        await migrateToLatest(db, kind);
        await migrateToLatest(db, kind);
        expect((await migrator.getMigrations()).every((migration) => migration.executedAt !== undefined)).toBe(true);
        expect(await schemaOf(db, kind)).toEqual(reference);
      } finally {
        await db.destroy();
        await database.drop();
      }
    },
  );

  it('opens an up-to-date database again through openDatabase without harm', async () => {
    const database = await createTestDatabase(kind);
    try {
      const config = loadConfig({ DATABASE_URL: database.url }).database;
      const first = await openDatabase(config);
      await first.close();
      const second = await openDatabase(config);
      try {
        expect(await schemaOf(second.db, kind)).toEqual(reference);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });

  // Several server processes start at once on one database: on PostgreSQL Kysely's advisory lock
  // makes them take turns, on SQLite an IMMEDIATE transaction does. Separate processes, because
  // better-sqlite3 waits for a lock synchronously and would block a single process against itself.
  it('lets three server processes starting at once on a fresh database all succeed', async () => {
    const database = await createTestDatabase(kind);
    try {
      const starts = Array.from(
        { length: 3 },
        () =>
          new Promise<number | null>((resolve) => {
            const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/open-database-once.ts'], {
              env: { ...process.env, DATABASE_URL: database.url, NODE_ENV: 'test' },
              stdio: ['ignore', 'ignore', 'inherit'],
            });
            child.on('exit', (code) => resolve(code));
          }),
      );
      expect(await Promise.all(starts)).toEqual([0, 0, 0]);
      const opened = await openDatabase(loadConfig({ DATABASE_URL: database.url }).database);
      expect(await schemaOf(opened.db, kind)).toEqual(reference);
      await opened.close();
    } finally {
      await database.drop();
    }
  });
});
