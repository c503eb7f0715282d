/**
 * Why a request cannot be done, in the product's words. Domain, services and repositories throw
 * these; they know nothing of HTTP: the server's one error handler picks the status code for each
 * kind (as Actual Budget's loot-core keeps its errors free of transport).
 */
export abstract class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input that breaks a rule of the product, with one message per field it concerns. */
export class InvalidInputError extends DomainError {
  constructor(
    message: string,
    readonly fields: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

/** Nothing of the caller's answers to that name: a missing row and another user's row look alike. */
export class NotFoundError extends DomainError {}

/** The caller may see this but not do it: a viewer's write, an editor's call that is an owner's (decision 0088). */
export class ForbiddenError extends DomainError {}

/** The rules refuse the change in the row's current state, or the row changed since it was read. */
export class ConflictError extends DomainError {}

/** The caller wrote against a version of the data that is no longer the current one (a stale If-Match). */
export class StaleVersionError extends DomainError {}

/** It could be done once and no longer can: an undo past its time. */
export class GoneError extends DomainError {}

/** Input over a size the product allows (a statement over 2 MB), with the field it concerns. */
export class TooLargeError extends DomainError {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/** Past a request budget; the caller may come back after retryAfterSeconds. */
export class TooManyRequestsError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'TooManyRequestsError';
  }
}
