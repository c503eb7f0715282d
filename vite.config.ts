import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** The top bar's green (Bootstrap's success colour): the installed app's title bar and splash screen. */
const THEME_COLOUR = '#198754';

export default defineConfig({
  root: 'src/web',
  // Only the app icons (src/web/public); they are copied as they are, beside index.html.
  publicDir: 'public',
  plugins: [
    react(),
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
        navigateFallbackDenylist: [/^\/api/, /^\/oidc/, /^\/dev-sign-in/, /^\/login/, /^\/app-config\.json/, /^\/notify\//],
        // No runtime caching: whatever is not precached goes to the network as if there were no worker.
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
        // Web push (issue 26, decision 0048): a small handler of our own (src/web/public) shows each
        // push and opens Home when tapped. Imported scripts are checked for updates with the worker.
        importScripts: ['/push-handler.js'],
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
        // table, the answer codecs, zod/mini, the JSX runtime, and React's core, which a lazy chunk
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
              test: /[\\/](src[\\/](domain[\\/](money|names|schedules|ledger|calendar-date|summary)|contract[\\/](common|ledger|expenses|deposits|codecs|errors|app-config))\.ts$|node_modules[\\/](zod[\\/]|react[\\/](index|jsx-runtime)|react[\\/]cjs[\\/]react(-jsx-runtime)?\.production))/,
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
