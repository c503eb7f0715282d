/**
 * How every dialog sends (decisions 0017 and 0032): the section's call, handed over as a prop, runs
 * while the dialog's buttons are disabled; the fields its failure names are marked, and the section
 * has already reported the rest ("Whoops!", or the account menu's own words).
 */
import { useRef, useState } from 'react';
import { type AskOutcome, type FieldErrors, type SaveOutcome, withoutPrefix } from './field-errors.js';

export interface DialogSubmit {
  /** True while a call is on its way, and while the dialog closes after a save worked. */
  readonly sending: boolean;
  /** The fields to mark, keyed by the form's field names. */
  readonly errors: FieldErrors;
  /** Marks what the dialog finds before anything is sent (its own checks), or clears the marks. */
  readonly setErrors: (errors: FieldErrors) => void;
  /** Sends a save or a deletion; a failure marks the fields it names, one that worked leaves `sending` on. */
  readonly send: (save: () => Promise<SaveOutcome>) => Promise<void>;
  /**
   * Sends a call whose answer the dialog shows (a preview). A failure marks the fields it names;
   * null when a later call or `drop` has replaced it, and the dialog has nothing left to do.
   */
  readonly ask: <Answer>(call: () => Promise<AskOutcome<Answer>>) => Promise<AskOutcome<Answer> | null>;
  /** Forgets the call on its way (the user chose another file): its answer will be dropped. */
  readonly drop: () => void;
}

/** `errorPrefix`: what the payload's paths put before the form's field names ('ledger.'). */
export function useDialogSubmit(errorPrefix = ''): DialogSubmit {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sending, setSending] = useState(false);
  /** Counts calls: only the latest one's answer is shown. */
  const latestCall = useRef(0);

  function drop() {
    latestCall.current += 1;
    setSending(false);
  }

  async function send(save: () => Promise<SaveOutcome>) {
    const call = ++latestCall.current;
    setSending(true);
    const outcome = await save();
    // It worked: the buttons stay disabled while the dialog fades out.
    if (call !== latestCall.current || outcome === undefined) return;
    setErrors(withoutPrefix(outcome, errorPrefix));
    setSending(false);
  }

  async function ask<Answer>(request: () => Promise<AskOutcome<Answer>>): Promise<AskOutcome<Answer> | null> {
    const call = ++latestCall.current;
    setSending(true);
    const outcome = await request();
    if (call !== latestCall.current) return null;
    setSending(false);
    if (!outcome.ok) setErrors(withoutPrefix(outcome.fields, errorPrefix));
    return outcome;
  }

  return { sending, errors, setErrors, send, ask, drop };
}
