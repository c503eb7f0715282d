import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { firstReadsInline } from './scripts/first-reads-inline.js';
import { runtimeIntoShared } from './scripts/runtime-into-shared.js';

/** The top bar's green (Bootstrap's success colour): the installed app's title bar and splash screen. */
const THEME_COLOUR = '#198754';

/**
 * Few, larger chunks, and nothing before a view's first paint that it does not show (issue 35,
 * decision 0073). Left to itself the bundler made some 60 files, many under 1 KB, and the Ledger
 * view's first paint waited for a dozen of them. Every module outside the first script (the entry's
 * static graph) goes, by what imports it, into one of these files:
 * - a view's own (`ledger-view`, `plan-view`): what that view imports statically, with the rows or
 *   tables it loads alongside its data;
 * - `views-common`: what more than one of the views below imports;
 * - `home-parts`: Home's chart (with uPlot), its accounts' balances and "Can I afford it?", loaded
 *   alongside its data;
 * - `user-manager`: the sign-in library (decision 0065);
 * - `after-paint`: everything else (dialogs, forms, menus, Settings, Your data, statements, the undo
 *   status, the changes' code), fetched when the browser is idle after the first paint.
 * A view's file never imports `after-paint` (what a view imports statically is its own or common),
 * so a view's path is the first script, its own file and at most `views-common`.
 */
const VIEW_ROOTS = {
  // The Ledger's Pay and Home's apply a write's changes with code the api client imports lazily
  // (api/ledger-changes.ts, the changes' codec): it comes with the view, or a Pay made before the idle
  // preload would wait for `after-paint` (decision 0111).
  'ledger-view':
    /[\\/]src[\\/](web[\\/](views[\\/]ledger-view\.tsx|features[\\/]ledger[\\/]rows[\\/]ledger-rows\.tsx|api[\\/]ledger-changes\.ts)|contract[\\/]ledger-changes-codec\.ts)$/,
  'plan-view': /[\\/]src[\\/]web[\\/](views[\\/]plan-view|features[\\/](deposits[\\/]deposits-table|expenses[\\/]expenses-table))\.tsx$/,
  'home-parts':
    /[\\/]src[\\/](web[\\/]features[\\/](accounts[\\/]account-balances|what-if[\\/]can-i-afford-it|summary[\\/]forecast-chart[\\/](balance-forecast-chart|forecast-chart-view))\.tsx|contract[\\/]ledger-changes-codec\.ts)$/,
  'user-manager': /[\\/]src[\\/]web[\\/]auth[\\/]user-manager\.ts$/,
} as const satisfies Readonly<Record<string, RegExp>>;

/** The chunk of VIEW_ROOTS that holds each view's own code, by the view's address: the HTML's script preloads it. */
const VIEW_CHUNK_AT = { '/': 'home-parts', '/ledger': 'ledger-view', '/plan': 'plan-view' } as const satisfies Record<
  string,
  keyof typeof VIEW_ROOTS
>;

/** The addresses whose view's own chunk the HTML's script has the document run with the entry (decision 0127): the lazy views, which say their code is in (view-code-in-hand.ts). */
const VIEW_CHUNK_RUN_AT = ['/ledger', '/plan'] as const satisfies readonly (keyof typeof VIEW_CHUNK_AT)[];

/** The file each module outside the first script goes into, worked out once the build has read every module. */
const placement = new Map<string, string>();

function chunkPlacement(): Plugin {
  return {
    name: 'leftover-chunk-placement',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const staticGraph = (roots: readonly string[], stop: ReadonlySet<string>): Set<string> => {
        const seen = new Set<string>();
        const pending = [...roots];
        while (pending.length > 0) {
          const id = pending.pop() as string;
          if (seen.has(id) || stop.has(id)) continue;
          seen.add(id);
          pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
        }
        return seen;
      };
      const firstScript = staticGraph(
        ids.filter((id) => this.getModuleInfo(id)?.isEntry),
        new Set(),
      );
      const users = new Map<string, string[]>();
      for (const [name, root] of Object.entries(VIEW_ROOTS)) {
        for (const id of staticGraph(
          ids.filter((candidate) => root.test(candidate)),
          firstScript,
        )) {
          users.set(id, [...(users.get(id) ?? []), name]);
        }
      }
      placement.clear();
      for (const id of ids) {
        if (firstScript.has(id)) continue;
        const names = users.get(id) ?? [];
        placement.set(id, names.length === 0 ? 'after-paint' : names.length === 1 ? (names[0] as string) : 'views-common');
      }
    },
  };
}

export default defineConfig({
  root: 'src/web',
  // Only the app icons (src/web/public); they are copied as they are, beside index.html.
  publicDir: 'public',
  plugins: [
    react(),
    chunkPlacement(),
    // Rolldown's runtime helpers (0.7 KB) into `shared`, not a file of their own on every view's path (decision 0112).
    runtimeIntoShared(),
    // The view's first calls sent by a script of the HTML's own, as the document is parsed (decision 0121).
    // It also preloads the files of the view at the address (Home's chart and balances, the Ledger's
    // and Plan's view chunks), by the names chunkPlacement gives them.
    firstReadsInline(fileURLToPath(new URL('./src/web/first-reads-inline.ts', import.meta.url)), VIEW_CHUNK_AT, VIEW_CHUNK_RUN_AT),
    // Installable (issue 16, decision 0026): a manifest and a service worker that precaches the
    // page's own files (index.html, the hashed scripts and styles, the icons) and nothing else. API
    // answers, /app-config.json and the sign-in pages always go to the network. The page registers
    // the worker itself after it has loaded (main.tsx), so the first view carries no extra script.
    VitePWA({
      // Production Workbox even when a test builds the page (NODE_ENV=test would pick its debug build).
      mode: 'production',
      injectRegister: false,
      registerType: 'autoUpdate',
      includeManifestIcons: true,
      manifest: {
        name: 'Leftover',
        short_name: 'Leftover',
        description: 'Will you make it to payday, and what is left over?',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: THEME_COLOUR,
        background_color: '#ffffff',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['index.html', 'assets/*.{js,css}'],
        navigateFallback: 'index.html',
        // The same paths as the network-only routes of src/web/public/sw-routes.js (keep the two alike).
        navigateFallbackDenylist: [/^\/api/, /^\/oidc/, /^\/dev-sign-in/, /^\/login/, /^\/app-config\.json/, /^\/notify\//],
        // No runtime caching: whatever is not precached goes to the network as if there were no worker.
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
        // Web push (issue 26, decision 0048): a small handler of our own (src/web/public) shows each
        // push and opens Home when tapped; the API and sign-in calls skip the worker altogether
        // (sw-routes.js, decision 0110). Imported scripts are checked for updates with the worker.
        importScripts: ['/push-handler.js', '/sw-routes.js'],
        sourcemap: false,
      },
    }),
  ],
  css: {
    preprocessorOptions: {
      // Bootstrap 5.3's SCSS still uses @import and old colour functions; its warnings are not ours.
      scss: { quietDeps: true, silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'] },
    },
  },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // Sass compiling Bootstrap dominates the build; rolldown's note saying so is not actionable.
    rolldownOptions: {
      checks: { pluginTimings: false },
      // The statement dialog imports the CSV mapping's date formats from the domain module whose
      // reader uses papaparse; only the server reads CSV, so the page drops the library when unused.
      treeshake: { moduleSideEffects: (id) => (/[\\/]node_modules[\\/]papaparse[\\/]/.test(id) ? false : undefined) },
      output: {
        // The small modules the first view shares with the lazy views (money, dates, the endpoint
        // table, the answer codecs, the budget header's name, zod/mini, the JSX runtime, and React's core, which a lazy chunk
        // of the first view's own code otherwise splits off into a file of its own, decision 0048)
        // in one chunk: left to itself the bundler made a chunk of each group of sharers, nine files
        // whose glue and separate compression cost the first view about 1 KB gzipped (benchmark
        // 4a, issue 24). Not
        // domain/forecast.ts: only the Ledger view runs it since Home reads the server's forecast,
        // and the first view carried it for nothing (328 B gzipped; decision 0045).
        codeSplitting: {
          groups: [
            {
              name: 'shared',
              // Rolldown's own runtime helpers too: left alone they are a 0.6 KB file on every view's path.
              test: /[\\/](src[\\/](domain[\\/](money|names|schedules|ledger|calendar-date|summary)|contract[\\/](common|ledger|expenses|deposits|codecs|errors|app-config)|web[\\/]api[\\/]budget-header)\.ts$|node_modules[\\/](zod[\\/]|react[\\/](index|jsx-runtime)|react[\\/]cjs[\\/]react(-jsx-runtime)?\.production))|rolldown[\\/]runtime\.js$/,
              priority: 40,
            },
            {
              name: (id: string) => placement.get(id) ?? null,
              // The placement above already follows every static import; taking a module's imports
              // along would take modules of the first script into a later file.
              includeDependenciesRecursively: false,
              priority: 10,
            },
          ],
        },
      },
    },
    // Built for developers and error tools, without a sourceMappingURL comment in the scripts: the
    // server does not serve them unless SERVE_SOURCE_MAPS=true (decision 0029).
    sourcemap: 'hidden',
    // Every browser the page supports (decision 0009) preloads modules itself: the polyfill would
    // only add to the first view's script.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/oidc': 'http://localhost:3000',
      '/dev-sign-in': 'http://localhost:3000',
      '/app-config.json': 'http://localhost:3000',
    },
  },
});
