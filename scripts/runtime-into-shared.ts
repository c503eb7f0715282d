/**
 * Rolldown's runtime helpers in the page's `shared` chunk instead of a file of their own (issue 35: no
 * chunk under 1 KB on a view's path; decision 0112).
 *
 * Rolldown puts its runtime module (`\0rolldown/runtime.js`: the CommonJS and namespace helpers, about
 * 0.7 KB) in a chunk first and merges it back only into a chunk it can prove safe (rolldown PR 9419).
 * Every chunk of the page uses the helpers, so they stayed alone, and every view asked for that file
 * as one more request before its paint. Once the bundle is made, this puts the helpers' code where
 * `shared` imported them and has every other chunk import them from `shared`, which the entry imports
 * statically: it is loaded, and evaluated, before any chunk that could want them. Each source map is
 * carried through the edits (magic-string, @jridgewell/remapping), so error tools still find the
 * sources.
 */
import remapping, { type EncodedSourceMap, type SourceMapInput } from '@jridgewell/remapping';
import MagicString from 'magic-string';
import type { Plugin } from 'vite';

const RUNTIME_MODULE = '\0rolldown/runtime.js';
/** The chunk the helpers move into (vite.config.ts names it). */
const SHARED_CHUNK = 'shared';
/** The helpers' names as `shared` exports them; a build whose code already used one stops (see below). */
const EXPORT_PREFIX = '__lrt_';
/** Goes into every chunk's hash; change it when the code this plugin writes changes shape. */
const OUTPUT_SHAPE = 'runtime-into-shared 1';

/** `text` as a regular expression that matches it and nothing else. */
const literally = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The file's name without its folder, as chunks name each other (`./shared-….js`). */
const baseName = (fileName: string): string => fileName.slice(fileName.lastIndexOf('/') + 1);

/** The part of an `import { a as b, c } from "..."` clause or an `export { a as b }` clause: `[name, as]` pairs. */
function specifiers(clause: string): [string, string][] {
  return clause
    .split(',')
    .map((each) => each.trim())
    .filter((each) => each.length > 0)
    .map((each) => {
      const [name, as] = each.split(/\s+as\s+/);
      if (name === undefined) throw new Error(`runtime-into-shared: cannot read "${each}"`);
      return [name, as ?? name];
    });
}

interface OutputChunkLike {
  code: string;
  /** The chunk's source map (an encoded map object), or null without maps. */
  map: SourceMapInput | null;
  imports: string[];
  fileName: string;
  name: string;
  exports: string[];
  moduleIds: string[];
  type: 'chunk';
}

type Edit = readonly [start: number, end: number, text: string];

/** Applies the edits to the chunk's code and keeps its source map true to the new code. */
function rewrite(chunk: OutputChunkLike, edits: readonly Edit[]): void {
  if (edits.length === 0) return;
  const code = new MagicString(chunk.code);
  for (const [start, end, text] of edits) {
    if (start === end) code.appendLeft(start, text);
    else code.overwrite(start, end, text);
  }
  if (chunk.map !== null) {
    const editMap = code.generateMap({ hires: true, source: chunk.fileName, file: chunk.fileName, includeContent: false });
    // remapping traces the edited code's map through the chunk's own map to the original sources.
    const traced = remapping([editMap.toString(), chunk.map], () => null);
    chunk.map = { ...(JSON.parse(traced.toString()) as EncodedSourceMap), file: chunk.fileName };
  }
  chunk.code = code.toString();
}

/** The bundle as the plugin sees it: chunks and assets by file name. */
export type BundleLike = Record<string, OutputChunkLike | OutputAssetLike>;

interface OutputAssetLike {
  type: 'asset';
  fileName: string;
  source: string | Uint8Array;
}

/** Moves the runtime chunk's helpers into `shared` and points every chunk, map and the HTML at it. */
export function moveRuntimeIntoShared(bundle: BundleLike): void {
  const chunks = Object.values(bundle).filter((each): each is OutputChunkLike => each.type === 'chunk');
  const runtime = chunks.find((each) => each.moduleIds.length === 1 && each.moduleIds[0] === RUNTIME_MODULE);
  // Rolldown merged its runtime somewhere itself: nothing to do.
  if (runtime === undefined) return;
  const shared = chunks.find((each) => each.name === SHARED_CHUNK);
  if (shared === undefined) throw new Error(`runtime-into-shared: no "${SHARED_CHUNK}" chunk to put the runtime in`);

  const runtimeExport = /export\s*\{([^}]*)\};?\s*$/.exec(runtime.code);
  if (runtimeExport === null) throw new Error('runtime-into-shared: the runtime chunk does not end in one export clause');
  const runtimeBody = runtime.code.slice(0, runtimeExport.index);
  // Each helper: its name inside the runtime's code and the name other chunks import it by.
  const helpers = specifiers(runtimeExport[1] ?? '');
  const exportedAs = (name: string) => `${EXPORT_PREFIX}${name}`;
  for (const chunk of chunks) {
    if (chunk.code.includes(EXPORT_PREFIX)) throw new Error(`runtime-into-shared: ${chunk.fileName} already uses ${EXPORT_PREFIX}`);
  }

  const runtimeFile = baseName(runtime.fileName);
  const importOfRuntime = new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*"\\./${literally(runtimeFile)}";?`);
  const runtimePath = new RegExp(`"${literally(runtime.fileName)}"`, 'g');
  const sharedFile = baseName(shared.fileName);

  for (const chunk of chunks) {
    if (chunk === runtime) continue;
    const edits: Edit[] = [];
    const imported = importOfRuntime.exec(chunk.code);
    if (imported !== null) {
      const names = specifiers(imported[1] ?? '');
      let text: string;
      if (chunk === shared) {
        // The helpers' code, in a function of its own so that its names cannot meet shared's, then
        // the names shared's own code used for them.
        const returned = helpers.map(([inside, name]) => `${name}:${inside}`).join(',');
        const declared = helpers.map(([, name]) => `${name}:${exportedAs(name)}`).join(',');
        const local = names.map(([name, as]) => `${as}=${exportedAs(name)}`).join(',');
        text = `const{${declared}}=(()=>{${runtimeBody};return{${returned}}})()${local.length > 0 ? `,${local}` : ''};`;
      } else {
        text = `import{${names.map(([name, as]) => `${exportedAs(name)} as ${as}`).join(',')}}from"./${sharedFile}";`;
      }
      edits.push([imported.index, imported.index + imported[0].length, text]);
    }
    // Vite's preload lists ("assets/rolldown-runtime-….js") name the file a dynamic import waits for.
    for (const listed of chunk.code.matchAll(runtimePath)) {
      edits.push([listed.index, listed.index + listed[0].length, JSON.stringify(shared.fileName)]);
    }
    if (chunk === shared) {
      edits.push([chunk.code.length, chunk.code.length, `export{${helpers.map(([, name]) => exportedAs(name)).join(',')}};`]);
    }
    rewrite(chunk, edits);
    if (chunk.imports.includes(runtime.fileName)) {
      chunk.imports = [...new Set(chunk.imports.map((each) => (each === runtime.fileName ? shared.fileName : each)))].filter(
        (each) => each !== chunk.fileName,
      );
    }
    if (chunk === shared) chunk.exports = [...chunk.exports, ...helpers.map(([, name]) => exportedAs(name))];
    // Any other way of naming the file (a bare `import "./rolldown-runtime-….js"`) would load a file that is gone.
    if (chunk.code.includes(runtimeFile)) {
      throw new Error(`runtime-into-shared: ${chunk.fileName} still names ${runtime.fileName} after the move`);
    }
  }
  // The page's HTML, when Vite has written it already: no modulepreload for a file that is gone.
  for (const asset of Object.values(bundle)) {
    if (asset.type === 'asset' && asset.fileName.endsWith('.html') && typeof asset.source === 'string') {
      asset.source = asset.source.replace(new RegExp(`\\s*<link[^>]*${literally(runtime.fileName)}[^>]*>`, 'g'), '');
    }
  }
  // The plugin API removes a file from the bundle by deleting its key.
  Reflect.deleteProperty(bundle, runtime.fileName);
}

export function runtimeIntoShared(): Plugin {
  return {
    name: 'leftover:runtime-into-shared',
    apply: 'build',
    enforce: 'post',
    // Every chunk's name changes with this plugin's output shape: a browser never pairs a file cached
    // from one build with another build's file of the same name.
    augmentChunkHash: () => OUTPUT_SHAPE,
    generateBundle(_options, bundle) {
      moveRuntimeIntoShared(bundle as unknown as BundleLike);
    },
  };
}
