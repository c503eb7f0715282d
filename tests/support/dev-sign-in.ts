/**
 * Signs in through the embedded development provider over real HTTP, the way a browser would
 * (authorization code with PKCE), and returns the tokens the page would hold.
 */
import crypto from 'node:crypto';

export interface SignedIn {
  readonly accessToken: string;
  readonly idToken: string;
  readonly refreshToken?: string;
  /** The access token's life in seconds, as the token endpoint answered it. */
  readonly expiresIn?: number;
  /** The provider's cookies after sign-in (its session): what a browser would send it next. */
  readonly cookies: string;
}

class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) this.cookies.set(name.trim(), value.join('='));
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

async function follow(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.store(response);
  return response;
}

export async function signInThroughDevProvider(origin: string, userName: string, clientId = 'leftover-web'): Promise<SignedIn> {
  const jar = new CookieJar();
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  const redirectUri = `${origin}/login/callback`;
  const authorize = new URL(`${origin}/oidc/auth`);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: crypto.randomUUID(),
  }).toString();

  let response = await follow(jar, authorize.href);
  const signInPage = new URL(response.headers.get('location') ?? '', origin).href;
  response = await follow(jar, signInPage, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: userName }).toString(),
  });
  let location = response.headers.get('location');
  // Follow the provider's own redirects until it sends the browser back to the page.
  for (let hops = 0; location && !location.startsWith(redirectUri) && hops < 5; hops += 1) {
    response = await follow(jar, new URL(location, origin).href);
    location = response.headers.get('location');
  }
  if (!location?.startsWith(redirectUri))
    throw new Error(`sign-in did not return to the page (status ${response.status}, location ${location})`);
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);

  const token = await fetch(`${origin}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    }).toString(),
  });
  const body = (await token.json()) as {
    access_token?: string;
    id_token?: string;
    refresh_token?: string;
    expires_in?: number;
    error?: string;
    error_description?: string;
  };
  if (!token.ok || !body.access_token || !body.id_token) throw new Error(`token request failed: ${JSON.stringify(body)}`);
  return {
    accessToken: body.access_token,
    idToken: body.id_token,
    refreshToken: body.refresh_token,
    expiresIn: body.expires_in,
    cookies: jar.header(),
  };
}

/**
 * Asks the provider again with the session's cookies and prompt=none, as a returning browser
 * would: answers the redirect back to the page, which carries a code while the session lives and
 * error=login_required once it is gone.
 */
export async function authorizeSilently(origin: string, cookies: string, clientId = 'leftover-web'): Promise<URL> {
  const challenge = crypto.createHash('sha256').update(crypto.randomBytes(32).toString('base64url')).digest('base64url');
  const authorize = new URL(`${origin}/oidc/auth`);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: `${origin}/login/callback`,
    response_type: 'code',
    scope: 'openid profile',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: crypto.randomUUID(),
    prompt: 'none',
  }).toString();
  let response = await fetch(authorize, { redirect: 'manual', headers: { cookie: cookies } });
  let location = response.headers.get('location');
  for (let hops = 0; location && !location.startsWith(`${origin}/login/callback`) && hops < 5; hops += 1) {
    response = await fetch(new URL(location, origin), { redirect: 'manual', headers: { cookie: cookies } });
    location = response.headers.get('location');
  }
  if (!location) throw new Error(`silent sign-in did not redirect (status ${response.status})`);
  return new URL(location, origin);
}
