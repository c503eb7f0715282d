import { useEffect } from 'react';
import { Button, Modal } from 'react-bootstrap';
import { ModalDialog } from './modal-dialog.js';

export interface ErrorReport {
  /** The catalogue's messages ("Failed to get ledger!"), one per failed call. */
  readonly messages: readonly string[];
  /** What the server or the network said. */
  readonly details: readonly string[];
  /** A call got no answer while the browser has no network. */
  readonly offline?: boolean;
}

export const OFFLINE_MESSAGE = 'You are offline. Leftover will load your data again when you are back online.';

interface ErrorModalProps {
  readonly report: ErrorReport | null;
  readonly onAbort: () => void;
  readonly onRetry: () => void;
}

/**
 * "Whoops!": what failed and why; RETRY reloads everything, ABORT just closes. Offline it says so
 * instead, and reloads everything by itself once the browser is back online.
 */
export function ErrorModal({ report, onAbort, onRetry }: ErrorModalProps) {
  const offline = report?.offline === true;
  useEffect(() => {
    if (!offline) return undefined;
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [offline, onRetry]);
  return (
    <ModalDialog show={report !== null} title="Whoops!" onClose={onAbort} centered>
      <Modal.Body className="d-flex gap-3 align-items-start">
        <svg className="error-modal__face" viewBox="0 0 64 64" width="48" height="48" aria-hidden="true" focusable="false">
          <circle cx="32" cy="32" r="29" fill="none" stroke="currentColor" strokeWidth="4" />
          <circle cx="22" cy="25" r="4" fill="currentColor" />
          <circle cx="42" cy="25" r="4" fill="currentColor" />
          <path d="M20 47 Q32 36 44 47" fill="none" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
        </svg>
        {offline ? (
          <p className="fw-bold mb-0" role="status">
            {OFFLINE_MESSAGE}
          </p>
        ) : (
          <div>
            {report?.messages.map((message) => (
              <p key={message} className="fw-bold mb-1">
                {message}
              </p>
            ))}
            {report?.details.map((detail) => (
              <p key={detail} className="mb-1">
                {detail}
              </p>
            ))}
          </div>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onAbort}>
          ABORT
        </Button>
        <Button variant="success" onClick={onRetry}>
          RETRY
        </Button>
      </Modal.Footer>
    </ModalDialog>
  );
}
