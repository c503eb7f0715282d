import { createContext, type ReactNode, useContext, useEffect, useSyncExternalStore } from 'react';
import type { SessionState, SignInSession } from './session.js';

const SignInContext = createContext<SignInSession | null>(null);

/** Hands the session to the page, and starts it once the page has committed its first render. */
export function SignInProvider({ session, children }: { session: SignInSession; children: ReactNode }) {
  useEffect(() => session.start(), [session]);
  return <SignInContext.Provider value={session}>{children}</SignInContext.Provider>;
}

export function useSignInSession(): SignInSession {
  const session = useContext(SignInContext);
  if (!session) throw new Error('useSignInSession needs a SignInProvider');
  return session;
}

/** The signed-in user and the last sign-in failure, re-rendering when either changes. */
export function useSignInState(): SessionState {
  const session = useSignInSession();
  return useSyncExternalStore(session.subscribe, session.snapshot);
}

const NO_SESSION = () => () => undefined;

/** Who is signed in, as the top bar names them; undefined outside a SignInProvider (a component test's Settings). */
export function useSignedInName(): string | undefined {
  const session = useContext(SignInContext);
  return useSyncExternalStore(session?.subscribe ?? NO_SESSION, () => session?.snapshot().user?.who);
}
