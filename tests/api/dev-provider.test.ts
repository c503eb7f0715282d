/**
 * The embedded development provider, end to end over real HTTP: a user name signs in through the
 * authorization code flow with PKCE, the API accepts its access token, two names are two users,
 * and tokens stay valid across a restart because the keys persist in the data folder.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { signInThroughDevProvider } from '../support/dev-sign-in.js';
import { freePort } from '../support/server-process.js';

describe('embedded development provider', () => {
  let dataDir: string;
  let port: number;
  let app: FastifyInstance;

  async function start(): Promise<FastifyInstance> {
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(dataDir, 'leftover.sqlite')}`,
      LOG_LEVEL: 'silent',
    });
    const started = await buildApp(config, { logger: false });
    await started.listen({ port, host: '127.0.0.1' });
    return started;
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-dev-provider-'));
    port = await freePort();
    app = await start();
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const origin = () => `http://localhost:${port}`;
  /**
   * GET /api/me on a connection of its own (no keep-alive pool): after a restart, a pooled socket of
   * the closed server may not be seen closed yet, and a request sent on it fails before reaching us.
   */
  const me = (token: string): Promise<{ status: number; json: () => unknown }> =>
    new Promise((resolve, reject) => {
      const request = http.get(`${origin()}/api/me`, { agent: false, headers: { authorization: `Bearer ${token}` } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, json: () => JSON.parse(body) }));
      });
      request.on('error', reject);
    });

  it('signs a user name in and the API names them by it', async () => {
    const { accessToken, refreshToken } = await signInThroughDevProvider(origin(), 'Alice');
    // The access token carries the name other members of a budget see (issue 38), as a configured provider's does.
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: 'alice', name: 'alice' });
    const response = await me(accessToken);
    expect(response.status).toBe(200);
    // User names are case-insensitive: Alice and alice are one user.
    // No time zone chosen yet: today is read in the server's (decision 0047).
    expect(response.json()).toEqual({
      subject: 'alice',
      name: null,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      buffer: 0,
      everydaySpending: null,
    });
    // The page renews with a refresh token, since it forbids the hidden-iframe way.
    expect(refreshToken).toEqual(expect.any(String));
  });

  it('keeps two user names apart', async () => {
    const first = await signInThroughDevProvider(origin(), 'carol');
    const second = await signInThroughDevProvider(origin(), 'dave');
    expect((await me(first.accessToken)).json()).toMatchObject({ subject: 'carol' });
    expect((await me(second.accessToken)).json()).toMatchObject({ subject: 'dave' });
  });

  it('refuses a user name it cannot use, on the sign-in page', async () => {
    await expect(signInThroughDevProvider(origin(), 'not a name!')).rejects.toThrow(/status 400/);
  });

  it('keeps tokens valid across a restart: the signing key persists in the data folder', async () => {
    const { accessToken } = await signInThroughDevProvider(origin(), 'erin');
    const keysFile = path.join(dataDir, 'dev-oidc-keys.json');
    expect(fs.statSync(keysFile).mode & 0o777).toBe(0o600);
    await app.close();
    app = await start();
    expect((await me(accessToken)).status).toBe(200);
  });

  it('refuses to run with NODE_ENV=production', async () => {
    const { registerDevProvider } = await import('../../src/server/auth/dev-provider.js');
    const config = loadConfig({ NODE_ENV: 'test', PORT: String(port), DATABASE_URL: `sqlite:${path.join(dataDir, 'other.sqlite')}` });
    if (config.oidc.kind !== 'embedded') throw new Error('expected the embedded provider');
    await expect(registerDevProvider(app, config.oidc, 'production')).rejects.toThrow(/refuses to run with NODE_ENV=production/);
  });
});
