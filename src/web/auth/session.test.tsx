/**
 * The page's sign-in (decision 0065): a tab whose stored user is still good is signed in at its first
 * render, and its api client calls with that token before oidc-client-ts has loaded; anything else
 * (no user, an expired or unreadable one, the callback, a sign-out) loads the library at once, and
 * the library's moves (redirect, callback, renewal, expiry) reach the page as they did through
 * react-oidc-context. The library is a fake here except where its own storage is the point; the
 * end-to-end tests sign in through the real provider.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ErrorResponse, User } from 'oidc-client-ts';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignedInApiProvider, useApiClient } from '../api/api-context.js';
import { BusyProvider } from '../components/busy.js';
import { RequireSignIn } from './require-sign-in.js';
import { type LibraryUser, readStoredUser, type SignInLibrary, SignInSession } from './session.js';
import { SignInProvider, useSignInState } from './sign-in-context.js';
import { createUserManager } from './user-manager.js';

const PLACE = { authority: 'https://id.example.test/oidc', clientId: 'leftover-page', origin: 'http://localhost:3000' };
const KEY = `oidc.user:${PLACE.authority}:${PLACE.clientId}`;

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function storeUser(user: { access_token: string; expires_at?: number; profile?: object; refresh_token?: string }): void {
  window.sessionStorage.setItem(KEY, JSON.stringify({ token_type: 'Bearer', scope: 'openid profile', profile: { sub: 's-1' }, ...user }));
}

interface FakeLibrary extends SignInLibrary {
  readonly getUser: ReturnType<typeof vi.fn<SignInLibrary['getUser']>>;
  readonly signinCallback: ReturnType<typeof vi.fn<SignInLibrary['signinCallback']>>;
  readonly signinRedirect: ReturnType<typeof vi.fn<SignInLibrary['signinRedirect']>>;
  readonly signoutRedirect: ReturnType<typeof vi.fn<SignInLibrary['signoutRedirect']>>;
  readonly removeUser: ReturnType<typeof vi.fn<SignInLibrary['removeUser']>>;
  /** Raises the library's events as its timers and renewals would. */
  readonly raise: {
    readonly userLoaded: (user: LibraryUser) => void;
    readonly accessTokenExpired: () => void;
    readonly silentRenewError: (error: Error) => void;
  };
}

/** oidc-client-ts as the page uses it: the user in sessionStorage under its key, its four events. */
function fakeLibrary(): FakeLibrary {
  const loaded = new Set<(user: LibraryUser) => void>();
  const unloaded = new Set<() => void>();
  const expired = new Set<() => void>();
  const renewErrors = new Set<(error: Error) => void>();
  function adder<T>(handlers: Set<T>) {
    return (handler: T) => {
      handlers.add(handler);
      return () => void handlers.delete(handler);
    };
  }
  const removeUser = vi.fn(async () => {
    window.sessionStorage.removeItem(KEY);
    for (const handler of unloaded) handler();
  });
  return {
    // As the library does: JSON.parse of the entry, which throws on one that is not JSON.
    getUser: vi.fn(async () => {
      const text = window.sessionStorage.getItem(KEY);
      return text ? (JSON.parse(text) as LibraryUser) : null;
    }),
    signinCallback: vi.fn(async () => undefined),
    signinRedirect: vi.fn(async () => undefined),
    signoutRedirect: vi.fn(async () => removeUser()),
    removeUser,
    events: {
      addUserLoaded: adder(loaded),
      addUserUnloaded: adder(unloaded),
      addAccessTokenExpired: adder(expired),
      addSilentRenewError: adder(renewErrors),
    },
    raise: {
      userLoaded: (user) => loaded.forEach((handler) => handler(user)),
      accessTokenExpired: () => expired.forEach((handler) => handler()),
      silentRenewError: (error) => renewErrors.forEach((handler) => handler(error)),
    },
  };
}

function startSession(library: FakeLibrary, load: () => Promise<SignInLibrary> = async () => library) {
  const afterPaint: (() => void)[] = [];
  const loadLibrary = vi.fn(load);
  const session = new SignInSession({ place: PLACE, loadLibrary, afterFirstPaint: (work) => afterPaint.push(work) });
  return {
    session,
    loadLibrary,
    /** The browser painted and went idle: what the session put off runs now. */
    idle: () => act(() => afterPaint.splice(0).forEach((work) => work())),
  };
}

/** A view of the signed-in page: who is signed in, and a call to the API as Home makes one. */
function SignedInProbe() {
  const { user } = useSignInState();
  const client = useApiClient();
  useEffect(() => {
    void client.getDeposits().catch(() => undefined);
  }, [client]);
  return <p>Signed in as {user?.who}</p>;
}

function renderPage(session: SignInSession) {
  return render(
    <SignInProvider session={session}>
      <RequireSignIn>
        <BusyProvider>
          <SignedInApiProvider>
            <SignedInProbe />
          </SignedInApiProvider>
        </BusyProvider>
      </RequireSignIn>
    </SignInProvider>,
  );
}

const fetchMock = vi.fn<typeof fetch>();

function authorizationsSent(): (string | undefined)[] {
  return fetchMock.mock.calls.map(([, init]) => (init?.headers as Record<string, string> | undefined)?.authorization);
}

beforeEach(() => {
  window.history.replaceState(null, '', '/ledger?account=a1');
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => {
    if (String(input) === '/api/deposits/retrieve-deposits') return Response.json({ deposits: [], totalDeposits: 0 });
    return Response.json({ error: { code: 'unauthorized', message: 'The access token has expired.' } }, { status: 401 });
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('a stored user that has not expired', () => {
  it('is signed in at the first render, and the api client calls with its token before the library loads', () => {
    storeUser({ access_token: 'token-stored', expires_at: nowSeconds() + 300, profile: { sub: 's-1', preferred_username: 'alice' } });
    const library = fakeLibrary();
    const { session, loadLibrary } = startSession(library);

    expect(session.accessToken()).toBe('token-stored');
    renderPage(session);

    // No await: the view and its call are there in the render itself.
    expect(screen.getByText('Signed in as alice')).toBeInTheDocument();
    expect(authorizationsSent()).toEqual(['Bearer token-stored']);
    expect(loadLibrary).not.toHaveBeenCalled();
    expect(library.signinRedirect).not.toHaveBeenCalled();
  });

  it('loads the library once the page has painted, and the renewed token is the one the next call carries', async () => {
    storeUser({ access_token: 'token-stored', expires_at: nowSeconds() + 300, profile: { sub: 's-1', name: 'Alice Liddell' } });
    const library = fakeLibrary();
    const { session, loadLibrary, idle } = startSession(library);
    renderPage(session);
    expect(loadLibrary).not.toHaveBeenCalled();

    idle();
    await waitFor(() => expect(library.getUser).toHaveBeenCalled());
    expect(loadLibrary).toHaveBeenCalledOnce();
    expect(screen.getByText('Signed in as Alice Liddell')).toBeInTheDocument();

    act(() => library.raise.userLoaded({ access_token: 'token-renewed', expires_at: nowSeconds() + 300, profile: { sub: 's-1' } }));
    expect(session.accessToken()).toBe('token-renewed');
    expect(screen.getByText('Signed in as s-1')).toBeInTheDocument();
    expect(library.signinRedirect).not.toHaveBeenCalled();
  });

  it('close to its end, is signed in at once and loads the library at once, so renewal starts on time', async () => {
    storeUser({ access_token: 'token-ending', expires_at: nowSeconds() + 30 });
    const library = fakeLibrary();
    const { session, loadLibrary } = startSession(library);
    renderPage(session);

    expect(screen.getByText('Signed in as s-1')).toBeInTheDocument();
    expect(authorizationsSent()).toEqual(['Bearer token-ending']);
    expect(loadLibrary).toHaveBeenCalledOnce();
    await waitFor(() => expect(library.getUser).toHaveBeenCalled());
    expect(library.signinRedirect).not.toHaveBeenCalled();
  });
});

describe('without a usable stored user', () => {
  it.each([
    ['no stored user', () => undefined],
    ['an expired one', () => storeUser({ access_token: 'token-old', expires_at: nowSeconds() - 5 })],
    ['an entry that is not JSON', () => window.sessionStorage.setItem(KEY, '{"access_token": "tok')],
    ['an entry without a token', () => window.sessionStorage.setItem(KEY, JSON.stringify({ profile: { sub: 's-1' } }))],
  ])('%s: shows nothing, loads the library at once, and signs in remembering the address', async (_, arrange) => {
    arrange();
    const library = fakeLibrary();
    const { session, loadLibrary } = startSession(library);
    expect(session.accessToken()).toBeUndefined();
    const { container } = renderPage(session);

    expect(container).toBeEmptyDOMElement();
    expect(loadLibrary).toHaveBeenCalledOnce();
    await waitFor(() => expect(library.signinRedirect).toHaveBeenCalledOnce());
    expect(library.signinRedirect).toHaveBeenCalledWith({ state: { returnTo: '/ledger?account=a1' } });
    expect(container).toBeEmptyDOMElement();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says so when the library cannot load, and "Sign in again" tries again', async () => {
    const user = userEvent.setup();
    const library = fakeLibrary();
    const { session, loadLibrary } = startSession(library);
    loadLibrary.mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'));
    renderPage(session);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sign-in did not work');
    expect(alert).toHaveTextContent('Failed to fetch dynamically imported module');

    await user.click(screen.getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(library.signinRedirect).toHaveBeenCalledWith({ state: { returnTo: '/' } }));
    expect(loadLibrary).toHaveBeenCalledTimes(2);
  });
});

describe('the callback', () => {
  it('exchanges the code, replaces the callback address by the one first asked for, and shows the page', async () => {
    window.history.replaceState(null, '', '/login/callback?code=one-time&state=abc');
    // Whatever was stored before, the provider's answer decides who is signed in.
    storeUser({ access_token: 'token-before', expires_at: nowSeconds() + 300 });
    const library = fakeLibrary();
    const signedIn = { access_token: 'token-new', expires_at: nowSeconds() + 300, profile: { sub: 's-2', preferred_username: 'bob' } };
    library.signinCallback.mockImplementation(async () => {
      window.sessionStorage.setItem(KEY, JSON.stringify(signedIn));
      return { ...signedIn, state: { returnTo: '/plan?x=1' } };
    });
    const historyLength = window.history.length;
    const { session, loadLibrary } = startSession(library);
    const { container } = renderPage(session);
    expect(container).toBeEmptyDOMElement();
    expect(loadLibrary).toHaveBeenCalledOnce();

    expect(await screen.findByText('Signed in as bob')).toBeInTheDocument();
    expect(`${window.location.pathname}${window.location.search}`).toBe('/plan?x=1');
    expect(window.history.length).toBe(historyLength);
    expect(session.accessToken()).toBe('token-new');
    expect(library.signinRedirect).not.toHaveBeenCalled();
  });

  it('goes only to an address of our own', async () => {
    window.history.replaceState(null, '', '/login/callback?code=one-time&state=abc');
    const library = fakeLibrary();
    const signedIn = { access_token: 'token-new', expires_at: nowSeconds() + 300, profile: { sub: 's-2' } };
    library.signinCallback.mockResolvedValue({ ...signedIn, state: { returnTo: '//evil.example/' } });
    library.getUser.mockResolvedValue(signedIn);
    renderPage(startSession(library).session);

    expect(await screen.findByText('Signed in as s-2')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/');
  });

  it('says "Sign-in did not work" with the reason when the exchange fails, and "Sign in again" starts over from Home', async () => {
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/login/callback?error=access_denied&state=abc');
    const library = fakeLibrary();
    library.signinCallback.mockRejectedValue(new Error('The user refused.'));
    renderPage(startSession(library).session);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sign-in did not work');
    expect(alert).toHaveTextContent('The user refused.');
    expect(library.signinRedirect).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Sign in again' }));
    expect(library.signinRedirect).toHaveBeenCalledWith({ state: { returnTo: '/' } });
  });
  it("says why when the provider refuses in the API's shape, as the embedded one does past its sign-in budget", async () => {
    window.history.replaceState(null, '', '/login/callback?code=abc&state=abc');
    const library = fakeLibrary();
    // What oidc-client-ts throws for a 429 whose body is { error: { code, message } }.
    const answered = JSON.parse(
      '{"error":{"code":"too_many_requests","message":"Too many sign-in requests from your address. Try again in 21 seconds."}}',
    ) as { error: string };
    library.signinCallback.mockRejectedValue(new ErrorResponse(answered));
    renderPage(startSession(library).session);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sign-in did not work');
    expect(alert).toHaveTextContent('Too many sign-in requests from your address. Try again in 21 seconds.');
    expect(alert).not.toHaveTextContent('[object Object]');
  });
});

describe('a session that can no longer be used', () => {
  it.each([
    ['the token expired', (library: FakeLibrary) => library.raise.accessTokenExpired()],
    ['the renewal failed', (library: FakeLibrary) => library.raise.silentRenewError(new Error('invalid_grant'))],
  ])('%s: forgets the user and signs in again, back to this address', async (_, raise) => {
    storeUser({ access_token: 'token-stored', expires_at: nowSeconds() + 300 });
    const library = fakeLibrary();
    const { session, idle } = startSession(library);
    const { container } = renderPage(session);
    idle();
    await waitFor(() => expect(library.getUser).toHaveBeenCalled());

    await act(async () => raise(library));
    await waitFor(() => expect(library.signinRedirect).toHaveBeenCalledOnce());
    expect(library.removeUser).toHaveBeenCalledOnce();
    expect(library.removeUser.mock.invocationCallOrder[0]).toBeLessThan(library.signinRedirect.mock.invocationCallOrder[0] ?? 0);
    expect(library.signinRedirect).toHaveBeenCalledWith({ state: { returnTo: '/ledger?account=a1' } });
    expect(window.sessionStorage.getItem(KEY)).toBeNull();
    expect(container).toBeEmptyDOMElement();
  });

  it('a 401 from the API forgets the user and signs in again once, loading the library if it had not loaded', async () => {
    storeUser({ access_token: 'token-refused', expires_at: nowSeconds() + 300 });
    const library = fakeLibrary();
    const { session, loadLibrary } = startSession(library);
    fetchMock.mockImplementation(async () => Response.json({ error: { code: 'unauthorized', message: 'Refused.' } }, { status: 401 }));
    renderPage(session);
    expect(loadLibrary).not.toHaveBeenCalled();

    await waitFor(() => expect(library.signinRedirect).toHaveBeenCalledOnce());
    expect(library.removeUser).toHaveBeenCalledOnce();
    expect(library.signinRedirect).toHaveBeenCalledWith({ state: { returnTo: '/ledger?account=a1' } });
    // A second refusal while the first redirect is on its way asks for no second one.
    await act(() => session.signInAgain());
    expect(library.signinRedirect).toHaveBeenCalledOnce();
  });
});

describe('signing out', () => {
  it('hands over to the library, and the user leaving storage does not send the browser to sign in', async () => {
    storeUser({ access_token: 'token-stored', expires_at: nowSeconds() + 300, profile: { sub: 's-1', preferred_username: 'carol' } });
    const library = fakeLibrary();
    const { session, loadLibrary } = startSession(library);
    const { container } = renderPage(session);
    expect(screen.getByText('Signed in as carol')).toBeInTheDocument();

    await act(() => session.signOut());
    expect(loadLibrary).toHaveBeenCalledOnce();
    expect(library.signoutRedirect).toHaveBeenCalledOnce();
    expect(container).toBeEmptyDOMElement();
    // Nor does the token's timer running out while the browser is on its way to the provider.
    await act(async () => library.raise.accessTokenExpired());
    expect(library.signinRedirect).not.toHaveBeenCalled();
  });
});

describe("oidc-client-ts's own storage", () => {
  it('is where the page reads the user from, and the settings are the code flow with PKCE in sessionStorage', async () => {
    const manager = createUserManager(PLACE);
    expect(manager.settings).toMatchObject({
      authority: PLACE.authority,
      client_id: PLACE.clientId,
      redirect_uri: 'http://localhost:3000/login/callback',
      post_logout_redirect_uri: 'http://localhost:3000/',
      response_type: 'code',
      scope: 'openid profile',
      automaticSilentRenew: true,
      silentRequestTimeoutInSeconds: 10,
    });
    const expiresAt = nowSeconds() + 600;
    await manager.storeUser(
      new User({
        access_token: 'token-from-library',
        token_type: 'Bearer',
        refresh_token: 'refresh',
        expires_at: expiresAt,
        profile: {
          sub: 's-9',
          preferred_username: 'dave',
          iss: PLACE.authority,
          aud: PLACE.clientId,
          exp: expiresAt,
          iat: expiresAt - 600,
        },
      }),
    );

    expect(Object.keys(window.sessionStorage)).toEqual([KEY]);
    expect(readStoredUser(window.sessionStorage, PLACE)).toEqual({ accessToken: 'token-from-library', expiresAt, who: 'dave' });
    await manager.removeUser();
    manager.stopSilentRenew();
  });
});
