/**
 * The build step that writes the view's first calls into index.html (decision 0121): the page's
 * src/web/first-reads-inline.ts built apart as one classic script (an IIFE, minified, with only what
 * it uses of the modules it imports) and put first in the document's head, ahead of the style sheet
 * a script would wait for. The server allows it by its hash (src/server/http/page.ts).
 */
import { build, type Plugin, type Rolldown } from 'vite';

/** A view's address and the name of the file vite.config.ts places that view's own code in. */
export type ViewChunkNames = Readonly<Record<string, string>>;

/** The script's code, built from `entry` with nothing of the page's own build configuration. */
async function firstReadsScript(entry: string): Promise<string> {
  const built = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      minify: true,
      // Standard ES2020 (the page's own target) with nothing loaded: no preload helper, no chunks.
      lib: { entry, formats: ['iife'], name: 'leftoverFirstReads' },
      // Its modules are read for their functions only: what the two calls do not use stays out (zod's schemas, React).
      rolldownOptions: { treeshake: { moduleSideEffects: false } },
    },
  });
  const outputs = (Array.isArray(built) ? built : [built]) as Rolldown.RolldownOutput[];
  const chunk = outputs.flatMap((output) => output.output).find((each) => each.type === 'chunk');
  if (chunk === undefined || chunk.type !== 'chunk') throw new Error(`building ${entry} gave no script`);
  return chunk.code.trim();
}

/**
 * The files each view's first paint needs beyond the document's own, by address: the view's chunk
 * and the chunks it imports statically, at any depth, less those the document loads already, then
 * the style sheets those chunks bring (the Ledger's rows, Home's chart), which the page's import of
 * the view would otherwise ask for only once the document's script has run.
 */
function viewFiles(bundle: Rolldown.OutputBundle, chunkNames: ViewChunkNames, base: string): Record<string, string[]> {
  const chunks = Object.values(bundle).filter((each): each is Rolldown.OutputChunk => each.type === 'chunk');
  const entries = chunks.filter((chunk) => chunk.isEntry);
  const documentChunks = staticallyImported(bundle, entries);
  const inTheDocument = new Set(documentChunks.map((chunk) => chunk.fileName));
  const stylesInTheDocument = new Set(documentChunks.flatMap((chunk) => cssOf(chunk)));
  const files: Record<string, string[]> = {};
  for (const [address, name] of Object.entries(chunkNames)) {
    const chunk = viewChunk(bundle, address, name);
    const ownChunks = staticallyImported(bundle, [chunk]).filter((each) => !inTheDocument.has(each.fileName));
    const styles = ownChunks.flatMap((each) => cssOf(each)).filter((file) => !stylesInTheDocument.has(file));
    files[address] = [...ownChunks.map((each) => each.fileName), ...new Set(styles)].map((file) => `${base}${file}`);
  }
  return files;
}

/** The chunk vite.config.ts's placement named for the view at `address`. */
function viewChunk(bundle: Rolldown.OutputBundle, address: string, name: string): Rolldown.OutputChunk {
  const chunk = Object.values(bundle).find(
    (each): each is Rolldown.OutputChunk => each.type === 'chunk' && each.name === name && !each.isEntry,
  );
  if (chunk === undefined) throw new Error(`no chunk named ${name} for ${address}`);
  return chunk;
}

/**
 * `from` and every chunk they import statically, at any depth, each once: the document loads all of
 * them and links their style sheets (Vite's HTML step walks the same imports).
 */
function staticallyImported(bundle: Rolldown.OutputBundle, from: readonly Rolldown.OutputChunk[]): Rolldown.OutputChunk[] {
  const found = new Map(from.map((chunk) => [chunk.fileName, chunk]));
  const toVisit = [...from];
  for (let chunk = toVisit.pop(); chunk !== undefined; chunk = toVisit.pop()) {
    for (const file of chunk.imports) {
      const imported = bundle[file];
      if (imported?.type !== 'chunk' || found.has(file)) continue;
      found.set(file, imported);
      toVisit.push(imported);
    }
  }
  return [...found.values()];
}

/** The style sheets Vite split off a chunk (its `viteMetadata`), by file name. */
function cssOf(output: Rolldown.OutputBundle[string] | undefined): string[] {
  return output?.type === 'chunk' ? [...(output.viteMetadata?.importedCss ?? [])] : [];
}

/**
 * A script that asks for the files of the view at the document's address, so they are fetched (and
 * the scripts compiled) while the first script is, not once it has run and imported the view (issue
 * 35): scripts as module preloads, style sheets as style preloads, which the page's import of the
 * view then finds in hand; it still adds each sheet and waits for it, so nothing shows unstyled.
 * The view's own chunk, for the views in `runs`, is written into the document as a module script
 * instead (decision 0127): parsed there, it runs after the document is parsed, with the entry and
 * in the same task, and the view says its code is in without an import. No import then adds the
 * view's style sheets, so the document links them itself, as it links its own: parsed there, they
 * hold back the paint and the page's scripts until they are in, and the view's first paint has its
 * own styles (the Ledger's painted unstyled, its rows 68 px lower than a moment later; decision 0129). Plain
 * ES5, after the first reads in the same element (one hash in the policy).
 */
function viewPreloadScript(files: Record<string, string[]>, runs: Record<string, string>): string {
  return (
    `(function(r,f){if(r)document.write('<script type="module" crossorigin src="'+r+'"><\\/script>');if(!f)return;` +
    `for(var i=0;i<f.length;i++){if(f[i]===r)continue;var c=/\\.css$/.test(f[i]);` +
    `if(c&&r){document.write('<link rel="stylesheet" crossorigin href="'+f[i]+'">');continue}var l=document.createElement('link');` +
    `if(c){l.rel='preload';l.as='style'}else{l.rel='modulepreload'}` +
    `l.crossOrigin='';l.href=f[i];document.head.appendChild(l)}})(${JSON.stringify(runs)}[location.pathname],${JSON.stringify(files)}[location.pathname]);`
  );
}

/**
 * `viewChunks`: each view's address and the name of its own chunk (vite.config.ts's placement): the
 * script also preloads those files for the view the document opens on. `runByTheDocument`: the
 * addresses whose view's chunk the document runs itself (decision 0127; the chunk's view must say
 * its code is in, view-code-in-hand.ts).
 */
export function firstReadsInline(entry: string, viewChunks: ViewChunkNames, runByTheDocument: readonly string[]): Plugin {
  let base = '/';
  return {
    name: 'leftover-first-reads-inline',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      // After the bundle is written out: the view chunks' file names are known then.
      order: 'post',
      async handler(_html, { bundle }) {
        if (bundle === undefined) throw new Error('the first reads script needs the bundle');
        const runs = Object.fromEntries(
          runByTheDocument.map((address) => [address, `${base}${viewChunk(bundle, address, viewChunks[address] ?? '').fileName}`]),
        );
        const code = `${await firstReadsScript(entry)}\n${viewPreloadScript(viewFiles(bundle, viewChunks, base), runs)}`;
        if (code.includes('</script')) throw new Error('the first reads script would end its own element');
        return [{ tag: 'script', children: code, injectTo: 'head-prepend' }];
      },
    },
  };
}
