/**
 * The node and web projects share one module graph per worker (vitest.config.ts): a vi.mock in one
 * of their files would replace the module for every file after it in that worker. Only the files
 * named in isolated-test-files.ts, which run with a graph each, may replace a module.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILES_THAT_REPLACE_MODULES } from '../support/isolated-test-files.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TEST_FILE = /\.test\.tsx?$/;
const REPLACES_A_MODULE = /\bvi\.(?:mock|doMock)\(/;

function testFilesUnder(relative: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, relative), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && TEST_FILE.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

describe('test files that share a module graph', () => {
  const shared = ['src', 'tests/api', 'tests/fuzz', 'tests/docs']
    .flatMap(testFilesUnder)
    .filter((file) => !FILES_THAT_REPLACE_MODULES.includes(file));

  it('replace no module: vi.mock and vi.doMock are only in the files that run with a graph each', () => {
    expect(shared.length).toBeGreaterThan(100);
    const replacing = shared.filter((file) => REPLACES_A_MODULE.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(replacing).toEqual([]);
  });

  it('name only files that exist', () => {
    expect(FILES_THAT_REPLACE_MODULES.filter((file) => !fs.existsSync(path.join(ROOT, file)))).toEqual([]);
  });
});
