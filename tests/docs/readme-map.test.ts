/**
 * README.md's map of the code (## Architecture) names every folder of src/, at every depth, and no
 * folder that is not there: a folder added, renamed or removed without its line fails here by name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every folder under src/, as 'src/server/ledger/' (with the slash, as the map writes them). */
function foldersOf(relative: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, relative), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const folder = `${relative}${entry.name}/`;
      return [folder, ...foldersOf(folder)];
    });
}

/**
 * A line of the map that names folders: after its indentation, one or more `name/` separated by
 * ", ", then two spaces and what they hold, or the end of the line. Other lines (files, and the
 * wrapped text of a description, indented deeper) name none.
 */
const FOLDER_LINE = /^( *)((?:[a-z0-9.-]+\/)+(?:, (?:[a-z0-9.-]+\/)+)*)(?: {2,}|$)/;

/**
 * The folders the map names, each the path of its parents: a folder's line is indented deeper than
 * its parent's. The map is the fenced block that begins with the line `src/`.
 */
function foldersInMap(readme: string): string[] {
  const blocks = readme.split(/^```.*$/m);
  const map = blocks.find((block) => block.replace(/^\n/, '').startsWith('src/\n'));
  if (!map) throw new Error("README.md has no map of the code: a fenced block whose first line is 'src/'");
  const parents: { indent: number; folders: string[] }[] = [];
  const named: string[] = [];
  for (const line of map.split('\n')) {
    const match = FOLDER_LINE.exec(line);
    if (!match) continue;
    const indent = (match[1] ?? '').length;
    while ((parents.at(-1)?.indent ?? -1) >= indent) parents.pop();
    const parent = parents.at(-1);
    if (parent && parent.folders.length !== 1) {
      throw new Error(`README.md's map: '${line.trim()}' is indented under a line of several folders (${parent.folders.join(', ')})`);
    }
    const folders = (match[2] ?? '').split(', ').map((name) => `${parent?.folders[0] ?? ''}${name}`);
    named.push(...folders);
    parents.push({ indent, folders });
  }
  return named;
}

describe("README.md's map of the code", () => {
  const inMap = foldersInMap(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).filter((folder) => folder.startsWith('src/'));
  const onDisk = ['src/', ...foldersOf('src/')];

  it('names every folder of src/', () => {
    const missing = onDisk.filter((folder) => !inMap.includes(folder));
    expect(missing, `folders of src/ that README.md's map of the code (## Architecture) does not name: ${missing.join(', ')}`).toEqual([]);
  });

  it('names no folder that src/ does not have, and none twice', () => {
    const gone = inMap.filter((folder) => !onDisk.includes(folder));
    expect(gone, `README.md's map of the code names folders that do not exist: ${gone.join(', ')}`).toEqual([]);
    const twice = inMap.filter((folder, index) => inMap.indexOf(folder) !== index);
    expect(twice, `README.md's map of the code names these folders twice: ${twice.join(', ')}`).toEqual([]);
  });

  it('reads folders by their indentation, several to a line, and skips files and wrapped descriptions', () => {
    const map = [
      '```',
      'src/',
      '  server/          the server',
      '    app.ts           buildApp',
      '    deposits/, expenses/   routes and',
      '                     wrapped text/  that is no folder',
      '    ledger/          its face',
      '      window/        rows',
      '  web/',
      'tests/',
      '  api/             API tests',
      '```',
    ].join('\n');
    expect(foldersInMap(map)).toEqual([
      'src/',
      'src/server/',
      'src/server/deposits/',
      'src/server/expenses/',
      'src/server/ledger/',
      'src/server/ledger/window/',
      'src/web/',
      'tests/',
      'tests/api/',
    ]);
  });
});
