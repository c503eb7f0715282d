/**
 * "Whoops!" for a view, in words: every failed call of the view named once, with what the server
 * or the network said (PRODUCT.md section 6). Loaded with the modal, not with the first view.
 */
import { ApiCallError } from '../api/api-client.js';
import { ErrorModal, type ErrorReport } from '../components/error-modal.js';
import type { ViewFailures } from './view-failures.js';

export function reportOf({ errors, browserOffline }: ViewFailures): ErrorReport {
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
  // No answer at all while the browser knew it had no network: say so plainly (decision 0026).
  const offline = browserOffline && errors.some((error) => error instanceof ApiCallError && error.status === 0);
  return { messages: [...new Set(messages)], details: [...new Set(details)], offline };
}

interface ViewErrorModalProps {
  readonly report: ViewFailures | null;
  readonly onClose: () => void;
  /** Loads the view's data again. */
  readonly onRetry: () => void;
}

export function ViewErrorModal({ report, onClose, onRetry }: ViewErrorModalProps) {
  return (
    <ErrorModal
      report={report && reportOf(report)}
      onAbort={onClose}
      onRetry={() => {
        onClose();
        onRetry();
      }}
    />
  );
}
