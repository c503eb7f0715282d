/**
 * "Whoops!" for a view: every failed call of the view is named in one modal, RETRY loads the
 * view's data again and ABORT closes it (PRODUCT.md section 6). Each view owns its loading.
 */
import { useCallback, useState } from 'react';
import { ApiCallError } from '../api/api-client.js';
import type { ErrorReport } from '../components/error-modal.js';
import { lazyDialog } from '../components/lazy-dialog.js';

// "Whoops!" is rare: its modal code loads when the browser is idle, not with the first view.
const ErrorModal = lazyDialog(
  () => import('../components/error-modal.js').then((module) => module.ErrorModal),
  (props) => props.report !== null,
);

export function reportOf(errors: readonly unknown[]): ErrorReport {
  const messages: string[] = [];
  const details: string[] = [];
  for (const error of errors) {
    if (error instanceof ApiCallError) {
      messages.push(error.message);
      details.push(error.detail);
    } else {
      messages.push('Something went wrong.');
      details.push(error instanceof Error ? error.message : String(error));
    }
  }
  // No answer at all while the browser knows it has no network: say so plainly (decision 0026).
  const offline = !navigator.onLine && errors.some((error) => error instanceof ApiCallError && error.status === 0);
  return { messages: [...new Set(messages)], details: [...new Set(details)], offline };
}

/** The view's report, a way to show one failure or several, and a way to clear it. */
export function useErrorReport() {
  const [report, setReport] = useState<ErrorReport | null>(null);
  const showErrors = useCallback((errors: readonly unknown[]) => setReport(errors.length > 0 ? reportOf(errors) : null), []);
  const showError = useCallback((error: unknown) => setReport(reportOf([error])), []);
  const clear = useCallback(() => setReport(null), []);
  return { report, showErrors, showError, clear };
}

interface ViewErrorModalProps {
  readonly report: ErrorReport | null;
  readonly onClose: () => void;
  /** Loads the view's data again. */
  readonly onRetry: () => void;
}

export function ViewErrorModal({ report, onClose, onRetry }: ViewErrorModalProps) {
  return (
    <ErrorModal
      report={report}
      onAbort={onClose}
      onRetry={() => {
        onClose();
        onRetry();
      }}
    />
  );
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
