/**
 * The add/edit and delete dialogs of a list section (deposits, expenses) and the calls behind them.
 * A call that works hands the server's answer to the shell and closes its dialog; one that fails
 * is reported to the shell ("Whoops!") and leaves the dialog open with what the user typed.
 */
import type { RunCall, SaveOutcome } from './field-errors.js';
import { useDialogState } from './use-dialog-state.js';

interface ListCalls<Input, Info> {
  readonly add: (input: Input) => Promise<Info>;
  readonly update: (id: string, input: Input) => Promise<Info>;
  readonly remove: (id: string, name: string) => Promise<Info>;
}

/**
 * A deletion that asks first: `deletion.show(item)` opens the question, and `confirmDelete`
 * deletes the item it asked about, closing the dialog once that worked (answered as a save is, for
 * the dialog's `useDialogSubmit`). Key the dialog with `deletion.session`: each opening starts fresh.
 */
/** `remove` is told the item's name too: the undo status says "Deleted Phone." */
export function useDeletionDialog<Item extends { readonly id: string; readonly name: string }, Info>(
  remove: (id: string, name: string) => Promise<Info>,
  run: RunCall<Info>,
) {
  const deletion = useDialogState<Item | null>(null);

  async function confirmDelete(): Promise<SaveOutcome> {
    const deleted = deletion.target;
    // Never opened about anything: nothing deleted, nothing to mark.
    return deleted ? deletion.closeAfter(run(() => remove(deleted.id, deleted.name))) : {};
  }

  return { deletion, confirmDelete };
}

export function useEditDeleteDialogs<Item extends { readonly id: string; readonly name: string }, Input, Info>(
  calls: ListCalls<Input, Info>,
  run: RunCall<Info>,
) {
  /** The item being edited, or null while adding one. */
  const editor = useDialogState<Item | null>(null);
  const { deletion, confirmDelete } = useDeletionDialog<Item, Info>(calls.remove, run);

  /** Adds or updates; answers the server's field messages for the dialog to show. */
  function save(input: Input): Promise<SaveOutcome> {
    const edited = editor.target;
    return editor.closeAfter(run(() => (edited ? calls.update(edited.id, input) : calls.add(input))));
  }

  return { editor, deletion, save, confirmDelete };
}
