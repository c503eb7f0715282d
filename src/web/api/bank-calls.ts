/**
 * Bank connections' calls (issue 37, decision 0082): connect with a SimpleFIN Setup Token, list the
 * connections, link a bridge account, Sync now, disconnect. Built on the api client's own `request`,
 * in Settings' lazy chunk: the page's first view carries none of it (benchmark 4a). The bridge's
 * balances are decoded into Cents here, once (decision 0034).
 */
import { createContext, useContext, useMemo } from 'react';
import * as z from 'zod/mini';
import {
  bankConnectionSchema,
  bankConnectionsSchema,
  bankRemoteAccountSchema,
  bankSyncAnswerSchema,
  type BankSyncAnswer,
  type linkBankAccountRequestSchema,
} from '../../contract/bank-connections.js';
import { centsFromDollars } from '../../contract/codecs.js';
import { useApiClient } from './api-context.js';
import { type ApiClient, endpoint } from './api-client.js';

const bankRemoteAccountCodec = z.extend(bankRemoteAccountSchema, { balance: z.nullable(centsFromDollars) });
const bankConnectionCodec = z.extend(bankConnectionSchema, { accounts: z.array(bankRemoteAccountCodec) });
const bankConnectionsCodec = z.extend(bankConnectionsSchema, { connections: z.array(bankConnectionCodec) });

export type BankConnectionView = z.output<typeof bankConnectionCodec>;
export type BankRemoteAccountView = z.output<typeof bankRemoteAccountCodec>;
export type BankConnectionsView = z.output<typeof bankConnectionsCodec>;

/** What a link asks: an account's id, a new account, or null to unlink (exactly one of them). */
export type BankAccountLink = z.output<typeof linkBankAccountRequestSchema>;

export interface BankApi {
  /** The caller's connections, oldest first. */
  readonly listConnections: () => Promise<BankConnectionsView>;
  /** Claims the Setup Token; a token claimed before answers 400 with the words on `setupToken`. */
  readonly connect: (setupToken: string) => Promise<BankConnectionView>;
  readonly linkAccount: (id: string, remoteId: string, link: BankAccountLink) => Promise<BankConnectionView>;
  /** Sync now: 429 within a minute of the last request, 409 with the reason when the bridge fails. */
  readonly syncNow: (id: string) => Promise<BankSyncAnswer>;
  /** Answers the connections left. */
  readonly disconnect: (id: string) => Promise<BankConnectionsView>;
}

/** A path with several parameters, filled in here: endpoint() fills only a trailing `:id`. */
function filled(path: string, parameters: Readonly<Record<string, string>>): string {
  return path.replace(/:([A-Za-z]+)/g, (whole, name: string) => {
    const value = parameters[name];
    return value === undefined ? whole : encodeURIComponent(value);
  });
}

export function bankApi(api: ApiClient): BankApi {
  return {
    listConnections: () => api.request({ ...endpoint('listBankConnections'), answer: bankConnectionsCodec }),
    connect: (setupToken) => api.request({ ...endpoint('connectBank'), answer: bankConnectionCodec, body: { setupToken } }),
    linkAccount: (id, remoteId, link) => {
      const { path, ...call } = endpoint('linkBankAccount');
      return api.request({ ...call, path: filled(path, { id, remoteId }), answer: bankConnectionCodec, body: link });
    },
    syncNow: (id) => {
      const { path, ...call } = endpoint('syncBankConnection');
      return api.request({ ...call, path: filled(path, { id }), answer: bankSyncAnswerSchema });
    },
    disconnect: (id) => api.request({ ...endpoint('disconnectBank', id), answer: bankConnectionsCodec }),
  };
}

const BankApiContext = createContext<BankApi | null>(null);

/** Component tests hand Settings their own bank calls; the page builds them from the api client. */
export const BankApiProvider = BankApiContext.Provider;

export function useBankApi(): BankApi {
  const api = useApiClient();
  const given = useContext(BankApiContext);
  return useMemo(() => given ?? bankApi(api), [given, api]);
}
