/**
 * The work done on an untrusted file (issue 22): reading a statement, matching it to a ledger, and
 * checking a restore document. Each runs in a worker thread (file-worker.ts) under memory and time
 * limits, so a file that costs too much fails alone (a match known to be small is worked out in the
 * request's thread first: statement-plans.ts, decision 0114). Plain data in and out: what crosses a thread
 * is copied, and an error's class does not survive the copy, so failures travel as data too.
 */
import secureJson from 'secure-json-parse';
import { restoreHeaderSchema, restoreSchemaOf } from '../../contract/your-data-requests.js';
import { InvalidInputError, TooLargeError } from '../../domain/errors.js';
import type { CsvMapping } from '../../domain/statements/csv-statement.js';
import { readStatement, type StatementFile } from '../../domain/statements/statement-file.js';
import { type PackedStorableData, packStorableData, storableData } from '../your-data/your-data.js';
import { restoredData } from '../your-data/your-data-payloads.js';
import { type PlanStatementTask, planStatementTask, type StatementPlanAnswers } from './statement-plans.js';

export interface ReadStatementTask {
  readonly kind: 'read-statement';
  readonly fileName: string;
  readonly content: string;
  readonly mapping?: CsvMapping | undefined;
}

export interface CheckRestoreTask {
  readonly kind: 'check-restore';
  /**
   * The request body's bytes as sent: decoding and parsing them is part of the work kept off the
   * main thread, and the bytes are moved to the worker, not copied (decision 0072).
   */
  readonly body: Uint8Array;
}

/**
 * What a task hands its worker rather than a copy: a restore body's bytes, when they own their
 * whole buffer (Fastify gives a big body a buffer of its own; a small one may share a pool, which
 * must never be moved away).
 */
export function transferOf(task: FileTask): ArrayBuffer[] {
  if (task.kind !== 'check-restore') return [];
  const { body } = task;
  return body.buffer instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? [body.buffer] : [];
}

export type FileTask = ReadStatementTask | PlanStatementTask | CheckRestoreTask;

export interface FileTaskAnswers extends StatementPlanAnswers {
  'read-statement': StatementFile;
  'check-restore': PackedStorableData;
}

/** A refusal as data: the domain error it was, rebuilt on the other side. */
export type FileTaskFailure =
  | { readonly kind: 'invalid'; readonly message: string; readonly fields: Readonly<Record<string, string>> }
  | { readonly kind: 'too-large'; readonly message: string; readonly field: string };

export type FileTaskOutcome<T> = { readonly ok: true; readonly answer: T } | { readonly ok: false; readonly failure: FileTaskFailure };

const NOT_JSON = 'The request body is not valid JSON.';

/** One message per field, keyed by the field's path, as the route's schema would answer. */
function invalidDocument(issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[]): InvalidInputError {
  const fields: Record<string, string> = {};
  for (const issue of issues) fields[issue.path.map(String).join('.') || 'body'] ??= issue.message;
  return new InvalidInputError('Some fields need attention.', fields);
}

/**
 * The restore document, parsed and checked exactly as the route's schema would check it, with the
 * same answer for each problem: one message per field, keyed by the field's path.
 */
function checkRestore(task: CheckRestoreTask): PackedStorableData {
  let parsed: unknown;
  try {
    // As Fastify parses every other body: a "__proto__" or "constructor.prototype" key is refused.
    // Decoded as Fastify decodes a text body: invalid UTF-8 becomes U+FFFD, a byte order mark stays (and is no JSON).
    const text = Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength).toString('utf8');
    parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw new InvalidInputError(NOT_JSON, { body: NOT_JSON });
  }
  // The format and version first, then the schema of that version: each message names one field of the document it is.
  const header = restoreHeaderSchema.safeParse(parsed);
  if (!header.success) throw invalidDocument(header.error.issues);
  const checked = restoreSchemaOf(header.data.version).safeParse(parsed);
  if (!checked.success) throw invalidDocument(checked.error.issues);
  // New ids and countable numbers here too: for 20,000 rows that is a few hundred ms the main thread no longer spends (issue 34).
  // As text: the server's thread reads it back in turns instead of taking 20,000 rows in one copy.
  return packStorableData(storableData(restoredData(checked.data)));
}

export function runFileTask(task: FileTask): FileTaskOutcome<FileTaskAnswers[FileTask['kind']]> {
  try {
    switch (task.kind) {
      case 'read-statement':
        return { ok: true, answer: readStatement(task.fileName, task.content, task.mapping) };
      case 'plan-statement':
      case 'plan-import':
        return { ok: true, answer: planStatementTask(task) };
      case 'check-restore':
        return { ok: true, answer: checkRestore(task) };
    }
  } catch (error) {
    if (error instanceof InvalidInputError)
      return { ok: false, failure: { kind: 'invalid', message: error.message, fields: { ...error.fields } } };
    if (error instanceof TooLargeError) return { ok: false, failure: { kind: 'too-large', message: error.message, field: error.field } };
    throw error;
  }
}
