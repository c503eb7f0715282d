import { useCallback, useState } from 'react';

export interface DialogState<Target> {
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
  return { ...state, show, close };
}
