import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Dialogs load on demand and the five-year ledger renders 1,800 rows: on a busy 2-core CI
// machine that can take longer than the default 1 s that findBy and waitFor allow.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
