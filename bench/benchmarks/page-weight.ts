/**
 * Benchmark 4, page weight against a bare React page: the JavaScript a browser must fetch before
 * the first view (the entry script and the modules it preloads, as index.html names them; never
 * the chunks loaded later), gzipped, over the same for a React 19 hello-world built by the same
 * Vite and React plugin; and the page's initial CSS, gzipped, against a 25 KB budget.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { inlineScriptTexts } from '../../src/server/http/page.js';
import { BENCH_CACHE, type PrivateBuild } from '../lib/build.js';
import { type BenchResult, result } from '../lib/report.js';
import { round } from '../lib/stats.js';

const CSS_BUDGET_KB = 25;
const KB = 1024;

export interface InitialAssets {
  readonly scripts: readonly string[];
  readonly styles: readonly string[];
  /** The text of each script written into the HTML itself (the first reads, decision 0121). */
  readonly inlineScripts: readonly string[];
}

/** The scripts, module preloads and style sheets index.html makes the browser fetch up front. */
export function initialAssets(indexHtml: string): InitialAssets {
  const scripts: string[] = [];
  const styles: string[] = [];
  const inlineScripts = inlineScriptTexts(indexHtml);
  // The tags of the document itself: not the text of its own scripts, which may write tags of their own (decision 0127).
  const markup = indexHtml.replace(/(<script\b[^>]*>)[\s\S]*?<\/script>/g, '$1</script>');
  for (const tag of markup.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
    if (tag.startsWith('<script')) {
      const source = attribute('src');
      if (source) scripts.push(source);
    } else if (attribute('rel') === 'modulepreload') {
      const href = attribute('href');
      if (href) scripts.push(href);
    } else if (attribute('rel') === 'stylesheet') {
      const href = attribute('href');
      if (href) styles.push(href);
    }
  }
  return { scripts, styles, inlineScripts };
}

/** Gzip at level 9, what a server precompressing static files would send. */
function gzippedBytes(webRoot: string, assets: readonly string[]): number {
  let total = 0;
  for (const asset of assets) {
    const file = path.join(webRoot, asset.replace(/^\//, ''));
    total += zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
  }
  return total;
}

const BARE_INDEX = `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Hello</title></head>
  <body><div id="root"></div><script type="module" src="./main.tsx"></script></body>
</html>
`;

const BARE_MAIN = `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <h1>Hello, world</h1>
  </StrictMode>,
);
`;

/** A React 19 hello-world, built by the same Vite and React plugin as the page. */
async function buildBareReactPage(): Promise<string> {
  const root = path.join(BENCH_CACHE, 'bare-react');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, 'index.html'), BARE_INDEX);
  fs.writeFileSync(path.join(root, 'main.tsx'), BARE_MAIN);
  const outDir = path.join(root, 'dist');
  await build({ root, configFile: false, logLevel: 'error', plugins: [react()], build: { outDir, emptyOutDir: true } });
  return outDir;
}

function sizesOf(webRoot: string) {
  const assets = initialAssets(fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8'));
  // A script in the HTML counts as the files do: the first view's code, compressed on its own.
  const inline = assets.inlineScripts.reduce((total, text) => total + zlib.gzipSync(text, { level: 9 }).length, 0);
  return { assets, script: gzippedBytes(webRoot, assets.scripts) + inline, style: gzippedBytes(webRoot, assets.styles) };
}

/** Sizes do not vary from run to run: no repetition, so the settings do not matter here. */
export async function pageWeight(build: PrivateBuild): Promise<BenchResult[]> {
  const ours = sizesOf(build.webRoot);
  const bare = sizesOf(await buildBareReactPage());
  const lazy = fs
    .readdirSync(path.join(build.webRoot, 'assets'))
    .filter((file) => /\.(js|css)$/.test(file) && !ours.assets.scripts.concat(ours.assets.styles).some((asset) => asset.endsWith(file)));
  return [
    result(
      '4a. initial JS gzipped vs bare React page (KB)',
      'KB',
      round(ours.script / KB),
      round(bare.script / KB),
      { atMost: 1.6 },
      `initial: ${ours.assets.scripts.join(', ')}${ours.assets.inlineScripts.length === 0 ? '' : ` and ${ours.assets.inlineScripts.length} script in the HTML`}; loaded later: ${lazy.length === 0 ? 'nothing' : lazy.join(', ')}`,
    ),
    result(
      '4b. initial CSS gzipped vs 25 KB budget (KB)',
      'KB',
      round(ours.style / KB),
      CSS_BUDGET_KB,
      { atMost: 1 },
      `initial: ${ours.assets.styles.join(', ')}`,
    ),
  ];
}
