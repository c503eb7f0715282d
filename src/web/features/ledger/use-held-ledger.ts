/**
 * The ledger the section holds, kept as of the last answer it took: a write's changes (decision
 * 0030) apply to it when they arrive, even when an earlier write's answer has not been drawn yet.
 * Should it ever lag, the changes name a version the page does not hold and the api client
 * reloads the whole ledger: never a wrong balance.
 */
import { useCallback, useLayoutEffect, useRef } from 'react';
import type { LedgerInfoView } from '../../../contract/codecs.js';
import { type HeldLedger, LedgerReloadError } from '../../api/api-client.js';
import { useSectionCall } from '../../api/use-section-call.js';
import type { RunCall } from '../../components/field-errors.js';
import { useLatestCallback } from '../../components/use-latest-callback.js';

export function useHeldLedger(
  info: LedgerInfoView | null,
  onChange: (info: LedgerInfoView) => void,
  onError: (error: unknown) => void,
): { run: RunCall<LedgerInfoView>; heldLedger: HeldLedger } {
  const held = useRef(info);
  // A ledger from the shell (a load, Refresh, a schedule change) replaces what the section held.
  useLayoutEffect(() => {
    held.current = info;
  }, [info]);
  const settle = useSectionCall((answer: LedgerInfoView) => {
    held.current = answer;
    onChange(answer);
  }, onError);
  const report = useLatestCallback(onError);
  const run = useCallback<RunCall<LedgerInfoView>>(
    (call) =>
      settle(async () => {
        try {
          return await call();
        } catch (error) {
          // The write went through and only the reload after it failed: the dialog closes, since
          // sending it again would write it twice, and the shell says the ledger did not load.
          const shown = held.current;
          if (!(error instanceof LedgerReloadError) || shown === null) throw error;
          report(error);
          return shown;
        }
      }),
    [settle, report],
  );
  const heldLedger = useCallback(() => held.current?.ledger ?? null, []);
  return { run, heldLedger };
}
