import { describe, expect, it } from 'vitest';
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
import { errorFromThread, errorInThread } from './errors-in-thread.js';

/** What crosses a thread is a structured clone: a class does not survive it, plain data does. */
const acrossAThread = (error: unknown) => errorFromThread(structuredClone(errorInThread(error)));

describe('a refusal across the bank sync thread', () => {
  it('comes back as the same kind of error with the same words, so the answer is what it was in one thread', () => {
    const limit = acrossAThread(new ConflictError('A ledger holds at most 20,000 rows.'));
    expect(limit).toBeInstanceOf(ConflictError);
    expect(limit.message).toBe('A ledger holds at most 20,000 rows.');
    expect(acrossAThread(new NotFoundError('No such bank connection.'))).toBeInstanceOf(NotFoundError);
    expect(acrossAThread(new ForbiddenError('no'))).toBeInstanceOf(ForbiddenError);
    expect(acrossAThread(new StaleVersionError('stale'))).toBeInstanceOf(StaleVersionError);
    expect(acrossAThread(new GoneError('gone'))).toBeInstanceOf(GoneError);
    const invalid = acrossAThread(new InvalidInputError('Bad.', { accountId: 'Bad.' }));
    expect(invalid).toBeInstanceOf(InvalidInputError);
    expect((invalid as InvalidInputError).fields).toEqual({ accountId: 'Bad.' });
    const large = acrossAThread(new TooLargeError('Too large.', 'content'));
    expect((large as TooLargeError).field).toBe('content');
    const many = acrossAThread(new TooManyRequestsError('Wait.', 42));
    expect((many as TooManyRequestsError).retryAfterSeconds).toBe(42);
  });

  it('comes back from a fault as a plain error, which the server answers 500 and logs', () => {
    const fault = acrossAThread(new TypeError('x is undefined'));
    expect(fault).not.toBeInstanceOf(ConflictError);
    expect(fault.message).toBe("The bank sync's thread failed: x is undefined");
  });
});
