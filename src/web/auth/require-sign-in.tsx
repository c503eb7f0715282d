import type { ReactNode } from 'react';
import { Button } from '../components/button.js';
import { useSignInSession, useSignInState } from './sign-in-context.js';

/**
 * Shows the page while someone is signed in, the failure with "Sign in again" when signing in did
 * not work, and nothing while the session sends a signed-out visitor to the provider (session.ts).
 */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const session = useSignInSession();
  const { user, error } = useSignInState();
  if (user) return <>{children}</>;
  if (error !== undefined) {
    return (
      <main className="container py-5">
        <div className="alert alert-danger" role="alert">
          <h1 className="alert-heading h4">Sign-in did not work</h1>
          <p>{error}</p>
          <Button variant="success" onClick={() => void session.signIn('/')}>
            Sign in again
          </Button>
        </div>
      </main>
    );
  }
  return null;
}
