import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

interface BusyCounter {
  readonly start: () => void;
  readonly end: () => void;
}

const BusyContext = createContext<BusyCounter | null>(null);

/** Counts requests in flight; the overlay shows while any runs. */
export function BusyProvider({ children }: { children: ReactNode }) {
  const [inFlight, setInFlight] = useState(0);
  const start = useCallback(() => setInFlight((count) => count + 1), []);
  const end = useCallback(() => setInFlight((count) => Math.max(0, count - 1)), []);
  const counter = useMemo(() => ({ start, end }), [start, end]);
  return (
    <BusyContext.Provider value={counter}>
      {children}
      <SpinnerOverlay visible={inFlight > 0} />
    </BusyContext.Provider>
  );
}

export function useBusyCounter(): BusyCounter {
  const counter = useContext(BusyContext);
  if (!counter) throw new Error('useBusyCounter needs a BusyProvider');
  return counter;
}

/** The full-screen green spinner, announced to screen readers while it shows. */
export function SpinnerOverlay({ visible }: { visible: boolean }) {
  return (
    <div role="status" aria-live="polite" className={visible ? 'spinner-overlay' : 'visually-hidden'}>
      {visible ? (
        <>
          <div className="spinner-border text-success spinner-overlay__spinner" aria-hidden="true" />
          <span className="visually-hidden">Loading…</span>
        </>
      ) : null}
    </div>
  );
}
