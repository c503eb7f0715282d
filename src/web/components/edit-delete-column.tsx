/** The last column of the deposits and expenses tables: each row's Edit and Delete buttons. */
import { Button } from './button.js';

/** The column has no visible heading; screen readers still hear what it holds. */
export function EditDeleteHeader() {
  return (
    <th scope="col">
      <span className="visually-hidden">Actions</span>
    </th>
  );
}

interface EditDeleteCellProps {
  /** The row's name as the user knows it. */
  readonly name: string;
  readonly onEdit: () => void;
  readonly onDelete: () => void;
}

export function EditDeleteCell({ name, onEdit, onDelete }: EditDeleteCellProps) {
  return (
    <td className="text-nowrap">
      {/* The name in the label tells the buttons of different rows apart for screen readers. */}
      <Button size="sm" variant="outline-primary" className="me-2" aria-label={`Edit ${name}`} onClick={onEdit}>
        Edit
      </Button>
      <Button size="sm" variant="outline-danger" aria-label={`Delete ${name}`} onClick={onDelete}>
        Delete
      </Button>
    </td>
  );
}
