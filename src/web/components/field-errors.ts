/**
 * Turns a form's check against the contract schema (the same one the server runs) into one
 * message per field, so a wrong field is marked before anything is sent.
 */
import type * as z from 'zod/mini';
import { ApiCallError } from '../api/api-client.js';

export type FieldErrors = Readonly<Record<string, string>>;

export function fieldErrorsOf(error: z.core.$ZodError): FieldErrors {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || 'form';
    fields[key] ??= issue.message;
  }
  return fields;
}

export type FormCheck<Value> = { ok: true; value: Value } | { ok: false; fields: FieldErrors };

/**
 * Checks form values against a schema: either the parsed payload to send, or the field errors.
 */
export function checkForm<Schema extends z.ZodMiniType>(schema: Schema, values: unknown): FormCheck<z.output<Schema>> {
  const result = schema.safeParse(values);
  return result.success ? { ok: true, value: result.data } : { ok: false, fields: fieldErrorsOf(result.error) };
}

/** The server's per-field messages of a failed call, keyed like the form's fields. */
export function serverFieldErrors(error: unknown, prefix = ''): FieldErrors {
  if (!(error instanceof ApiCallError)) return {};
  const fields: Record<string, string> = {};
  for (const [key, message] of Object.entries(error.fields)) {
    fields[prefix && key.startsWith(prefix) ? key.slice(prefix.length) : key] = message;
  }
  return fields;
}

/** A number input's text as the schema expects it: empty stays missing so "required" shows. */
export function numberFromInput(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}
