/** Delete all my data (issue 15): gone for good, so the user types DELETE first. */
import { useId, useState } from 'react';
import { Alert, Button, Form, Modal } from 'react-bootstrap';
import type { SaveOutcome } from '../../components/field-errors.js';
import { ModalDialog } from '../../components/modal-dialog.js';
import { useDialogSubmit } from '../../components/use-dialog-submit.js';

const CONFIRMATION = 'DELETE';

interface DeleteDataDialogProps {
  readonly show: boolean;
  /** Deletes everything; answers undefined when it worked and the panel closes the dialog, else what to say. */
  readonly onDelete: () => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

/** The panel remounts it per opening, so it always opens with nothing typed. */
export function DeleteDataDialog({ show, onDelete, onClose }: DeleteDataDialogProps) {
  const fieldId = useId();
  const [typed, setTyped] = useState('');
  const { sending, errors, setErrors, send } = useDialogSubmit();

  async function confirm() {
    setErrors({});
    await send(onDelete);
  }

  return (
    <ModalDialog show={show} title="Delete All My Data" onClose={onClose} centered>
      <Modal.Body>
        <p>
          This deletes all your deposits, your expenses and your ledger, for good. &quot;Download my data&quot; first if you may want them
          back.
        </p>
        <Form.Group controlId={fieldId}>
          <Form.Label>Type {CONFIRMATION} to confirm</Form.Label>
          <Form.Control type="text" autoComplete="off" value={typed} onChange={(event) => setTyped(event.target.value)} />
        </Form.Group>
        {errors.form && (
          <Alert variant="danger" className="mt-3 mb-0">
            {errors.form}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={typed !== CONFIRMATION || sending}>
          Delete all my data
        </Button>
      </Modal.Footer>
    </ModalDialog>
  );
}
