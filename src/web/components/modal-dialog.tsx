import { type ReactNode, useId } from 'react';
import { Modal } from 'react-bootstrap';

interface ModalDialogProps {
  readonly show: boolean;
  /** Also the dialog's accessible name. */
  readonly title: string;
  /** Escape, the backdrop and the header's Close button all end up here. */
  readonly onClose: () => void;
  /** After the fade-out: a caller that keeps the content while the dialog fades lets go of it here. */
  readonly onExited?: () => void;
  readonly centered?: boolean;
  /** Wider than the default, for a table (the statement preview). */
  readonly size?: 'lg' | 'xl';
  /** The body and footer; they leave the page when the dialog has closed, so their state starts fresh. */
  readonly children: ReactNode;
}

/** Every dialog on the page: named by its title, closed by a header button labelled "Close". */
export function ModalDialog({ show, title, onClose, onExited, centered, size, children }: ModalDialogProps) {
  const titleId = useId();
  return (
    <Modal show={show} onHide={onClose} onExited={onExited} centered={centered} size={size} aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId}>{title}</Modal.Title>
      </Modal.Header>
      {children}
    </Modal>
  );
}
