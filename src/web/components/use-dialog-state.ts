import { useCallback, useState } from 'react';
import type { SaveOutcome } from './field-errors.js';

interface DialogState<Target> {
  readonly open: boolean;
  /** What the dialog is about; kept after closing so the closing animation shows the same content. */
  readonly target: Target;
  /** Changes on every opening: used as a key so each opening starts from fresh form state. */
  readonly session: number;
}

export function useDialogState<Target>(initialTarget: Target) {
  const [state, setState] = useState<DialogState<Target>>({ open: false, target: initialTarget, session: 0 });
  const show = useCallback((target: Target) => setState((current) => ({ open: true, target, session: current.session + 1 })), []);
  const close = useCallback(() => setState((current) => ({ ...current, open: false })), []);
  /** Closes the dialog once its save has worked; a failed save leaves it open with what it should mark. */
  const closeAfter = useCallback(
    async (saving: Promise<SaveOutcome>): Promise<SaveOutcome> => {
      const outcome = await saving;
      if (outcome === undefined) close();
      return outcome;
    },
    [close],
  );
  return { ...state, show, close, closeAfter };
}
