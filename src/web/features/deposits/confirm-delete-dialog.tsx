import { useId, useState } from 'react';
import { Button, Modal } from 'react-bootstrap';

interface ConfirmDeleteDialogProps {
  readonly show: boolean;
  /** "Delete Deposit". */
  readonly title: string;
  /** What is deleted, as the user knows it: "the deposit". */
  readonly what: string;
  readonly name: string;
  /** Deletes; the caller closes the dialog when that worked and keeps it open when it did not. */
  readonly onConfirm: () => Promise<void>;
  readonly onClose: () => void;
}

/** Asks before deleting: a deletion cannot be undone. */
export function ConfirmDeleteDialog({ show, title, what, name, onConfirm, onClose }: ConfirmDeleteDialogProps) {
  const titleId = useId();
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
    <Modal show={show} onHide={onClose} centered aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId}>{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">
          Delete {what} <strong>{name}</strong>? This cannot be undone.
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
    </Modal>
  );
}
