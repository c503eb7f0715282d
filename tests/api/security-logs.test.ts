/**
 * Secrets stay out of the log (issue 17): a whole sign-in through the development provider, API
 * calls (one with the token in the query string, as a careless client might send it), the page's
 * callback with its code, and sign-out with the ID token as its hint, all logged at trace level,
 * and not one token, code or token-shaped string in the lines.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { redactedUrl } from '../../src/server/http/edge.js';
import { signInThroughDevProvider } from '../support/dev-sign-in.js';
import { freePort } from '../support/server-process.js';

/** Three base64url segments separated by dots, the first two long enough to be a JWT's header and payload. */
const TOKEN_SHAPED = /[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/;

describe('the log during sign-in, calls and sign-out', () => {
  let dataDir: string;
  let port: number;
  let app: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-logs-'));
    port = await freePort();
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(dataDir, 'leftover.sqlite')}`,
      LOG_LEVEL: 'trace',
    });
    app = await buildApp(config, { logStream: { write: (line) => void lines.push(line) } });
    await app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('redacts every query value, keeping the path and the parameter names', () => {
    expect(redactedUrl('/api/me')).toBe('/api/me');
    expect(redactedUrl('/oidc/session/end?id_token_hint=a.b.c&post_logout_redirect_uri=http%3A%2F%2Fx')).toBe(
      '/oidc/session/end?id_token_hint=[redacted]&post_logout_redirect_uri=[redacted]',
    );
    expect(redactedUrl('/x?eyJhbGciOiJSUzI1NiJ9eyJzdWIiOiJhbGljZSJ9&=1&flag')).toBe(
      '/x?[redacted]=[redacted]&[redacted]=[redacted]&flag=[redacted]',
    );
  });

  it('logs no token, code or token-shaped string', async () => {
    const origin = `http://localhost:${port}`;
    const { accessToken, idToken, refreshToken } = await signInThroughDevProvider(origin, 'Alice');
    const secrets = [accessToken, idToken, ...(refreshToken ? [refreshToken] : [])];
    const code = 'code-0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c';
    secrets.push(code);

    expect((await fetch(`${origin}/api/me`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(200);
    // A client that puts the token in the address: refused, and still not logged.
    expect((await fetch(`${origin}/api/me?access_token=${accessToken}`)).status).toBe(401);
    await fetch(`${origin}/login/callback?code=${code}&state=s1`);
    const endSession = new URL(`${origin}/oidc/session/end`);
    endSession.search = new URLSearchParams({
      id_token_hint: idToken,
      post_logout_redirect_uri: `${origin}/`,
      client_id: 'leftover-web',
    }).toString();
    const signOut = await fetch(endSession, { redirect: 'manual' });
    expect(signOut.status).toBeLessThan(500);

    const log = lines.join('');
    // The log was on: the requests above are in it, by path.
    expect(log).toContain('/oidc/session/end?id_token_hint=[redacted]');
    expect(log).toContain('/api/me?access_token=[redacted]');
    expect(log).toContain('/login/callback?code=[redacted]');
    for (const secret of secrets) expect(log.includes(secret), `a secret of ${secret.length} characters is in the log`).toBe(false);
    expect(log.match(TOKEN_SHAPED)?.[0]).toBeUndefined();
  });
});
