import { safeReturnAddress } from '../navigation.js';

export const CALLBACK_PATH = '/login/callback';

/** What the page hands the provider on a sign-in, and gets back on the callback. */
export interface ReturnState {
  readonly returnTo: string;
}

/** Where the page signs in: the provider, the page's client id there, and the page's own origin. */
export interface SignInPlace {
  readonly authority: string;
  readonly clientId: string;
  readonly origin: string;
}

/** The address to go to after the callback: only one of our own, whatever the state says. */
export function returnAddressOf(state: unknown): string {
  const returnTo = typeof state === 'object' && state !== null && 'returnTo' in state ? state.returnTo : undefined;
  return safeReturnAddress(returnTo);
}

/**
 * Where oidc-client-ts keeps the signed-in user (its WebStorageStateStore's "oidc." prefix and its
 * UserManager's "user:<authority>:<client_id>" key): the page reads it there before the library loads.
 */
export function storedUserKey(place: Pick<SignInPlace, 'authority' | 'clientId'>): string {
  return `${STORED_USER_PREFIX}${place.authority}:${place.clientId}`;
}

export const STORED_USER_PREFIX = 'oidc.user:';
