import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// A port of this run's own, so a developer's server or another run on the machine never collides;
// workers inherit it through the environment, like the data folder below. Below 32,768, where Linux
// starts handing out ports of its own (ip_local_port_range): the API tests' servers and every client
// connection beside this run take theirs from there, and one on this port would answer for the app.
process.env.E2E_PORT ??= String(20_000 + (process.pid % 12_000));
const PORT = Number(process.env.E2E_PORT);
// The SMTP server the app mails through: shared-budgets.spec.ts listens there when it mails an
// invitation (decision 0105); nothing else sends mail, so no test needs it listening otherwise.
process.env.E2E_SMTP_PORT ??= String(PORT + 1);
/**
 * Debian's Chromium: nothing is downloaded here. Its headless shell runs the tests (Debian's
 * chromium-headless-shell, which .ci/run installs): the same Blink and V8 without the browser's own
 * windows and pages, so the same tests cost less CPU on a 2-core machine (decision 0083). The tests
 * tagged FULL_BROWSER need what only the browser has (showing a notification) and run in it. Where
 * only the browser is installed it runs them all; with neither, Playwright's own.
 */
const HEADLESS_SHELL = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file));
const FULL_CHROMIUM = fs.existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
const FULL_BROWSER = /@full-browser/;
// A fresh database and provider keys for every run: no test depends on a previous one.
const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

function chromiumProject(name: string, executablePath: string | undefined) {
  return {
    name,
    use: {
      ...devices['Desktop Chrome'],
      viewport: { width: 1280, height: 900 },
      launchOptions: {
        // Without the background-networking flags Chromium keeps dialing out on a machine with no network.
        executablePath,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      },
    },
  };
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'reports/playwright.json' }]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // As a person who asked their system for less motion: Bootstrap then skips its fades, slides and
    // smooth scrolling, which every dialog and scroll would otherwise wait out (decision 0083). The
    // accessibility tests keep the motion on: they judge colours once the fades have ended.
    contextOptions: { reducedMotion: 'reduce' },
    // No trace by default: recording one (a DOM snapshot and a screenshot at every step) made the
    // tests about 30% slower, and a CI run's traces are never opened. To see a failure step by step,
    // run the test again with `npx playwright test <file> --trace retain-on-failure` (decision 0116).
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { ...chromiumProject('chromium', HEADLESS_SHELL), grepInvert: FULL_BROWSER },
    { ...chromiumProject('chromium (full browser)', FULL_CHROMIUM), grep: FULL_BROWSER },
  ],
  webServer: {
    command: 'node dist/server/server/main.js',
    url: `http://localhost:${PORT}/app-config.json`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      HOST: 'localhost',
      NODE_ENV: 'test',
      DATABASE_URL: `sqlite:${path.join(dataDir, 'leftover.sqlite')}`,
      LOG_LEVEL: 'warn',
      OIDC_ISSUER: '',
      OIDC_CLIENT_ID: '',
      OIDC_AUDIENCE: '',
      // Bank sync's test (bank-connections.spec.ts) runs the SimpleFIN simulator on 127.0.0.1, which
      // the server reaches only with this (issue 37 item 2); no other test sends to a private address.
      NOTIFY_ALLOW_PRIVATE_URLS: 'true',
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
      MAIL_FROM: 'Leftover <leftover@example.com>',
    },
  },
});
