/**
 * Turns a form's check against the contract schema (the same one the server runs) into one
 * message per field, so a wrong field is marked before anything is sent.
 */
import type * as z from 'zod/mini';

export type FieldErrors = Readonly<Record<string, string>>;

/**
 * What a dialog's save answers: undefined when it worked (the caller closes the dialog), or the
 * fields to mark when it failed, none when the failure was not about a field.
 */
export type SaveOutcome = FieldErrors | undefined;

/** Sends one call and hands its answer on; answers what the form that asked should mark. */
export type RunCall<Info> = (call: () => Promise<Info>) => Promise<SaveOutcome>;

/** A call whose answer goes back to the dialog that asked (a preview): the answer, or the fields to mark. */
export type AskOutcome<Answer> = { readonly ok: true; readonly answer: Answer } | { readonly ok: false; readonly fields: FieldErrors };

/** Sends one call for the dialog that asked; a failure is reported as any other and answers the fields to mark. */
export type AskCall = <Answer>(call: () => Promise<Answer>) => Promise<AskOutcome<Answer>>;

function fieldErrorsOf(error: z.core.$ZodError): FieldErrors {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || 'form';
    fields[key] ??= issue.message;
  }
  return fields;
}

type FormCheck<Value> = { ok: true; value: Value } | { ok: false; fields: FieldErrors };

/**
 * Checks form values against a schema: either the parsed payload to send, or the field errors.
 */
export function checkForm<Schema extends z.ZodMiniType>(schema: Schema, values: unknown): FormCheck<z.output<Schema>> {
  const result = schema.safeParse(values);
  return result.success ? { ok: true, value: result.data } : { ok: false, fields: fieldErrorsOf(result.error) };
}

/** Errors keyed by the payload's paths ('ledger.endDate'), keyed by the form's field names instead ('endDate'). */
export function withoutPrefix(fields: FieldErrors, prefix: string): FieldErrors {
  if (prefix === '') return fields;
  return Object.fromEntries(
    Object.entries(fields).map(([key, message]) => [key.startsWith(prefix) ? key.slice(prefix.length) : key, message]),
  );
}

/** A number input's text as the schema expects it: empty stays missing so "required" shows. */
export function numberFromInput(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}
