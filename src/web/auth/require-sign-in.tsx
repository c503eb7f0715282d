import { Button } from '../components/button.js';
import { type ReactNode, useEffect, useRef } from 'react';
import { hasAuthParams, useAuth } from 'react-oidc-context';
import { currentAddress } from '../navigation.js';
import type { ReturnState } from './sign-in-settings.js';

/**
 * Shows nothing until the sign-in state is known, sends a signed-out visitor to the provider
 * (remembering the address), and sends them again when the session cannot be renewed.
 */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const redirecting = useRef(false);

  const signedOut = !auth.isLoading && !auth.isAuthenticated && !auth.activeNavigator && !auth.error && !hasAuthParams();
  useEffect(() => {
    if (signedOut && !redirecting.current) {
      redirecting.current = true;
      const state: ReturnState = { returnTo: currentAddress() };
      void auth.signinRedirect({ state });
    }
  }, [signedOut, auth]);

  useEffect(() => {
    // When the token can neither be renewed nor used, sign in again and come back here.
    const signInAgain = () => {
      const state: ReturnState = { returnTo: currentAddress() };
      void auth.removeUser().then(() => auth.signinRedirect({ state }));
    };
    const removeExpired = auth.events.addAccessTokenExpired(signInAgain);
    const removeRenewError = auth.events.addSilentRenewError(signInAgain);
    return () => {
      removeExpired();
      removeRenewError();
    };
  }, [auth]);

  if (auth.error && !auth.isAuthenticated) {
    return (
      <main className="container py-5">
        <div className="alert alert-danger" role="alert">
          <h1 className="alert-heading h4">Sign-in did not work</h1>
          <p>{auth.error.message}</p>
          <Button variant="success" onClick={() => void auth.signinRedirect({ state: { returnTo: '/' } satisfies ReturnState })}>
            Sign in again
          </Button>
        </div>
      </main>
    );
  }
  if (!auth.isAuthenticated) return null;
  return <>{children}</>;
}
