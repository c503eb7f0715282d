/** Delete all my data (issue 15): gone for good, so the user types DELETE first. */
import { useId, useState } from 'react';
import { Alert, Button, Form, Modal } from 'react-bootstrap';
import { useApiClient } from '../../api/api-context.js';
import { ModalDialog } from '../../components/modal-dialog.js';
import { problemOf } from './account-problem.js';

const CONFIRMATION = 'DELETE';

interface DeleteDataDialogProps {
  readonly show: boolean;
  readonly onClose: () => void;
  readonly onDeleted: () => void;
}

export function DeleteDataDialog({ show, onClose, onDeleted }: DeleteDataDialogProps) {
  const api = useApiClient();
  const fieldId = useId();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  async function confirm() {
    setDeleting(true);
    setProblem(null);
    try {
      await api.deleteAccount();
      setTyped('');
      onDeleted();
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setDeleting(false);
    }
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
        {problem && (
          <Alert variant="danger" className="mt-3 mb-0">
            {problem}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void confirm()} disabled={typed !== CONFIRMATION || deleting}>
          Delete all my data
        </Button>
      </Modal.Footer>
    </ModalDialog>
  );
}
