/**
 * The accounts' calls (issue 25, decision 0044) and one account's ledger calls, built on the api
 * client's own `request` and `withEndpoints`. A lazy chunk: only the Ledger and Plan views and
 * Home's list of balances load it, so the page's first view carries none of it (benchmark 4a).
 */
import {
  accountCodec,
  accountsInfoCodec,
  type AccountsInfoView,
  type AccountView,
  type ForecastWarningsView,
  forecastWarningsCodec,
} from '../../contract/account-codecs.js';
import type { CardInput, NewAccount } from '../../contract/account-input.js';
import { ledgerInfoCodec, type LedgerInfoView } from '../../contract/codecs.js';
import type { NewTransfer } from '../../contract/transfers.js';
import { type ApiOperation, type EndpointRow, ENDPOINTS } from '../../contract/common.js';
import { createContext, useContext, useMemo } from 'react';
import { useApiClient } from './api-context.js';
import { type ApiClient, endpoint, type Endpoints } from './api-client.js';
import type { Endpoint } from './api-request.js';

/**
 * Where one account's ledger calls go: each row's own path (`/api/accounts/:id/ledger/...`, not its
 * alias on the primary account, decision 0059), with the account (and the row, for a delete) in place.
 */
export function accountEndpoints(accountId: string): Endpoints {
  const inAccount = (operation: ApiOperation, id?: string): Endpoint => {
    const row: EndpointRow = ENDPOINTS[operation];
    // Only the ledger's calls are an account's own; every other call goes where it always does.
    if (row.primary === undefined) return (endpoint as (operation: ApiOperation, id?: string) => Endpoint)(operation, id);
    return {
      operation,
      method: row.method,
      path: row.path.replace(':id', encodeURIComponent(accountId)).replace(':transaction', encodeURIComponent(id ?? '')),
    };
  };
  return inAccount as Endpoints;
}

/**
 * The client for one account's ledger: the ledger calls (retrieve, create, extend, rows, statements,
 * CSV) go to that account's paths and answer the same, so the ledger's components work unchanged.
 */
export function accountLedgerApi(api: ApiClient, accountId: string): ApiClient {
  return api.withEndpoints(accountEndpoints(accountId));
}

export interface AccountsApi {
  readonly listAccounts: () => Promise<AccountsInfoView>;
  /** The accounts the first script asked for, when their answer is in (decision 0109). */
  readonly accountsInHand: () => AccountsInfoView | undefined;
  readonly addAccount: (account: NewAccount) => Promise<AccountView>;
  readonly renameAccount: (id: string, name: string) => Promise<AccountView>;
  readonly makePrimary: (id: string) => Promise<AccountView>;
  /** A card's new settings; the server projects its payments afresh (decision 0045). */
  readonly updateCard: (id: string, card: CardInput) => Promise<AccountView>;
  /** Deletes it and its ledger; `confirm` is its name as the user typed it. Answers the accounts left. */
  readonly removeAccount: (id: string, confirm: string) => Promise<AccountsInfoView>;
  /** A one-off transfer (decision 0043): a debit in From, a credit in To. Answers From's ledger; undoable. */
  readonly addTransfer: (transfer: NewTransfer) => Promise<LedgerInfoView>;
  /** The account's forecast, as much of it as its warnings need (decision 0045); a 404 without a ledger. */
  readonly getForecastWarnings: (id: string) => Promise<ForecastWarningsView>;
}

export function accountsApi(api: ApiClient): AccountsApi {
  return {
    listAccounts: () => api.request({ ...endpoint('listAccounts'), answer: accountsInfoCodec }),
    accountsInHand: () => api.inHand({ ...endpoint('listAccounts'), answer: accountsInfoCodec }),
    addAccount: (account) => api.request({ ...endpoint('addAccount'), answer: accountCodec, body: account }),
    renameAccount: (id, name) => api.request({ ...endpoint('updateAccount', id), answer: accountCodec, body: { name } }),
    makePrimary: (id) => api.request({ ...endpoint('updateAccount', id), answer: accountCodec, body: { primary: true } }),
    updateCard: (id, card) => api.request({ ...endpoint('updateAccount', id), answer: accountCodec, body: { card } }),
    removeAccount: (id, confirm) => api.request({ ...endpoint('removeAccount', id), answer: accountsInfoCodec, body: { confirm } }),
    addTransfer: (transfer) =>
      api.request({
        ...endpoint('addTransfer'),
        answer: ledgerInfoCodec,
        body: transfer,
        ledgerOf: (info) => info.ledger,
        undo: `Added ${transfer.name ?? 'the transfer'}.`,
      }),
    getForecastWarnings: (id) => api.request({ ...accountEndpoints(id)('getForecast'), answer: forecastWarningsCodec }),
  };
}

const AccountsApiContext = createContext<AccountsApi | null>(null);

/** Component tests hand the views their own accounts' calls; the page builds them from the api client. */
export const AccountsApiProvider = AccountsApiContext.Provider;

export function useAccountsApi(): AccountsApi {
  const api = useApiClient();
  const given = useContext(AccountsApiContext);
  return useMemo(() => given ?? accountsApi(api), [given, api]);
}
