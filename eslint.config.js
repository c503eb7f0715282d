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
 * The layers' promises, enforced (README, Architecture): the domain imports nothing of ours, the
 * contract only the domain, server and page never each other, the rest of the server only the
 * ledger's face, shared page components neither the api client nor a feature, and no feature
 * another feature.
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
