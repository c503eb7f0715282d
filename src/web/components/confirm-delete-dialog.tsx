import { Button, Modal } from 'react-bootstrap';
import type { SaveOutcome } from './field-errors.js';
import { ModalDialog } from './modal-dialog.js';
import { useDialogSubmit } from './use-dialog-submit.js';

interface ConfirmDeleteDialogProps {
  readonly show: boolean;
  /** "Delete Deposit", "Delete Expense". */
  readonly title: string;
  /** What is deleted, as the user knows it: "the deposit", "the expense". */
  readonly what: string;
  readonly name: string;
  /** Deletes; answers undefined when it worked and the caller closes the dialog, which stays open when it did not. */
  readonly onConfirm: () => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

/** Asks before deleting: a deletion cannot be undone. The section remounts it per opening (a changing key). */
export function ConfirmDeleteDialog({ show, title, what, name, onConfirm, onClose }: ConfirmDeleteDialogProps) {
  // A failure is told by the section ("Whoops!"): nothing here to mark, so only `sending` is used.
  const { sending, send } = useDialogSubmit();

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
        <Button variant="danger" onClick={() => void send(onConfirm)} disabled={sending}>
          Delete
        </Button>
      </Modal.Footer>
    </ModalDialog>
  );
}
