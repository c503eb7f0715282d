/**
 * oidc-client-ts, in a chunk of its own (decision 0065): session.ts loads it at once when the page
 * has no usable signed-in user or is on the callback, and otherwise after the first paint.
 */
import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { CALLBACK_PATH, type SignInPlace } from './sign-in-settings.js';

/**
 * Authorization code with PKCE (oidc-client-ts always uses it), scopes openid and profile. The
 * tokens live in sessionStorage, never localStorage, so they end with the tab.
 */
export function createUserManager({ authority, clientId, origin }: SignInPlace): UserManager {
  return new UserManager({
    authority,
    client_id: clientId,
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    scope: 'openid profile',
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
    automaticSilentRenew: true,
    // Renewal uses the refresh token; the page forbids framing, so no hidden-iframe renewal.
    silentRequestTimeoutInSeconds: 10,
  });
}
