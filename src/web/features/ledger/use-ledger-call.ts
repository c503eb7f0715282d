/**
 * Every ledger call ends the same way: the answer replaces the ledger, or the shell shows
 * "Whoops!" and the caller keeps what the user typed, marked with the server's field messages.
 */
import { useCallback } from 'react';
import type { LedgerInfo } from '../../../contract/ledger.js';
import { type FieldErrors, serverFieldErrors } from '../../components/field-errors.js';
import { useLatestCallback } from './use-latest-callback.js';

export type LedgerCallOutcome = { readonly ok: true } | { readonly ok: false; readonly fields: FieldErrors };
export type RunLedgerCall = (call: () => Promise<LedgerInfo>) => Promise<LedgerCallOutcome>;

/** Stable for the section's lifetime, whatever the shell passes, so rows need not render again. */
export function useLedgerCall(onChange: (info: LedgerInfo) => void, onError: (error: unknown) => void): RunLedgerCall {
  const handleChange = useLatestCallback(onChange);
  const handleError = useLatestCallback(onError);
  return useCallback(
    async (call) => {
      let answer: LedgerInfo;
      try {
        answer = await call();
      } catch (error) {
        handleError(error);
        return { ok: false, fields: serverFieldErrors(error) };
      }
      handleChange(answer);
      return { ok: true };
    },
    [handleChange, handleError],
  );
}
