/**
 * The test files that replace a module (vi.mock) or a browser global for the whole file (Path2D,
 * matchMedia): each needs its own module graph and window, or what it replaced leaks into the next
 * file. Every other file of the node, fuzz and web projects shares one graph per worker (vitest.config.ts),
 * and tests/docs/shared-module-graphs.test.ts fails on a vi.mock anywhere but here.
 */
export const FILES_THAT_REPLACE_MODULES = [
  'src/web/features/ledger/rows/ledger-rows-memo.test.tsx',
  'src/web/features/summary/forecast-chart/forecast-chart-view.test.tsx',
  'src/web/features/settings/settings-dialog.test.tsx',
  'src/web/features/summary/forecast-chart/balance-forecast-chart.test.tsx',
];
