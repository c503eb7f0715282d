import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { everyViewLoaded } from './components/load-alongside.js';
import { dialogLoadsSettled } from './components/lazy-dialog.js';

// Dialogs load on demand and the five-year ledger renders 1,800 rows: on a busy 2-core CI
// machine that can take longer than the default 1 s that findBy and waitFor allow.
configure({ asyncUtilTimeout: 5000 });

// In the browser the rows' code loads while the ledger's request is on its way; a test hands the
// ledger over at once, so it waits for that code first, as a page that has loaded would have it.
beforeAll(() => everyViewLoaded());

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

// A dialog closed by the last test ends its fade on a timer (dom-helpers' transitionEnd, a few ms in
// jsdom): let it fire while the document still exists, or it throws into the next file's run. The
// page's test files share one module graph per worker, so a dialog's code still loading when a file
// ends would fail there and be remembered as failed by the next file: wait for those loads too.
afterAll(async () => {
  await new Promise<void>((resolve) => setTimeout(resolve, 50));
  await dialogLoadsSettled();
});
