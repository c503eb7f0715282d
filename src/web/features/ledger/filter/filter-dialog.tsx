/** "Filter By": which statuses the ledger shows. Each box applies at once; nothing is sent. */
import { useId } from 'react';
import { Form, Modal } from 'react-bootstrap';
import { ModalDialog } from '../../../components/modal-dialog.js';
import { type StatusFilter, STATUS_FILTER_OPTIONS, withStatusShown } from './status-filter.js';

interface FilterDialogProps {
  readonly show: boolean;
  readonly filter: StatusFilter;
  readonly onFilterChange: (filter: StatusFilter) => void;
  readonly onClose: () => void;
}

export function FilterDialog({ show, filter, onFilterChange, onClose }: FilterDialogProps) {
  const id = useId();
  return (
    <ModalDialog show={show} title="Filter By" onClose={onClose}>
      <Modal.Body>
        <Form.Group>
          {STATUS_FILTER_OPTIONS.map((option) => (
            <Form.Check
              key={option.key}
              id={`${id}-${option.key}`}
              type="checkbox"
              label={option.label}
              checked={filter[option.key]}
              onChange={(event) => onFilterChange(withStatusShown(filter, option.key, event.target.checked))}
            />
          ))}
          <Form.Text>Not Cleared shows the rows that are not paid yet.</Form.Text>
        </Form.Group>
      </Modal.Body>
    </ModalDialog>
  );
}
