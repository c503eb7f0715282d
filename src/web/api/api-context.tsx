import { createContext, type ReactNode, useContext, useMemo, useRef } from 'react';
import { useSignInSession } from '../auth/sign-in-context.js';
import { useBusyCounter } from '../components/busy.js';
import { type ApiClient, createApiClient } from './api-client.js';

const ApiContext = createContext<ApiClient | null>(null);

/** Builds the api client for the signed-in user; tests provide their own client instead. */
export function SignedInApiProvider({
  children,
  onUndoable,
  budget,
  onBudgetGone,
}: {
  children: ReactNode;
  onUndoable?: (token: string, message: string) => void;
  /** The budget in view when it is not the personal one: every call names it (decision 0092). */
  budget?: string;
  onBudgetGone?: () => void;
}) {
  const session = useSignInSession();
  const busy = useBusyCounter();
  const undoRef = useRef(onUndoable);
  undoRef.current = onUndoable;
  const goneRef = useRef(onBudgetGone);
  goneRef.current = onBudgetGone;
  const client = useMemo(
    () =>
      createApiClient({
        // The client stays the same object across token renewals; it asks the session for the latest token.
        getAccessToken: () => session.accessToken(),
        onUnauthorized: () => void session.signInAgain(),
        onCallStart: busy.start,
        onCallEnd: busy.end,
        onUndoable: (token, message) => undoRef.current?.(token, message),
        budget,
        onBudgetGone: () => goneRef.current?.(),
      }),
    [busy, session, budget],
  );
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

export function ApiClientProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

export function useApiClient(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApiClient needs an api client provider');
  return client;
}
