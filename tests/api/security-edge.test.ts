/**
 * The edge of the server (issue 17): personal answers are never cached, and a request without a
 * Host header is refused like every other, with our body and headers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A built page in miniature: a hashed asset and a service worker beside index.html. */
function miniatureWebRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-web-'));
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><html lang="en"><body></body></html>');
  fs.writeFileSync(path.join(root, 'assets', 'app-1a2b3c.js'), 'console.log("leftover");');
  fs.writeFileSync(path.join(root, 'sw.js'), 'self.addEventListener("install", () => {});');
  return root;
}

describe('the edge of the server', () => {
  let test: TestApp;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = miniatureWebRoot();
    test = await startTestApp('sqlite', { webRoot });
  });
  afterAll(async () => {
    await test?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('sends Cache-Control: no-store with every /api answer, success and refusal', async () => {
    const user = test.as('cache-user');
    const answers = [
      ['GET /api/me', await user.get('/api/me')],
      ['GET /api/deposits', await user.get('/api/deposits')],
      ['GET /api/expenses', await user.get('/api/expenses')],
      ['GET /api/openapi.json', await test.app.inject({ method: 'GET', url: '/api/openapi.json' })],
      ['401', await test.app.inject({ method: 'GET', url: '/api/me' })],
      ['404', await user.get('/api/nothing-here')],
    ] as const;
    for (const [label, response] of answers) {
      expect(response.statusCode, label).toBeLessThan(500);
      expect(response.headers['cache-control'], label).toBe('no-store');
    }
    expect(answers[0][1].statusCode).toBe(200);
  });

  it('keeps the long cache of hashed assets and revalidates the page and sw.js', async () => {
    const asset = await test.app.inject({ method: 'GET', url: '/assets/app-1a2b3c.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/sw.js']) {
      expect((await test.app.inject({ method: 'GET', url })).headers['cache-control'], url).toBe('no-cache');
    }
  });
});
