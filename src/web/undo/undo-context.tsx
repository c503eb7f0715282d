/**
 * Undo (issue 24): every write the server can undo answers a `Leftover-Undo` token; the api client
 * hands it here with what happened in words ("Paid Rent."), and the undo status offers it. The view
 * on screen says what to do with the answer of an undo (useUndone); without one, it loads afresh.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { UndoneAnswer } from '../api/api-client.js';
import { useLatestCallback } from '../components/use-latest-callback.js';

export type { UndoneAnswer };

export interface UndoOffer {
  /** Tells one offer from the next, even for the same words. */
  readonly id: number;
  readonly token: string;
  /** What happened, as a sentence: "Paid Rent.", "Deleted Phone.", "Imported 8 statement rows." */
  readonly message: string;
}

interface UndoState {
  readonly offer: UndoOffer | null;
  /** A write answered an undo token: offer it in place of any earlier one. */
  readonly offerUndo: (token: string, message: string) => void;
  /** The offer was taken or let go. */
  readonly withdraw: (id: number) => void;
  /** The view on screen takes the answer of an undo. */
  readonly undone: (answer: UndoneAnswer) => void;
  readonly setUndoneHandler: (handler: ((answer: UndoneAnswer) => void) | null) => void;
}

const UndoContext = createContext<UndoState | null>(null);

export function UndoProvider({ children, onUndoneWithoutView }: { children: ReactNode; onUndoneWithoutView: () => void }) {
  const [offer, setOffer] = useState<UndoOffer | null>(null);
  const nextId = useRef(1);
  const handler = useRef<((answer: UndoneAnswer) => void) | null>(null);
  const fallback = useLatestCallback(onUndoneWithoutView);
  const offerUndo = useCallback((token: string, message: string) => {
    const id = nextId.current;
    nextId.current += 1;
    setOffer({ id, token, message });
  }, []);
  const withdraw = useCallback((id: number) => setOffer((current) => (current?.id === id ? null : current)), []);
  const undone = useCallback(
    (answer: UndoneAnswer) => {
      if (handler.current) handler.current(answer);
      else fallback();
    },
    [fallback],
  );
  const setUndoneHandler = useCallback((next: ((answer: UndoneAnswer) => void) | null) => {
    handler.current = next;
  }, []);
  const state = useMemo(
    () => ({ offer, offerUndo, withdraw, undone, setUndoneHandler }),
    [offer, offerUndo, withdraw, undone, setUndoneHandler],
  );
  return <UndoContext.Provider value={state}>{children}</UndoContext.Provider>;
}

const NO_UNDO: UndoState = {
  offer: null,
  offerUndo: () => undefined,
  withdraw: () => undefined,
  undone: () => undefined,
  setUndoneHandler: () => undefined,
};

/** Outside an UndoProvider (a component test of one section) nothing is offered. */
export function useUndo(): UndoState {
  return useContext(UndoContext) ?? NO_UNDO;
}

/** The view on screen puts the answer of an undo in place (a ledger keeps its scroll and filter). */
export function useUndone(onUndone: (answer: UndoneAnswer) => void): void {
  const { setUndoneHandler } = useUndo();
  const handle = useLatestCallback(onUndone);
  useEffect(() => {
    setUndoneHandler(handle);
    return () => setUndoneHandler(null);
  }, [handle, setUndoneHandler]);
}
