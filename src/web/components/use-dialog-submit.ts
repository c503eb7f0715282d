/**
 * How every dialog and form sends (decisions 0017, 0032 and 0062): the section's call, handed over
 * as a prop, runs while the form's buttons are disabled; the fields its failure names are marked,
 * and the section has already reported the rest ("Whoops!", or the account menu's and Settings'
 * own words). useSchemaForm, below, checks a form's values with the contract before they go.
 */
import { type Dispatch, type RefObject, type SetStateAction, useEffect, useRef, useState } from 'react';
import type * as z from 'zod/mini';
import { type AskOutcome, checkForm, type FieldErrors, type SaveOutcome, withoutPrefix } from './field-errors.js';

export interface DialogSubmit {
  /**
   * True while a call is on its way, and while the dialog closes after a save worked (a form that
   * stays on the screen, `staysOpen`, takes its buttons back once the save worked).
   */
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

interface DialogSubmitOptions {
  /** A form that is not closed when its save worked (Settings' sections): it can send again at once. */
  readonly staysOpen?: boolean;
}

/** `errorPrefix`: what the payload's paths put before the form's field names ('ledger.'). */
export function useDialogSubmit(errorPrefix = '', { staysOpen = false }: DialogSubmitOptions = {}): DialogSubmit {
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
    if (call !== latestCall.current) return;
    // It worked: a dialog's buttons stay disabled while it fades out.
    if (outcome === undefined) {
      if (staysOpen) setSending(false);
      return;
    }
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

/*
 * useSchemaForm: how every form checks what it sends (decisions 0017 and 0062). The values are
 * checked with the contract's schema, the one the server runs, and an optional extra check beside
 * it; a mistake marks its field and moves focus to the first one marked, and nothing is sent;
 * otherwise the checked payload goes through useDialogSubmit. SchemaFormDialog is this form in a
 * dialog; Settings' sections use it where they stand. Kept in this module rather than one of its
 * own: every chunk that loads one loads the other, and a chunk more is named in the first view's
 * preload map (benchmark 4a).
 */

export interface SchemaFormOptions<Schema extends z.ZodMiniType, Values> {
  /** The contract schema the server checks the payload with; the form is checked with it first. */
  readonly schema: Schema;
  /** The values the form starts with; later changes are ignored (a dialog is remounted per opening). */
  readonly initialValues: Values;
  /** The form's values as the schema checks them (numbers from the inputs' text, and so on). */
  readonly candidateOf: (values: Values) => unknown;
  /**
   * A check the schema cannot make because it needs more than the payload (the ledger's dates for
   * a transaction's date). It runs beside the schema, so both kinds of mistake show at once; where
   * both mark a field, the schema's message stands.
   */
  readonly check?: (values: Values) => FieldErrors;
  /**
   * What the payload's paths put before the form's field names ('ledger.' when the payload is
   * { ledger: { ... } }); removed from the schema's and the server's error keys alike.
   */
  readonly errorPrefix?: string;
  /** A form that is not closed when its save worked (Settings' sections): its buttons come back then. */
  readonly staysOpen?: boolean;
  /** Sends the checked payload; answers undefined when it worked, else the fields to mark. */
  readonly onSave: (payload: z.output<Schema>) => Promise<SaveOutcome>;
}

export interface SchemaForm<Values> extends DialogSubmit {
  /** The form element, where the first field marked invalid is found. */
  readonly formRef: RefObject<HTMLFormElement | null>;
  readonly values: Values;
  readonly setValues: Dispatch<SetStateAction<Values>>;
  /** Checks the values and, when nothing is marked, sends them. */
  readonly submit: () => Promise<void>;
}

export function useSchemaForm<Schema extends z.ZodMiniType, Values>({
  schema,
  initialValues,
  candidateOf,
  check,
  errorPrefix = '',
  staysOpen = false,
  onSave,
}: SchemaFormOptions<Schema, Values>): SchemaForm<Values> {
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(initialValues);
  const submitter = useDialogSubmit(errorPrefix, { staysOpen });
  const { errors, setErrors, send } = submitter;
  // Only a failed check of the form moves focus; after a failed call the section says what happened.
  const focusFirstError = useRef(false);

  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  async function submit() {
    const checked = checkForm(schema, candidateOf(values));
    const fields = { ...check?.(values), ...(checked.ok ? {} : withoutPrefix(checked.fields, errorPrefix)) };
    if (!checked.ok || Object.keys(fields).length > 0) {
      focusFirstError.current = true;
      setErrors(fields);
      return;
    }
    setErrors({});
    await send(() => onSave(checked.value));
  }

  return { ...submitter, formRef, values, setValues, submit };
}
