/**
 * Issue 17, finding 8: the built page's source maps are not served unless SERVE_SOURCE_MAPS=true.
 * A miniature built page (what registerPage serves) stands in for `npm run build`; SQLite only,
 * as nothing here touches the database.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { MINIATURE_SCRIPT as SCRIPT, miniatureWebRoot } from '../support/miniature-page.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe.each([
  ['by default', {}, false],
  ['with SERVE_SOURCE_MAPS=true', { SERVE_SOURCE_MAPS: 'true' }, true],
] as const)('source maps %s', (_label, env, served) => {
  let test: TestApp;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = miniatureWebRoot({ [`${SCRIPT.slice(1)}.map`]: '{"version":3,"sources":["../../src/web/main.tsx"],"mappings":""}' });
    test = await startTestApp('sqlite', { webRoot, env });
  });
  afterAll(async () => {
    await test.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it(served ? 'serves a script and its map' : 'serves a script but answers 404 for its map, not the page', async () => {
    const script = await test.app.inject({ method: 'GET', url: SCRIPT });
    expect(script.statusCode).toBe(200);
    for (const url of [`${SCRIPT}.map`, `${SCRIPT}.map?v=1`]) {
      const map = await test.app.inject({ method: 'GET', url });
      if (served) {
        expect(map.statusCode, url).toBe(200);
        expect(map.body).toContain('"sources"');
      } else {
        expect(map.statusCode, url).toBe(404);
        expect(strictErrorBodySchema.parse(map.json()).error.code).toBe('not_found');
        expect(map.body).not.toContain('sources');
      }
    }
    // A map that was never built is missing either way: never index.html in its place.
    const missing = await test.app.inject({ method: 'GET', url: '/assets/none.js.map' });
    expect(missing.statusCode).toBe(404);
  });
});
