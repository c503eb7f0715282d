/**
 * The add/edit and delete dialogs of a list section (deposits, expenses) and the calls behind them.
 * A call that works hands the server's answer to the shell and closes its dialog; one that fails
 * is reported to the shell ("Whoops!") and leaves the dialog open with what the user typed.
 */
import { type FieldErrors, serverFieldErrors } from './field-errors.js';
import { useDialogState } from './use-dialog-state.js';

export interface ListCalls<Input, Info> {
  readonly add: (input: Input) => Promise<Info>;
  readonly update: (id: string, input: Input) => Promise<Info>;
  readonly remove: (id: string) => Promise<Info>;
}

export function useEditDeleteDialogs<Item extends { readonly id: string }, Input, Info>(
  calls: ListCalls<Input, Info>,
  onChange: (info: Info) => void,
  onError: (error: unknown) => void,
) {
  /** The item being edited, or null while adding one. */
  const editor = useDialogState<Item | null>(null);
  const deletion = useDialogState<Item | null>(null);

  /** Adds or updates; answers the server's field messages for the dialog to show. */
  async function save(input: Input): Promise<FieldErrors> {
    try {
      onChange(editor.target ? await calls.update(editor.target.id, input) : await calls.add(input));
      editor.close();
      return {};
    } catch (error) {
      onError(error);
      return serverFieldErrors(error);
    }
  }

  async function confirmDelete(): Promise<void> {
    if (!deletion.target) return;
    try {
      onChange(await calls.remove(deletion.target.id));
      deletion.close();
    } catch (error) {
      onError(error);
    }
  }

  return { editor, deletion, save, confirmDelete };
}
