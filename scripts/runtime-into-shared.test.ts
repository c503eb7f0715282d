/**
 * The build step that puts rolldown's runtime helpers into the `shared` chunk (decision 0112), on a
 * bundle shaped as rolldown 1.2 makes the page's: the helpers' own chunk, `shared` importing one of
 * them, an entry importing others and listing the helpers' file for a dynamic import's preload, and the
 * HTML preloading it. The rewritten modules are written to a folder and run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import MagicString from 'magic-string';
import { afterAll, describe, expect, it } from 'vitest';
import { type BundleLike, moveRuntimeIntoShared } from './runtime-into-shared.js';

const RUNTIME = 'assets/rolldown-runtime-AAAA.js';
const SHARED = 'assets/shared-BBBB.js';
const ENTRY = 'assets/index-CCCC.js';
const LAZY = 'assets/lazy-DDDD.js';

/** `shared` as its source says it, and as the minifier wrote it (with a map back to the source). */
const SHARED_SOURCE = 'import{t as wrap}from"./rolldown-runtime-AAAA.js";const wrapped=wrap(1);export{wrapped as s};';

function sharedChunk() {
  const code = new MagicString(SHARED_SOURCE);
  code.overwrite(SHARED_SOURCE.indexOf('wrap}'), SHARED_SOURCE.indexOf('wrap}') + 4, 'e');
  code.overwrite(SHARED_SOURCE.indexOf('wrapped='), SHARED_SOURCE.indexOf('wrapped=') + 7, 'a');
  code.overwrite(SHARED_SOURCE.indexOf('wrap(1)'), SHARED_SOURCE.indexOf('wrap(1)') + 4, 'e');
  code.overwrite(SHARED_SOURCE.indexOf('wrapped as'), SHARED_SOURCE.indexOf('wrapped as') + 7, 'a');
  const map = code.generateMap({ hires: true, source: '../src/shared.ts', file: 'shared-BBBB.js', includeContent: true });
  return {
    type: 'chunk' as const,
    name: 'shared',
    fileName: SHARED,
    code: code.toString(),
    map: JSON.parse(map.toString()) as { version: 3; mappings: string; sources: string[]; names: string[] },
    imports: [RUNTIME],
    exports: ['s'],
    moduleIds: ['/src/shared.ts'],
  };
}

function bundle(): BundleLike {
  return {
    [RUNTIME]: {
      type: 'chunk',
      name: 'rolldown-runtime',
      fileName: RUNTIME,
      // The helpers' own names inside, other names outside, as the minifier leaves them.
      code: 'var e=(t)=>({wrapped:t}),n=(t)=>t*2;export{n as r,e as t};',
      map: null,
      imports: [],
      exports: ['r', 't'],
      moduleIds: ['\0rolldown/runtime.js'],
    },
    [SHARED]: sharedChunk(),
    [ENTRY]: {
      type: 'chunk',
      name: 'index',
      fileName: ENTRY,
      code:
        'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/lazy-DDDD.js","assets/rolldown-runtime-AAAA.js"])))=>i.map(i=>d[i]);' +
        'import{r as n,t}from"./rolldown-runtime-AAAA.js";import{s as o}from"./shared-BBBB.js";' +
        'export const result=[n(21),o,t(2)];export const deps=__vite__mapDeps([0,1]);export const lazy=()=>import("./lazy-DDDD.js");',
      map: null,
      imports: [RUNTIME, SHARED],
      exports: ['result', 'deps', 'lazy'],
      moduleIds: ['/src/main.ts'],
    },
    [LAZY]: {
      type: 'chunk',
      name: 'lazy',
      fileName: LAZY,
      code: 'import{r as e}from"./rolldown-runtime-AAAA.js";export const doubled=e(5);',
      map: null,
      imports: [RUNTIME],
      exports: ['doubled'],
      moduleIds: ['/src/lazy.ts'],
    },
    'index.html': {
      type: 'asset',
      fileName: 'index.html',
      source:
        '<head>\n  <script type="module" crossorigin src="/assets/index-CCCC.js"></script>\n' +
        '  <link rel="modulepreload" crossorigin href="/assets/rolldown-runtime-AAAA.js">\n' +
        '  <link rel="modulepreload" crossorigin href="/assets/shared-BBBB.js">\n</head>',
    },
  };
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** Writes the bundle's chunks as files and imports the entry, as the page would. */
async function run(moved: BundleLike): Promise<Record<string, unknown>> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-runtime-into-shared-'));
  folders.push(folder);
  fs.mkdirSync(path.join(folder, 'assets'));
  for (const file of Object.values(moved)) {
    if (file.type === 'chunk') fs.writeFileSync(path.join(folder, file.fileName), file.code);
  }
  return (await import(pathToFileURL(path.join(folder, ENTRY)).href)) as Record<string, unknown>;
}

describe("rolldown's runtime helpers moved into the shared chunk", () => {
  it('leaves no file of their own, and every chunk runs with the same helpers from shared', async () => {
    const moved = bundle();
    moveRuntimeIntoShared(moved);
    expect(Object.keys(moved).sort()).toEqual([ENTRY, LAZY, SHARED, 'index.html'].sort());
    const entry = await run(moved);
    expect(entry.result).toEqual([42, { wrapped: 1 }, { wrapped: 2 }]);
    expect(await (entry.lazy as () => Promise<{ doubled: number }>)()).toEqual(expect.objectContaining({ doubled: 10 }));
    for (const file of Object.values(moved)) {
      if (file.type === 'chunk') expect(file.code).not.toContain('rolldown-runtime');
    }
  });

  it('points the preload lists, the chunks’ imports and the HTML at shared', () => {
    const moved = bundle();
    moveRuntimeIntoShared(moved);
    const entry = moved[ENTRY];
    const html = moved['index.html'];
    if (entry?.type !== 'chunk' || html?.type !== 'asset') throw new Error('the bundle lost a file');
    expect(entry.code).toContain('["assets/lazy-DDDD.js","assets/shared-BBBB.js"]');
    expect(entry.imports).toEqual([SHARED]);
    expect(moved[LAZY]?.type === 'chunk' && moved[LAZY].imports).toEqual([SHARED]);
    expect(moved[SHARED]?.type === 'chunk' && moved[SHARED].imports).toEqual([]);
    expect(html.source).not.toContain('rolldown-runtime');
    expect(html.source).toContain('<link rel="modulepreload" crossorigin href="/assets/shared-BBBB.js">');
  });

  it("keeps shared's source map pointing at the source it was built from", () => {
    const before = sharedChunk();
    const sourceColumn = SHARED_SOURCE.indexOf('wrap(1)');
    const positionBefore = originalPositionFor(new TraceMap(before.map), { line: 1, column: before.code.indexOf('e(1)') });
    expect(positionBefore).toMatchObject({ source: '../src/shared.ts', line: 1, column: sourceColumn });
    const moved = bundle();
    moveRuntimeIntoShared(moved);
    const shared = moved[SHARED];
    if (shared?.type !== 'chunk' || shared.map === null) throw new Error('shared lost its map');
    const call = shared.code.indexOf('e(1)');
    expect(call).toBeGreaterThan(before.code.indexOf('e(1)'));
    expect(
      originalPositionFor(new TraceMap(shared.map as ConstructorParameters<typeof TraceMap>[0]), { line: 1, column: call }),
    ).toMatchObject({
      source: '../src/shared.ts',
      line: 1,
      column: sourceColumn,
    });
  });

  it('stops the build when a chunk names the runtime file in a way it cannot move', () => {
    const moved = bundle();
    const lazy = moved[LAZY];
    if (lazy?.type !== 'chunk') throw new Error('the bundle lost a file');
    lazy.code = `import"./rolldown-runtime-AAAA.js";${lazy.code}`;
    expect(() => moveRuntimeIntoShared(moved)).toThrow(/lazy-DDDD\.js still names assets\/rolldown-runtime-AAAA\.js/);
  });

  it('does nothing when rolldown kept no runtime file of its own', () => {
    const moved = bundle();
    Reflect.deleteProperty(moved, RUNTIME);
    const untouched = structuredClone(moved);
    moveRuntimeIntoShared(moved);
    expect(moved).toEqual(untouched);
  });
});
