/**
 * No module of src/ (domain, contract, server, web) reaches itself through its
 * imports, type-only and dynamic imports included (issue 33, decision 0061). The linter's
 * import/no-cycle skips type-only imports, which is how three circles grew unnoticed; TypeScript's
 * own scanner lists every import of a file, so this check misses none.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src/domain', 'src/contract', 'src/web', 'src/server'];

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.d\.ts$/.test(entry.name) ? [path.normalize(file)] : [];
  });
}

/** The file a relative specifier names: './x.js' is x.ts or x.tsx beside the importer; styles and packages are not modules of ours. */
function resolved(importer: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.normalize(path.join(path.dirname(importer), specifier)).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((file) => fs.existsSync(file)) ?? null;
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.map((imported) => resolved(file, imported.fileName)).filter((target) => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** What a module reaches through its imports, itself included only when an import leads back to it. */
function reachable(graph: ReadonlyMap<string, readonly string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const queue = [...(graph.get(from) ?? [])];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(graph.get(next) ?? []));
  }
  return seen;
}

/**
 * Every circle, as the sorted group of modules that reach each other through it. A few hundred
 * modules: a walk from each is quick, and plainer than a strongly-connected-components algorithm.
 */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const reaches = new Map([...graph.keys()].map((file) => [file, reachable(graph, file)]));
  const groups = new Map<string, string[]>();
  for (const [file, reached] of reaches) {
    if (!reached.has(file)) continue;
    const group = [...reached].filter((other) => reaches.get(other)?.has(file)).sort();
    groups.set(group.join(' '), group);
  }
  return [...groups.values()];
}

describe('imports of the page, the contract and the domain', () => {
  it('form no circle, counting type-only and dynamic imports', () => {
    const graph = importGraph(ROOTS.flatMap(sourceFiles));
    expect(graph.size).toBeGreaterThan(100);
    expect(circles(graph)).toEqual([]);
  });

  it('finds each circle, and only the modules in it', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
