/** The "Your data" menu's items and the dialogs they open; loaded when the menu first opens. */
import { type RefObject, useEffect, useState } from 'react';
import { todayIn } from '../../../domain/calendar-date.js';
import { useApiClient } from '../../api/api-context.js';
import { Button } from '../../components/button.js';
import { saveDownload } from '../../components/save-download.js';
import { problemOf } from './account-problem.js';
import { DeleteDataDialog } from './delete-data-dialog.js';
import { RestoreDataDialog } from './restore-data-dialog.js';

interface YourDataPanelProps {
  readonly id: string;
  readonly open: boolean;
  /** The menu's button and panel: a click outside it closes the menu. */
  readonly within: RefObject<HTMLElement | null>;
  readonly onClose: () => void;
  readonly onDataReplaced: () => void;
}

export function YourDataPanel({ id, open, within, onClose, onDataReplaced }: YourDataPanelProps) {
  const api = useApiClient();
  const [dialog, setDialog] = useState<'restore' | 'delete' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  // Escape or a click elsewhere closes the menu, as people expect of one.
  useEffect(() => {
    if (!open) return undefined;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    const closeOnOutsideClick = (event: MouseEvent) => {
      if (event.target instanceof Node && !within.current?.contains(event.target)) onClose();
    };
    document.addEventListener('keydown', closeOnEscape);
    document.addEventListener('mousedown', closeOnOutsideClick);
    return () => {
      document.removeEventListener('keydown', closeOnEscape);
      document.removeEventListener('mousedown', closeOnOutsideClick);
    };
  }, [open, within, onClose]);

  async function download() {
    setProblem(null);
    try {
      // The browser's date only names the file; the document carries the server's exportedAt.
      saveDownload(await api.exportAccount(), `leftover-data-${todayIn(new Date())}.json`);
      onClose();
    } catch (error) {
      setProblem(problemOf(error));
    }
  }

  function openDialog(which: 'restore' | 'delete') {
    setProblem(null);
    onClose();
    setDialog(which);
  }

  function replaced() {
    setDialog(null);
    onDataReplaced();
  }

  return (
    <>
      {open && (
        <div id={id} className="your-data__menu card shadow" data-bs-theme="light">
          <div className="card-body d-grid gap-2">
            <Button variant="outline-primary" size="sm" onClick={() => void download()}>
              Download my data
            </Button>
            <Button variant="outline-primary" size="sm" onClick={() => openDialog('restore')}>
              Restore from file
            </Button>
            <Button variant="outline-danger" size="sm" onClick={() => openDialog('delete')}>
              Delete all my data
            </Button>
            {problem && (
              <p className="text-danger-emphasis small mb-0" role="alert">
                {problem}
              </p>
            )}
          </div>
        </div>
      )}
      <RestoreDataDialog show={dialog === 'restore'} onClose={() => setDialog(null)} onRestored={replaced} />
      <DeleteDataDialog show={dialog === 'delete'} onClose={() => setDialog(null)} onDeleted={replaced} />
    </>
  );
}
