/**
 * The test files that replace a module (vi.mock) or a browser global for the whole file (Path2D,
 * matchMedia), or that needs the page's first paint still ahead (first-paint.ts keeps it for the
 * page's life): each needs its own module graph and window, or what it replaced leaks into the next
 * file. Every other file of the node and web projects shares one graph per worker (vitest.config.ts),
 * and tests/docs/shared-module-graphs.test.ts fails on a vi.mock anywhere but here.
 */
export const FILES_THAT_REPLACE_MODULES = [
  'src/web/features/ledger/rows/ledger-rows-memo.test.tsx',
  'src/web/features/summary/forecast-chart/forecast-chart-view.test.tsx',
  'src/web/features/settings/settings-dialog.test.tsx',
  'src/web/features/summary/forecast-chart/balance-forecast-chart.test.tsx',
  'src/web/features/ledger/window/first-paint-overscan.test.tsx',
];
