/**
 * The API's only door: a JWT access token from the configured issuer, checked against the
 * issuer's keys with an asymmetric algorithm allow-list, issuer, audience, expiry and type.
 */
import type * as Jose from 'jose';
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';
import { hasVisibleCharacter } from '../../domain/visible-text.js';
import { VerifiedTokenCache, type VerifiedTokenCacheOptions } from './verified-token-cache.js';

let jose: Promise<typeof Jose> | undefined;
/** jose is loaded by the first token check, not at start (docs/decisions/0041-start-fast-idle-light.md). */
function loadJose(): Promise<typeof Jose> {
  jose ??= import('jose');
  return jose;
}

/** Who is calling: rows belong to the issuer and subject pair, never to a mutable claim. */
export interface Caller {
  readonly issuer: string;
  readonly subject: string;
}

/**
 * The signed-in person: who they are, and the name other members of a budget see them by (issue 38):
 * the provider's `name`, else its `preferred_username`; never the subject. Absent when it gave neither.
 */
export interface SignedInUser extends Caller {
  readonly name?: string;
}

/** The longest display name kept: a provider's claim is not ours to trust with a size. */
const MAX_DISPLAY_NAME_LENGTH = 100;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;
/** Half of a surrogate pair on its own is not text: PostgreSQL would refuse it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The display name a token's claims give, cleaned of control characters and cut to 100 characters; undefined when none shows. */
export function displayNameOf(payload: JWTPayload): string | undefined {
  for (const claim of [payload.name, payload.preferred_username]) {
    if (typeof claim !== 'string') continue;
    const cleaned = claim.replace(CONTROL_CHARACTERS, '').replace(LONE_SURROGATE, '').trim();
    const name = [...cleaned].slice(0, MAX_DISPLAY_NAME_LENGTH).join('').trim();
    if (name !== '' && hasVisibleCharacter(name)) return name;
  }
  return undefined;
}

/** One text naming the user (budgets, files in the works): the separator cannot occur in an issuer URL. */
export function callerKey(caller: Caller): string {
  return `${caller.issuer}\u0000${caller.subject}`;
}

const ACCEPTED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
export const CLOCK_TOLERANCE_SECONDS = 30;
/** How long after a refetch of the key set an unknown key id may trigger another. */
const JWKS_REFETCH_COOLDOWN_MS = 30_000;

export class InvalidTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

/** The provider could not be reached to fetch its keys: not the caller's fault. */
export class KeySetUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'KeySetUnavailableError';
  }
}

export interface AccessTokenVerifierOptions {
  readonly issuer: string;
  readonly audience: string;
  readonly keySet: JWTVerifyGetKey;
  readonly now?: () => Date;
  /** Verified tokens are remembered until their expiry (see VerifiedTokenCache); false turns that off. */
  readonly cache?: VerifiedTokenCacheOptions | false;
}

export type AccessTokenVerifier = (authorization: string | undefined) => Promise<SignedInUser>;

/**
 * `Bearer <JWT>`: the scheme in any case ("bearer", "BEARER"; RFC 9110 section 11.1 makes auth
 * schemes case-insensitive), one space, and the token's three segments. Clients send one space; a
 * header with more is refused as it always was.
 */
const BEARER = /^Bearer ([A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+)$/i;

export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const cache = options.cache === false ? undefined : new VerifiedTokenCache<SignedInUser>(options.cache);
  return async (authorization) => {
    if (!authorization) throw new InvalidTokenError('Sign in: no access token was sent.');
    const match = BEARER.exec(authorization);
    if (!match) throw new InvalidTokenError('The Authorization header must be "Bearer <access token>".');
    const token = match[1] as string;
    const now = options.now?.() ?? new Date();
    const cached = cache?.get(token, now.getTime());
    if (cached) return cached;
    const { errors: joseErrors, jwtVerify } = await loadJose();
    try {
      const { payload } = await jwtVerify(token, options.keySet, {
        algorithms: ACCEPTED_ALGORITHMS,
        issuer: options.issuer,
        audience: options.audience,
        typ: 'at+jwt',
        // jose checks exp only when present; an access token without one never expires.
        requiredClaims: ['exp', 'sub'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: now,
      });
      if (typeof payload.sub !== 'string' || payload.sub.length === 0) {
        throw new InvalidTokenError('The access token names no subject.');
      }
      const name = displayNameOf(payload);
      const caller: SignedInUser = { issuer: options.issuer, subject: payload.sub, ...(name !== undefined && { name }) };
      // Only here, after every check passed, does a token enter the cache; exp is required above.
      if (cache && typeof payload.exp === 'number') cache.set(token, caller, payload.exp, now.getTime());
      return caller;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new InvalidTokenError('The access token has expired.');
      if (error instanceof joseErrors.JOSEError && !(error instanceof joseErrors.JWKSTimeout)) {
        throw new InvalidTokenError('The access token is not valid.');
      }
      throw new KeySetUnavailableError('The sign-in provider could not be reached to check the access token.', { cause: error });
    }
  };
}

/** Finds the key set address in the issuer's discovery document, the standard way. */
async function discoverJwksUri(issuer: string): Promise<URL> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new KeySetUnavailableError(`The issuer's discovery document answered ${response.status}: ${url}`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  if (document.issuer !== issuer) {
    throw new KeySetUnavailableError(`The discovery document at ${url} names issuer ${String(document.issuer)}, not ${issuer}`);
  }
  if (typeof document.jwks_uri !== 'string') throw new KeySetUnavailableError(`The discovery document at ${url} has no jwks_uri`);
  return new URL(document.jwks_uri);
}

/**
 * The issuer's key set, discovered on first use and cached; an unknown key id refetches it at
 * most once per cooldown, so a rotated key is picked up without a restart and a flood of made-up
 * key ids cannot hammer the provider.
 */
export function createDiscoveredKeySet(issuer: string, { refetchCooldownMs = JWKS_REFETCH_COOLDOWN_MS } = {}): JWTVerifyGetKey {
  let remote: Promise<JWTVerifyGetKey> | undefined;
  return async (header, token) => {
    remote ??= Promise.all([discoverJwksUri(issuer), loadJose()])
      .then(([jwksUri, { createRemoteJWKSet }]) =>
        createRemoteJWKSet(jwksUri, { cooldownDuration: refetchCooldownMs, cacheMaxAge: 10 * 60_000, timeoutDuration: 5000 }),
      )
      .catch((error: unknown) => {
        remote = undefined;
        throw error;
      });
    const keySet = await remote;
    return keySet(header, token);
  };
}

/**
 * A key set held in this process: given outright, or read on first use (the embedded provider
 * makes its keys only when they are first needed).
 */
export function createLocalKeySet(jwks: JSONWebKeySet | (() => Promise<JSONWebKeySet>)): JWTVerifyGetKey {
  let local: Promise<JWTVerifyGetKey> | undefined;
  return async (header, token) => {
    local ??= Promise.all([typeof jwks === 'function' ? jwks() : jwks, loadJose()]).then(
      ([keys, { createLocalJWKSet }]) => createLocalJWKSet(keys),
      (error: unknown) => {
        local = undefined;
        throw error;
      },
    );
    return (await local)(header, token);
  };
}
