/**
 * An API under test: the production app factory with the production settings, a real database
 * (fresh per call) and a real issuer on a loopback port. Only the clock is fixed.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './test-databases.js';
import { startTestIssuer, type TestIssuer } from './test-issuer.js';

/** A fixed "today" for every API test: Saturday 2026-11-21, noon local time. */
export const TEST_NOW = new Date(2026, 10, 21, 12, 0, 0);

export interface TestApp {
  readonly app: FastifyInstance;
  readonly issuer: TestIssuer;
  readonly database: TestDatabase;
  /** Calls the API as the user named by subject. */
  as(subject: string): UserClient;
  close(): Promise<void>;
}

export interface UserClient {
  request(method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

export async function startTestApp(kind: DatabaseKind, options: { now?: () => Date } = {}): Promise<TestApp> {
  const issuer = await startTestIssuer();
  const database = await createTestDatabase(kind);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    OIDC_ISSUER: issuer.issuer,
    OIDC_CLIENT_ID: 'leftover-web',
    OIDC_AUDIENCE: issuer.audience,
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp(config, { now: options.now ?? (() => TEST_NOW), logger: false });
  await app.ready();

  const as = (subject: string): UserClient => {
    const request = async (method: InjectOptions['method'], url: string, payload?: unknown) => {
      const token = await issuer.token(subject);
      return app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
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
    as,
    async close() {
      await app.close();
      await issuer.close();
      await database.drop();
    },
  };
}
