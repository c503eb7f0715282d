import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'src/web',
  publicDir: false,
  plugins: [react()],
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
    },
    sourcemap: true,
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
