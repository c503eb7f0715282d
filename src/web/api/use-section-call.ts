/**
 * Every call a section makes ends the same way: the answer replaces the section's info, or the
 * shell shows "Whoops!" and the dialog that asked keeps what the user typed, marked with the
 * server's field messages.
 */
import { useCallback } from 'react';
import type { AskCall, RunCall } from '../components/field-errors.js';
import { useLatestCallback } from '../components/use-latest-callback.js';
import { ApiCallError } from './api-client.js';

/** Stable for the section's lifetime, whatever the shell passes, so memoized rows need not render again. */
export function useSectionCall<Info>(onChange: (info: Info) => void, onError: (error: unknown) => void): RunCall<Info> {
  const handleChange = useLatestCallback(onChange);
  const handleError = useLatestCallback(onError);
  return useCallback(
    async (call) => {
      let answer: Info;
      try {
        answer = await call();
      } catch (error) {
        handleError(error);
        // Keyed like the payload's paths: 'name', or 'ledger.endDate' for a wrapped payload.
        return error instanceof ApiCallError ? error.fields : {};
      }
      handleChange(answer);
      return undefined;
    },
    [handleChange, handleError],
  );
}

/**
 * The same for a call whose answer the dialog itself shows (a statement's preview) rather than the
 * section: a failure still reaches the shell ("Whoops!"), and the dialog marks the server's fields.
 */
export function useSectionAsk(onError: (error: unknown) => void): AskCall {
  const handleError = useLatestCallback(onError);
  return useCallback(
    async <Answer>(call: () => Promise<Answer>) => {
      try {
        return { ok: true as const, answer: await call() };
      } catch (error) {
        handleError(error);
        return { ok: false as const, fields: error instanceof ApiCallError ? error.fields : {} };
      }
    },
    [handleError],
  );
}
