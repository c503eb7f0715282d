/**
 * The build step that writes the view's first calls into index.html (decision 0121): the page's
 * src/web/first-reads-inline.ts built apart as one classic script (an IIFE, minified, with only what
 * it uses of the modules it imports) and put first in the document's head, ahead of the style sheet
 * a script would wait for. The server allows it by its hash (src/server/http/page.ts).
 */
import { build, type Plugin, type Rolldown } from 'vite';

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

export function firstReadsInline(entry: string): Plugin {
  return {
    name: 'leftover-first-reads-inline',
    apply: 'build',
    async transformIndexHtml() {
      const code = await firstReadsScript(entry);
      if (code.includes('</script')) throw new Error('the first reads script would end its own element');
      return [{ tag: 'script', children: code, injectTo: 'head-prepend' }];
    },
  };
}
