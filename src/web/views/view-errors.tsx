/**
 * "Whoops!" for a view: every failed call of the view is named in one modal, RETRY loads the
 * view's data again and ABORT closes it (PRODUCT.md section 6). Each view owns its loading.
 */
import { useCallback, useState } from 'react';
import { lazyDialog } from '../components/lazy-dialog.js';
import type { ViewFailures } from './view-failures.js';

// "Whoops!" is rare: its modal code, which puts the failures in words, loads when the browser is
// idle, not with the first view (benchmark 4a, decision 0048).
// Props: `report`, what failed; `onClose`; `onRetry`, which loads the view's data again.
export const ViewErrorModal = lazyDialog(
  () => import('./view-error-report.js').then((module) => module.ViewErrorModal),
  (props) => props.report !== null,
);

/** The view's failures, a way to show one failure or several, and a way to clear them. */
export function useErrorReport() {
  const [report, setReport] = useState<ViewFailures | null>(null);
  const showErrors = useCallback(
    (errors: readonly unknown[]) => setReport(errors.length > 0 ? { errors, browserOffline: !navigator.onLine } : null),
    [],
  );
  const showError = useCallback((error: unknown) => setReport({ errors: [error], browserOffline: !navigator.onLine }), []);
  const clear = useCallback(() => setReport(null), []);
  return { report, showErrors, showError, clear };
}

/** Each settled call's value, or null; the failures go to `failed`. */
export function settledValues<T extends readonly unknown[]>(
  results: { [K in keyof T]: PromiseSettledResult<T[K]> },
  failed: unknown[],
): { [K in keyof T]: T[K] | null } {
  return results.map((result) => {
    if (result.status === 'fulfilled') return result.value;
    failed.push(result.reason);
    return null;
  }) as { [K in keyof T]: T[K] | null };
}
