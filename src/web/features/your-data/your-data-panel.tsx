/** The "Your data" menu's items and the dialogs they open; loaded when the menu first opens. */
import { type RefObject, useState } from 'react';
import { useMenuDismissal } from '../../components/use-menu-dismissal.js';
import { todayIn } from '../../../domain/calendar-date.js';
import { useYourDataApi } from '../../api/your-data-calls.js';
import { Button } from '../../components/button.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { saveDownload } from '../../components/save-download.js';
import { useDialogState } from '../../components/use-dialog-state.js';
import { problemOf } from './your-data-problem.js';
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
  const api = useYourDataApi();
  const restoring = useDialogState<null>(null);
  const deleting = useDialogState<null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useMenuDismissal(open, within, onClose);

  async function download() {
    setProblem(null);
    try {
      // The browser's date only names the file; the document carries the server's exportedAt.
      saveDownload(await api.exportYourData(), `leftover-data-${todayIn(new Date())}.json`);
      onClose();
    } catch (error) {
      setProblem(problemOf(error));
    }
  }

  function openDialog(dialog: typeof restoring) {
    setProblem(null);
    onClose();
    dialog.show(null);
  }

  /**
   * The menu sits beside "Sign out", outside the dashboard and its "Whoops!": a failed restore or
   * deletion is told in the dialog that asked, in the catalogue's words and the server's.
   */
  async function replaceData(call: () => Promise<unknown>): Promise<SaveOutcome> {
    try {
      await call();
    } catch (error) {
      return { form: problemOf(error) };
    }
    onDataReplaced();
    return undefined;
  }

  return (
    <>
      {open && (
        <div id={id} className="your-data__menu card shadow" data-bs-theme="light">
          <div className="card-body d-grid gap-2">
            <Button variant="outline-primary" size="sm" onClick={() => void download()}>
              Download my data
            </Button>
            <Button variant="outline-primary" size="sm" onClick={() => openDialog(restoring)}>
              Restore from file
            </Button>
            <Button variant="outline-danger" size="sm" onClick={() => openDialog(deleting)}>
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
      <RestoreDataDialog
        key={`restore-${restoring.session}`}
        show={restoring.open}
        onRestore={(document) => restoring.closeAfter(replaceData(() => api.restoreYourData(document)))}
        onClose={restoring.close}
      />
      <DeleteDataDialog
        key={`delete-${deleting.session}`}
        show={deleting.open}
        onDelete={() => deleting.closeAfter(replaceData(() => api.deleteYourData()))}
        onClose={deleting.close}
      />
    </>
  );
}
