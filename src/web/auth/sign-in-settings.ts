import { WebStorageStateStore } from 'oidc-client-ts';
import type { AuthProviderProps } from 'react-oidc-context';
import type { AppConfig } from '../../contract/app-config.js';
import { navigate, safeReturnAddress } from '../navigation.js';

export const CALLBACK_PATH = '/login/callback';

export interface ReturnState {
  readonly returnTo: string;
}

function isReturnState(state: unknown): state is ReturnState {
  return typeof state === 'object' && state !== null && 'returnTo' in state;
}

/**
 * Authorization code with PKCE (oidc-client-ts always uses it), scopes openid and profile. The
 * tokens live in sessionStorage, never localStorage, so they end with the tab.
 */
export function signInSettings(config: AppConfig, origin: string): AuthProviderProps {
  return {
    authority: config.oidc.issuer,
    client_id: config.oidc.clientId,
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    scope: 'openid profile',
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
    automaticSilentRenew: true,
    // Renewal uses the refresh token; the page forbids framing, so no hidden-iframe renewal.
    silentRequestTimeoutInSeconds: 10,
    onSigninCallback: (user) => {
      const returnTo = isReturnState(user?.state) ? safeReturnAddress(user.state.returnTo) : '/';
      // Replace the callback address (with its one-time code) by the address first asked for.
      navigate(returnTo, { replace: true });
    },
  };
}
