import fs from 'node:fs';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = fs
  .readdirSync('src/web/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The server's layers, named by their files (decision 0035): routes.ts are routes (HTTP in and
 * out); *-service.ts and *-writes.ts are services (the work, one transaction each); the modules
 * below own tables and run their SQL. The HTTP edge (src/server/http) serves every route.
 */
const SERVER_ROUTES = './src/server/**/routes.ts';
const SERVER_SERVICES = ['./src/server/**/*-service.ts', './src/server/**/*-writes.ts'];
const SERVER_STORES = [
  './src/server/**/*-repository.ts',
  './src/server/**/*-store.ts',
  './src/server/**/*-record.ts',
  './src/server/**/*-reads.ts',
  './src/server/**/*-rows.ts',
  // The ledger's other table modules, and the schedules' reader the ledger is handed (one glob:
  // eslint-plugin-import takes a zone's `from` as all globs or all folders).
  './src/server/{ledger/row-insert,ledger/skipped-occurrences,ledger/ledger-data}.ts',
];
/**
 * Every folder of src/server but the edge itself and the token check it runs: resources, their
 * storage, the database, the workers. The HTTP edge imports none of them.
 */
const SERVER_RESOURCES = fs
  .readdirSync('src/server', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !['http', 'auth'].includes(entry.name))
  .map((entry) => `./src/server/${entry.name}`);

/**
 * The layers' promises, enforced (README, Architecture): the domain imports nothing of ours, the
 * contract only the domain, server and page never each other, the rest of the server only the
 * ledger's face, inside the server routes -> services -> stores, shared page components neither
 * the api client nor a feature, and no feature another feature.
 */
const BOUNDARIES = [
  { target: './src/domain', from: './src', except: ['./domain'], message: 'The domain is pure: it imports nothing of ours.' },
  { target: './src/contract', from: './src', except: ['./domain', './contract'], message: 'The contract imports only the domain.' },
  { target: './src/server', from: './src/web', message: 'Server code never imports page code.' },
  { target: './src/web', from: './src/server', message: 'Page code never imports server code.' },
  {
    target: './src/web/components',
    from: ['./src/web/api', './src/web/features'],
    message: 'Shared components take what they need as props: they never import the api client or a feature.',
  },
  {
    // Every server file but the ledger's own: the folder itself and below, and the files beside it (app.ts).
    target: ['./src/server/!(ledger)/**', './src/server/*.ts'],
    from: './src/server/ledger',
    except: ['./index.ts', './routes.ts'],
    message:
      'Outside src/server/ledger, import only its face (ledger/index.ts; routes.ts for the app): its tables are its own (decision 0033).',
  },
  {
    target: SERVER_ROUTES,
    from: SERVER_STORES,
    message:
      'A route never reads or writes a table itself: it calls a service (or the ledger face, src/server/ledger/index.ts), and uses payloads and src/server/http (decision 0035).',
  },
  {
    target: SERVER_STORES,
    from: [SERVER_ROUTES, ...SERVER_SERVICES, './src/server/http/**'],
    message: 'A store owns tables and knows no caller: it never imports a service, a route or the HTTP edge (decision 0035).',
  },
  {
    // routes.ts files are registered by app.ts alone (they sit in folders; app.ts beside them).
    target: './src/server/*/**',
    from: [SERVER_ROUTES],
    message: 'Only src/server/app.ts imports a routes.ts: it registers every route (decision 0035).',
  },
  {
    target: './src/server/http',
    from: SERVER_RESOURCES,
    message:
      'The HTTP edge (src/server/http) serves every route and knows none: it imports no resource, service, store or database module (decision 0035).',
  },
  {
    target: ['./src/server/!(ledger|db)/**', './src/server/*.ts'],
    from: './src/server/db/ledger-tables.ts',
    message: "Only src/server/ledger reaches the ledger's tables: everywhere else the database handle has none of them (issue 33).",
  },
  {
    target: './src/server/ledger',
    from: ['./src/server/deposits', './src/server/expenses'],
    message:
      'The ledger is handed its schedules (a ScheduleReader, passed in by app.ts and the services): it never imports deposits or expenses (decisions 0033, 0035).',
  },
  ...FEATURES.map((feature) => ({
    target: `./src/web/features/${feature}`,
    from: './src/web/features',
    except: [`./${feature}`, './section-props.ts'],
    message: 'A feature never imports another feature: the app shell composes them.',
  })),
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', '.scratch/', 'data/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { import: importPlugin },
    // The TypeScript resolver finds the .ts file behind each './x.js' import.
    settings: { 'import/resolver': { typescript: { project: './tsconfig.json' } } },
    rules: {
      'import/no-restricted-paths': ['error', { zones: BOUNDARIES }],
      // A cycle between modules is a boundary drawn in the wrong place.
      'import/no-cycle': 'error',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['scripts/**', 'bench/**', 'tests/**'],
    rules: { 'no-console': 'off' },
  },
);
