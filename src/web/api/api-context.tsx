import { createContext, type ReactNode, useContext, useMemo, useRef } from 'react';
import { useAuth } from 'react-oidc-context';
import { currentAddress } from '../navigation.js';
import { useBusyCounter } from '../components/busy.js';
import { type ApiClient, createApiClient } from './api-client.js';

const ApiContext = createContext<ApiClient | null>(null);

/** Builds the api client for the signed-in user; tests provide their own client instead. */
export function SignedInApiProvider({
  children,
  onUndoable,
}: {
  children: ReactNode;
  onUndoable?: (token: string, message: string) => void;
}) {
  const auth = useAuth();
  const busy = useBusyCounter();
  // The client stays the same object across token renewals; it reads the latest auth state.
  const authRef = useRef(auth);
  authRef.current = auth;
  const undoRef = useRef(onUndoable);
  undoRef.current = onUndoable;
  const client = useMemo(
    () =>
      createApiClient({
        getAccessToken: () => authRef.current.user?.access_token,
        onUnauthorized: () => {
          const current = authRef.current;
          void current.removeUser().then(() => current.signinRedirect({ state: { returnTo: currentAddress() } }));
        },
        onCallStart: busy.start,
        onCallEnd: busy.end,
        onUndoable: (token, message) => undoRef.current?.(token, message),
      }),
    [busy],
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
