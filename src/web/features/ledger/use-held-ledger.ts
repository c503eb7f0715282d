/**
 * The ledger the section holds, kept as of the last answer it took: a write's changes (decision
 * 0030) apply to it when they arrive, even when an earlier write's answer has not been drawn yet.
 * Should it ever lag, the changes name a version the page does not hold and the api client
 * reloads the whole ledger: never a wrong balance. What the section shows is that ledger with the
 * status moves still on their way painted over it (issue 24): a Pay or a Clear shows at once, and
 * the held ledger stays what the server said, for the changes to apply to and a refusal to go back to.
 */
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TransactionStatus } from '../../../domain/ledger.js';
import type { HeldLedger, HeldLedgerInfo } from '../../api/api-client.js';
import { LedgerReloadError } from '../../api/ledger-reload-error.js';
import { useSectionCall } from '../../api/use-section-call.js';
import type { RunCall } from '../../components/field-errors.js';
import { useLatestCallback } from '../../components/use-latest-callback.js';

/** Paints status moves over a ledger the section holds (api/status-moves.ts, which the first view does not load). */
export type PaintMoves = (info: HeldLedgerInfo, moves: ReadonlyMap<string, TransactionStatus>) => HeldLedgerInfo;

export interface LedgerWrites {
  /** Sends a write of the ledger; its answer is held, and shown with the moves still on their way. */
  readonly run: RunCall<HeldLedgerInfo>;
  /** The ledger (or window of it, decision 0053) as of the last answer, never a painted one: what a write's changes apply to. */
  readonly heldLedger: HeldLedger;
  /** The status moves on their way, by row id. */
  readonly moves: Map<string, TransactionStatus>;
  /** Shows the held ledger with `moves` painted over it, with `paint` from now on. */
  readonly repaint: (paint?: PaintMoves) => void;
}

export function useHeldLedger(
  info: HeldLedgerInfo | null,
  onChange: (info: HeldLedgerInfo) => void,
  onError: (error: unknown) => void,
): LedgerWrites {
  const held = useRef(info);
  /** What the section last handed the shell, painted or not. */
  const shown = useRef(info);
  const painter = useRef<PaintMoves>(undefined);
  const [moves] = useState(() => new Map<string, TransactionStatus>());
  const show = useLatestCallback(onChange);
  const repaint = useCallback(
    (paint?: PaintMoves) => {
      painter.current = paint ?? painter.current;
      const base = held.current;
      const next = base && painter.current ? painter.current(base, moves) : base;
      if (next && next !== shown.current) show((shown.current = next));
    },
    [moves, show],
  );
  // A ledger from the shell (a load, Refresh, a schedule change) replaces what the section held;
  // the one the section just handed it does not.
  useLayoutEffect(() => {
    if (info === shown.current) return;
    held.current = shown.current = info;
    repaint();
  }, [info, repaint]);
  const settle = useSectionCall((answer: HeldLedgerInfo) => {
    held.current = answer;
    // Every answer taken is handed to the shell, even the ledger it already shows.
    shown.current = null;
    repaint();
  }, onError);
  const report = useLatestCallback(onError);
  const run = useCallback<RunCall<HeldLedgerInfo>>(
    (call) =>
      settle(async () => {
        try {
          return await call();
        } catch (error) {
          // The write went through and only the reload after it failed: the dialog closes, since
          // sending it again would write it twice, and the shell says the ledger did not load.
          const kept = held.current;
          if (!(error instanceof LedgerReloadError) || kept === null) throw error;
          report(error);
          return kept;
        }
      }),
    [settle, report],
  );
  const heldLedger = useCallback(() => {
    const current = held.current;
    return current === null ? null : 'window' in current ? current.window : current.ledger;
  }, []);
  return useMemo(() => ({ run, heldLedger, moves, repaint }), [run, heldLedger, moves, repaint]);
}
