/**
 * The signed-in user, known before any sign-in library has loaded (decision 0065). oidc-client-ts
 * stays the one that signs in, renews and signs out, and it keeps the user in sessionStorage; this
 * module only reads that entry at start, so a returning tab paints and calls the API at once, and
 * loads the library's chunk (user-manager.ts) after the first paint. Without a usable user, on the
 * callback, or on a sign-out, the library is loaded at once.
 */
import { whenIdleAfterPaint } from '../first-paint.js';
import { currentAddress, navigate } from '../navigation.js';
import {
  CALLBACK_PATH,
  type ReturnState,
  returnAddressOf,
  type SignInPlace,
  STORED_USER_PREFIX,
  storedUserKey,
} from './sign-in-settings.js';

/** A user as oidc-client-ts hands it over (its User class, as far as the page reads it). */
export interface LibraryUser {
  readonly access_token: string;
  readonly expires_at?: number;
  readonly profile: { readonly sub?: unknown; readonly preferred_username?: unknown; readonly name?: unknown };
  readonly state?: unknown;
}

/** What the page asks of oidc-client-ts's UserManager; user-manager.ts makes the real one. */
export interface SignInLibrary {
  getUser(): Promise<LibraryUser | null>;
  signinCallback(): Promise<LibraryUser | undefined>;
  signinRedirect(args: { readonly state: ReturnState }): Promise<void>;
  signoutRedirect(): Promise<void>;
  removeUser(): Promise<void>;
  readonly events: {
    addUserLoaded(callback: (user: LibraryUser) => void): () => void;
    addUserUnloaded(callback: () => void): () => void;
    addAccessTokenExpired(callback: () => void): () => void;
    addSilentRenewError(callback: (error: Error) => void): () => void;
  };
}

export interface SignedInUser {
  readonly accessToken: string;
  /** Unix seconds. Undefined when the provider gave no lifetime: the library never calls that one expired. */
  readonly expiresAt: number | undefined;
  /** Who the top bar says is signed in: preferred_username, else name, else sub. */
  readonly who: string | undefined;
}

export interface SessionState {
  readonly user: SignedInUser | undefined;
  /** Why signing in (or out) did not work; shown, with "Sign in again", while no one is signed in. */
  readonly error: string | undefined;
}

export interface SessionOptions {
  readonly place: SignInPlace;
  /** Where oidc-client-ts keeps the user: sessionStorage unless a test says otherwise. */
  readonly storage?: () => Storage;
  readonly loadLibrary?: (place: SignInPlace) => Promise<SignInLibrary>;
  /** Runs the library's load once the page has painted and the browser is idle. */
  readonly afterFirstPaint?: (work: () => void) => void;
  readonly nowSeconds?: () => number;
}

/**
 * oidc-client-ts renews a token this long before it expires (its default
 * accessTokenExpiringNotificationTimeInSeconds): a stored token closer to its end than this has the
 * library loaded at once, not after the paint, so the renewal starts when it always did.
 */
const RENEW_AHEAD_SECONDS = 60;

function loadUserManager(place: SignInPlace): Promise<SignInLibrary> {
  return import('./user-manager.js').then((module) => module.createUserManager(place));
}

/** Even a page that never goes idle starts renewal this soon, well before a token's last minute. */
const IDLE_AT_MOST_MS = 10_000;

/** After the view's first paint (decision 0073), when the browser is idle. */
function whenIdle(work: () => void): void {
  whenIdleAfterPaint(work, IDLE_AT_MOST_MS);
}

function epochSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The browser came back from the provider: a code (or an error) and the state in the address. */
export function hasAuthParams(location: Pick<Location, 'search' | 'hash'> = window.location): boolean {
  for (const params of [new URLSearchParams(location.search), new URLSearchParams(location.hash.replace('#', '?'))]) {
    if ((params.get('code') || params.get('error')) && params.get('state')) return true;
  }
  return false;
}

function fieldsOf(candidate: unknown): Record<string, unknown> | undefined {
  return typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate)
    ? (candidate as Record<string, unknown>)
    : undefined;
}

/** A user from the library or from its storage entry; anything without an access token is no user. */
function userOf(candidate: unknown): SignedInUser | undefined {
  const fields = fieldsOf(candidate);
  const accessToken = fields?.access_token;
  const expiresAt = fields?.expires_at;
  if (typeof accessToken !== 'string' || accessToken === '') return undefined;
  if (expiresAt !== undefined && (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt))) return undefined;
  const profile = fieldsOf(fields?.profile);
  const who = profile?.preferred_username ?? profile?.name ?? profile?.sub;
  return { accessToken, expiresAt, who: typeof who === 'string' ? who : undefined };
}

function parsedUser(text: string | null): SignedInUser | undefined {
  if (!text) return undefined;
  try {
    return userOf(JSON.parse(text));
  } catch {
    // Not JSON: as if there were no entry; the library signs in afresh and writes a new one.
    return undefined;
  }
}

/** The user oidc-client-ts stored for this provider and client, if the entry holds one. */
export function readStoredUser(storage: Storage, place: Pick<SignInPlace, 'authority' | 'clientId'>): SignedInUser | undefined {
  return parsedUser(storage.getItem(storedUserKey(place)));
}

function secondsLeft(user: SignedInUser, now: number): number {
  return user.expiresAt === undefined ? Number.POSITIVE_INFINITY : user.expiresAt - now;
}

/** Not expired, as oidc-client-ts's User.expired has it: expired once no second is left. */
function unexpired(user: SignedInUser, now: number): boolean {
  return secondsLeft(user, now) > 0;
}

function sameUser(a: SignedInUser | undefined, b: SignedInUser): boolean {
  return a?.accessToken === b.accessToken && a.expiresAt === b.expiresAt && a.who === b.who;
}

function messageOf(error: unknown): string {
  // The embedded provider answers a refusal (too many sign-ins) in the API's shape, { error: { message } },
  // not OAuth's; the library keeps that object as the error's `error` and "[object Object]" as its message.
  const fields = fieldsOf(error);
  const answered = fieldsOf(fields?.error)?.message;
  if (typeof answered === 'string') return answered;
  const message = fields?.message;
  return typeof message === 'string' ? message : 'Sign-in failed';
}

/**
 * Whether the page needs oidc-client-ts at once: on the callback, or when no stored user (of any
 * provider: the settings are not in yet) will last past the renewal window.
 */
function needsLibraryAtOnce(storage: () => Storage, now: number): boolean {
  if (hasAuthParams() || window.location.pathname === CALLBACK_PATH) return true;
  return !(storedUsers(storage) ?? []).some((user) => secondsLeft(user, now) > RENEW_AHEAD_SECONDS);
}

/** Every user oidc-client-ts stored, of any provider; undefined when the browser refuses to open the storage. */
function storedUsers(storage: () => Storage): SignedInUser[] | undefined {
  try {
    const store = storage();
    const users: SignedInUser[] = [];
    for (let index = 0; index < store.length; index += 1) {
      const key = store.key(index);
      if (!key?.startsWith(STORED_USER_PREFIX)) continue;
      const user = parsedUser(store.getItem(key));
      if (user) users.push(user);
    }
    return users;
  } catch {
    return undefined;
  }
}

/**
 * The access token of the one user oidc-client-ts stored, before the page's settings say which
 * provider's entry is ours (decision 0073): the first view's calls leave with it at once. Undefined
 * on the callback, or unless exactly one stored user is unexpired; the api client uses those calls'
 * answers only if the session's token is this one.
 */
export function storedAccessToken(storage: () => Storage = () => window.sessionStorage, now = epochSeconds()): string | undefined {
  if (hasAuthParams() || window.location.pathname === CALLBACK_PATH) return undefined;
  const users = storedUsers(storage);
  if (!users) return undefined;
  const tokens = new Set(users.filter((user) => unexpired(user, now)).map((user) => user.accessToken));
  const [token] = tokens;
  return tokens.size === 1 ? token : undefined;
}

/**
 * Starts fetching the library's chunk with the page itself, beside the page's settings, when the page
 * will need it at once (main.tsx calls it first). The session's own import then finds it loaded.
 */
export function preloadSignIn(storage: () => Storage = () => window.sessionStorage): void {
  if (needsLibraryAtOnce(storage, epochSeconds())) void import('./user-manager.js').catch(() => undefined);
}

/**
 * The page's sign-in: the user the views and the api client see, and the moves (sign in again, sign
 * out) that need the library, which it loads when they are asked for if it has not loaded yet.
 */
export class SignInSession {
  readonly #place: SignInPlace;
  readonly #loadLibrary: (place: SignInPlace) => Promise<SignInLibrary>;
  readonly #afterFirstPaint: (work: () => void) => void;
  readonly #nowSeconds: () => number;
  readonly #listeners = new Set<() => void>();
  #state: SessionState;
  #library: Promise<SignInLibrary> | undefined;
  #started = false;
  /** A redirect to the provider is on its way: another reason to sign in again (a 401, expiry) waits for it. */
  #redirecting = false;
  /** Signing out: the user leaves storage first, which must not send the browser to sign in again. */
  #leaving = false;

  constructor(options: SessionOptions) {
    this.#place = options.place;
    this.#loadLibrary = options.loadLibrary ?? loadUserManager;
    this.#afterFirstPaint = options.afterFirstPaint ?? whenIdle;
    this.#nowSeconds = options.nowSeconds ?? epochSeconds;
    const storage = options.storage ?? (() => window.sessionStorage);
    let stored: SignedInUser | undefined;
    try {
      // On the callback the provider's answer decides who is signed in, not what was stored before.
      stored = hasAuthParams() ? undefined : readStoredUser(storage(), this.#place);
    } catch {
      stored = undefined;
    }
    this.#state = { user: stored && unexpired(stored, this.#nowSeconds()) ? stored : undefined, error: undefined };
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly snapshot = (): SessionState => this.#state;

  accessToken(): string | undefined {
    return this.#state.user?.accessToken;
  }

  /** Loads the library at once when the page needs it to sign in, otherwise once the page has painted. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    const { user } = this.#state;
    const lastsPastRenewal = user !== undefined && secondsLeft(user, this.#nowSeconds()) > RENEW_AHEAD_SECONDS;
    if (lastsPastRenewal && window.location.pathname !== CALLBACK_PATH) this.#afterFirstPaint(() => void this.#begin());
    else void this.#begin();
  }

  /** A 401, an expired token or a failed renewal: forget the user and sign in again, back to this address. */
  signInAgain(): Promise<void> {
    return this.#redirect(currentAddress(), { removeUser: true });
  }

  /** The person asked to sign in ("Sign in again" after a failure): that goes whatever went before. */
  signIn(returnTo: string): Promise<void> {
    this.#redirecting = false;
    this.#leaving = false;
    return this.#redirect(returnTo, { removeUser: false });
  }

  async signOut(): Promise<void> {
    this.#leaving = true;
    try {
      const library = await this.#load();
      await library.signoutRedirect();
    } catch (error) {
      this.#fail(error);
    }
  }

  /** What react-oidc-context's provider did at start: the callback if this is one, then the stored user, else sign in. */
  async #begin(): Promise<void> {
    try {
      const library = await this.#load();
      let loaded: LibraryUser | null | undefined = null;
      if (hasAuthParams()) {
        loaded = await library.signinCallback();
        // Replace the callback address (with its one-time code) by the address first asked for.
        navigate(returnAddressOf(loaded?.state), { replace: true });
      }
      // An entry the library cannot read is no user: the page signs in afresh, which writes a new one.
      loaded ??= await library.getUser().catch(() => null);
      const user = userOf(loaded);
      if (user && unexpired(user, this.#nowSeconds())) {
        this.#signedIn(user);
        return;
      }
      this.#update({ user: undefined, error: this.#state.error });
      await this.#redirect(currentAddress(), { removeUser: false });
    } catch (error) {
      this.#fail(error);
    }
  }

  async #redirect(returnTo: string, { removeUser }: { removeUser: boolean }): Promise<void> {
    if (this.#redirecting || this.#leaving) return;
    this.#redirecting = true;
    try {
      const library = await this.#load();
      if (removeUser) await library.removeUser();
      await library.signinRedirect({ state: { returnTo } });
    } catch (error) {
      this.#fail(error);
    }
  }

  #load(): Promise<SignInLibrary> {
    if (!this.#library) {
      const loading = this.#loadLibrary(this.#place).then((library) => {
        this.#listen(library);
        return library;
      });
      // A chunk that did not arrive (the network went) is asked for again by the next move.
      loading.catch(() => {
        if (this.#library === loading) this.#library = undefined;
      });
      this.#library = loading;
    }
    return this.#library;
  }

  #listen(library: SignInLibrary): void {
    // A renewal (or a sign-in): the api client's next call carries the new token.
    library.events.addUserLoaded((loaded) => {
      const user = userOf(loaded);
      if (user) this.#signedIn(user);
    });
    library.events.addUserUnloaded(() => this.#update({ user: undefined, error: this.#state.error }));
    // When the token can neither be renewed nor used, sign in again and come back here.
    library.events.addAccessTokenExpired(() => void this.signInAgain());
    library.events.addSilentRenewError(() => void this.signInAgain());
  }

  #signedIn(user: SignedInUser): void {
    this.#update({ user: sameUser(this.#state.user, user) ? this.#state.user : user, error: undefined });
  }

  #fail(error: unknown): void {
    this.#redirecting = false;
    this.#leaving = false;
    this.#update({ user: this.#state.user, error: messageOf(error) });
  }

  #update(state: SessionState): void {
    if (state.user === this.#state.user && state.error === this.#state.error) return;
    this.#state = state;
    for (const listener of this.#listeners) listener();
  }
}
