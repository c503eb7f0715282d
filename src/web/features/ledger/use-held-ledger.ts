/**
 * The ledger the section holds, kept as of the last answer it took: a write's changes (decision
 * 0030) apply to it when they arrive, even when an earlier write's answer has not been drawn yet.
 * Should it ever lag, the changes name a version the page does not hold and the api client
 * reloads the whole ledger: never a wrong balance.
 */
import { useCallback, useLayoutEffect, useRef } from 'react';
import type { LedgerInfo } from '../../../contract/ledger.js';
import type { HeldLedger } from '../../api/api-client.js';
import { useSectionCall } from '../../api/use-section-call.js';
import type { RunCall } from '../../components/field-errors.js';

export function useHeldLedger(
  info: LedgerInfo | null,
  onChange: (info: LedgerInfo) => void,
  onError: (error: unknown) => void,
): { run: RunCall<LedgerInfo>; heldLedger: HeldLedger } {
  const held = useRef(info);
  // A ledger from the shell (a load, Refresh, a schedule change) replaces what the section held.
  useLayoutEffect(() => {
    held.current = info;
  }, [info]);
  const run = useSectionCall((answer: LedgerInfo) => {
    held.current = answer;
    onChange(answer);
  }, onError);
  const heldLedger = useCallback(() => held.current?.ledger ?? null, []);
  return { run, heldLedger };
}
