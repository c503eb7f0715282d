/**
 * Who owns a row: the signed-in caller's token issuer and subject, never anything the client
 * sent. Repositories insert these columns and filter every query by them, so another user's row
 * is simply not found.
 */
import type { Caller } from '../auth/access-token.js';
import type { OwnerColumns } from './schema.js';

/** The owner columns of the caller's rows; usable both as insert values and as `eb.and(...)` filter. */
export function ownerColumns(caller: Caller): OwnerColumns {
  return { owner_iss: caller.issuer, owner_sub: caller.subject };
}
