import { useState } from 'react';
import { Button, Modal } from 'react-bootstrap';
import { ModalDialog } from './modal-dialog.js';

interface ConfirmDeleteDialogProps {
  readonly show: boolean;
  /** "Delete Deposit", "Delete Expense". */
  readonly title: string;
  /** What is deleted, as the user knows it: "the deposit", "the expense". */
  readonly what: string;
  readonly name: string;
  /** Deletes; the caller closes the dialog when that worked and keeps it open when it did not. */
  readonly onConfirm: () => Promise<void>;
  readonly onClose: () => void;
}

/** Asks before deleting: a deletion cannot be undone. */
export function ConfirmDeleteDialog({ show, title, what, name, onConfirm, onClose }: ConfirmDeleteDialogProps) {
  const [deleting, setDeleting] = useState(false);

  async function confirm() {
    setDeleting(true);
    try {
      await onConfirm();
    } finally {
      setDeleting(false);
    }
  }

  return (
    <ModalDialog show={show} title={title} onClose={onClose} centered>
      <Modal.Body>
        <p className="mb-0">
          Delete {what}{' '}
          <strong>
            <bdi>{name}</bdi>
          </strong>
          ? This cannot be undone.
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={deleting}>
          Delete
        </Button>
      </Modal.Footer>
    </ModalDialog>
  );
}
