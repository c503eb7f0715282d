/**
 * A function that keeps one identity for the component's lifetime and always calls the latest
 * `callback`. The ledger's 1,800 memoized rows hold their action handlers, so a parent passing a
 * fresh arrow function on each render must not make every row render again.
 */
import { useCallback, useLayoutEffect, useRef } from 'react';

export function useLatestCallback<Args extends unknown[], Result>(callback: (...args: Args) => Result): (...args: Args) => Result {
  const latest = useRef(callback);
  // Updated after render, never during it; handlers only run after the commit anyway.
  useLayoutEffect(() => {
    latest.current = callback;
  });
  return useCallback((...args: Args) => latest.current(...args), []);
}
