/**
 * A refusal carried across a thread (bank-sync-worker.ts): an error's class does not survive the
 * copy, so it travels as its kind and words and is thrown again as the same error on the other side.
 * Anything else is a fault, thrown again as a plain Error with its message (the server answers 500
 * and logs it, as it would have in its own thread).
 */
import {
  ConflictError,
  ForbiddenError,
  GoneError,
  InvalidInputError,
  NotFoundError,
  StaleVersionError,
  TooLargeError,
  TooManyRequestsError,
} from '../../domain/errors.js';

export type ErrorInThread =
  | { readonly kind: 'invalid'; readonly message: string; readonly fields: Readonly<Record<string, string>> }
  | { readonly kind: 'too-large'; readonly message: string; readonly field: string }
  | { readonly kind: 'too-many'; readonly message: string; readonly retryAfterSeconds: number }
  | { readonly kind: 'not-found' | 'forbidden' | 'conflict' | 'stale' | 'gone' | 'fault'; readonly message: string };

export function errorInThread(error: unknown): ErrorInThread {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof InvalidInputError) return { kind: 'invalid', message, fields: { ...error.fields } };
  if (error instanceof TooLargeError) return { kind: 'too-large', message, field: error.field };
  if (error instanceof TooManyRequestsError) return { kind: 'too-many', message, retryAfterSeconds: error.retryAfterSeconds };
  if (error instanceof NotFoundError) return { kind: 'not-found', message };
  if (error instanceof ForbiddenError) return { kind: 'forbidden', message };
  if (error instanceof ConflictError) return { kind: 'conflict', message };
  if (error instanceof StaleVersionError) return { kind: 'stale', message };
  if (error instanceof GoneError) return { kind: 'gone', message };
  return { kind: 'fault', message };
}

/** `thread`: whose thread it was, named in a fault's message (the bank sync's, or big writes': decision 0103). */
export function errorFromThread(error: ErrorInThread, thread: 'bank sync' | 'big writes' = 'bank sync'): Error {
  switch (error.kind) {
    case 'invalid':
      return new InvalidInputError(error.message, error.fields);
    case 'too-large':
      return new TooLargeError(error.message, error.field);
    case 'too-many':
      return new TooManyRequestsError(error.message, error.retryAfterSeconds);
    case 'not-found':
      return new NotFoundError(error.message);
    case 'forbidden':
      return new ForbiddenError(error.message);
    case 'conflict':
      return new ConflictError(error.message);
    case 'stale':
      return new StaleVersionError(error.message);
    case 'gone':
      return new GoneError(error.message);
    case 'fault':
      return new Error(`The ${thread}'s thread failed: ${error.message}`);
  }
}
