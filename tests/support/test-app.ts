/**
 * An API under test: the production app factory with the production settings, a real database
 * (fresh per call) and a real issuer on a loopback port. Only the clock is fixed.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type AppOptions, buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { databaseSnapshot } from './database-snapshot.js';
import { checkMonthTotals } from './month-totals-check.js';
import { checkRowBlocks } from './row-blocks-check.js';
import { createTestDatabase, type DatabaseKind, databaseKinds, type TestDatabase } from './test-databases.js';
import { startTestIssuer, type TestIssuer } from './test-issuer.js';

/** A fixed "today" for every API test: Saturday 2026-11-21, noon local time. */
export const TEST_NOW = new Date(2026, 10, 21, 12, 0, 0);

/**
 * Budgets far above anything a test sends, so only the rate-limit tests (which set their own) ever
 * meet the limiter; the production default is what those tests check.
 */
export const TEST_RATE_LIMIT_PER_MINUTE = 1_000_000;

export interface TestAppOptions extends Pick<AppOptions, 'rateLimit' | 'queryObserver' | 'logStream' | 'webRoot' | 'notifications'> {
  readonly now?: () => Date;
  /** Extra environment for loadConfig, as `npm start` would read it. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * A database prepared beforehand (an earlier schema version with rows, say) instead of a fresh
   * one; the app migrates it on start, as a real server does. The app drops it on close.
   */
  readonly database?: TestDatabase;
  /** The issuer whose users the prepared rows belong to, instead of a new one; closed with the app. */
  readonly issuer?: TestIssuer;
}

export interface TestApp {
  readonly app: FastifyInstance;
  readonly issuer: TestIssuer;
  readonly database: TestDatabase;
  readonly kind: DatabaseKind;
  /** Every row of every table, in a fixed order: equal snapshots mean nothing changed. */
  snapshot(): Promise<string>;
  /** Calls the API as the user named by subject. */
  as(subject: string): UserClient;
  close(): Promise<void>;
}

export interface UserClient {
  /** `headers`: more request headers (an If-Match, say). */
  request(
    method: InjectOptions['method'],
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

export async function startTestApp(kind: DatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  const issuer = options.issuer ?? (await startTestIssuer());
  const database = options.database ?? (await createTestDatabase(kind));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    OIDC_ISSUER: issuer.issuer,
    OIDC_CLIENT_ID: 'leftover-web',
    OIDC_AUDIENCE: issuer.audience,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: String(TEST_RATE_LIMIT_PER_MINUTE),
    RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: String(TEST_RATE_LIMIT_PER_MINUTE),
    ...options.env,
  });
  const { rateLimit, queryObserver, logStream, webRoot } = options;
  let app: FastifyInstance;
  try {
    app = await buildApp(config, {
      now: options.now ?? (() => TEST_NOW),
      // Logs stay off unless a test reads them.
      logger: logStream !== undefined,
      ...(logStream && { logStream }),
      ...(rateLimit && { rateLimit }),
      ...(queryObserver && { queryObserver }),
      ...(webRoot && { webRoot }),
      // No timer: a test plans and sends through runNotifications, on its own clock, when it means to.
      notifications: { everyMs: 0, ...options.notifications },
      // Nor a bank schedule: a test ticks it through runBankSchedule.
      bank: { everyMs: 0 },
    });
    await app.ready();
  } catch (error) {
    // A start that fails must not leave its issuer running or its schema behind.
    await issuer.close();
    await database.drop();
    throw error;
  }

  const as = (subject: string): UserClient => {
    const request = async (method: InjectOptions['method'], url: string, payload?: unknown, headers: Record<string, string> = {}) => {
      const token = await issuer.token(subject);
      return app.inject({
        method,
        url,
        headers: { ...headers, authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
      });
    };
    return {
      request,
      get: (url) => request('GET', url),
      post: (url, payload) => request('POST', url, payload),
      put: (url, payload) => request('PUT', url, payload),
      patch: (url, payload) => request('PATCH', url, payload),
      delete: (url) => request('DELETE', url),
    };
  };

  return {
    app,
    issuer,
    database,
    kind,
    // Without the observer's plugin, so taking a snapshot is not counted as the app's queries.
    snapshot: () => databaseSnapshot(app.database.db.withoutPlugins(), kind),
    as,
    // Every ledger's month totals must still add up to its rows (issue 27), and its blocks cut them in
    // row order (issue 34), whatever the tests wrote.
    async close() {
      try {
        const db = app.database.db.withoutPlugins();
        await (async () => {
          await checkMonthTotals(db);
          await checkRowBlocks(db);
        })().catch((error: unknown) => {
          // A test that closed the database itself (to see every call fail) has nothing left to check.
          if (!(error instanceof Error && error.message === 'driver has already been destroyed')) throw error;
        });
      } finally {
        await app.close();
        await issuer.close();
        await database.drop();
      }
    },
  };
}

/**
 * One app per database for the whole file, started before its tests and closed after them: the
 * answer gives the app of a database (for files whose tests move data between databases).
 */
export function appsOnEveryDatabase(): (kind: DatabaseKind) => TestApp {
  const apps = new Map<DatabaseKind, TestApp>();
  beforeAll(async () => {
    for (const kind of databaseKinds()) apps.set(kind, await startTestApp(kind));
  });
  afterAll(async () => {
    for (const app of apps.values()) await app.close();
  });
  return (kind) => {
    const app = apps.get(kind);
    if (!app) throw new Error(`no app on ${kind}`);
    return app;
  };
}
