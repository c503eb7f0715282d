/**
 * What the views take of the live changes (decision 0096): the budget's listeners and the last
 * change's words, and the hook a view reads again by. A module of its own, apart from the provider
 * that opens the stream: every view's chunk imports this, and when they imported the provider (with
 * the sign-in session and the stream's types behind it) the bundler split the first script into
 * six files instead of three (benchmark 4a).
 */
import { createContext, useContext, useEffect } from 'react';
import { useLatestCallback } from '../components/use-latest-callback.js';

export interface LiveState {
  readonly listeners: Set<() => void>;
  /** What the last change said, and how many changes said something (so the same words are said again). */
  readonly status: { readonly text: string; readonly count: number } | null;
}

export const LiveContext = createContext<LiveState>({ listeners: new Set(), status: null });

/** Calls `onChange` when another member changed the budget in view: the view reads again what it shows. */
export function useLiveChanges(onChange: () => void): void {
  const { listeners } = useContext(LiveContext);
  const latest = useLatestCallback(onChange);
  useEffect(() => {
    listeners.add(latest);
    return () => {
      listeners.delete(latest);
    };
  }, [listeners, latest]);
}
