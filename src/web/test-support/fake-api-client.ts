/**
 * The api client as component tests see it: the network is stubbed only here, at the one piece of
 * the page that calls fetch, and every method is a typed mock the test can program and inspect.
 */
import { type Mock, vi } from 'vitest';
import type { AccountsApi } from '../api/account-calls.js';
import type { ApiClient } from '../api/api-client.js';
import type { BankApi } from '../api/bank-calls.js';
import type { BudgetsApi } from '../api/budgets-api-context.js';
import type { SettingsApi } from '../api/settings-calls.js';
import type { YourDataApi } from '../api/your-data-calls.js';

export type FakeApiClient = { [Method in Exclude<keyof ApiClient, 'request' | 'download' | 'inHand'>]: Mock<ApiClient[Method]> } & {
  /** Generic, so not a typed mock: the calls built on it are faked whole instead (fakeAccountsApi, fakeYourDataApi). */
  readonly request: ApiClient['request'];
  readonly inHand: ApiClient['inHand'];
  readonly download: ApiClient['download'];
};

/** Every call fails unless the test stubs it: a section must not call what it does not need. */
export function fakeApiClient(stubs: Partial<FakeApiClient> = {}): FakeApiClient {
  const unexpected = (name: string) => () => Promise.reject(new Error(`unexpected call: ${name}`));
  const fake: FakeApiClient = {
    getDeposits: vi.fn(unexpected('getDeposits')),
    // No first script ran: nothing is in hand, and views load as they always did.
    depositsInHand: vi.fn(() => undefined),
    addDeposit: vi.fn(unexpected('addDeposit')),
    updateDeposit: vi.fn(unexpected('updateDeposit')),
    deleteDeposit: vi.fn(unexpected('deleteDeposit')),
    getExpenses: vi.fn(unexpected('getExpenses')),
    expensesInHand: vi.fn(() => undefined),
    addExpense: vi.fn(unexpected('addExpense')),
    updateExpense: vi.fn(unexpected('updateExpense')),
    deleteExpense: vi.fn(unexpected('deleteExpense')),
    getLedger: vi.fn(unexpected('getLedger')),
    getLedgerInHand: vi.fn(() => undefined),
    createLedger: vi.fn(unexpected('createLedger')),
    extendLedger: vi.fn(unexpected('extendLedger')),
    addTransaction: vi.fn(unexpected('addTransaction')),
    updateTransaction: vi.fn(unexpected('updateTransaction')),
    deleteTransaction: vi.fn(unexpected('deleteTransaction')),
    previewStatement: vi.fn(unexpected('previewStatement')),
    importStatement: vi.fn(unexpected('importStatement')),
    exportLedgerCsv: vi.fn(unexpected('exportLedgerCsv')),
    getForecast: vi.fn(unexpected('getForecast')),
    moveRowStatus: vi.fn(unexpected('moveRowStatus')),
    addTransactionChanges: vi.fn(unexpected('addTransactionChanges')),
    undo: vi.fn(unexpected('undo')),
    request: vi.fn(unexpected('request')) as ApiClient['request'],
    inHand: () => undefined,
    download: vi.fn(unexpected('download')),
    withEndpoints: vi.fn(() => {
      throw new Error('unexpected call: withEndpoints');
    }),
    // The spinner is the page's, not the client's: in the background it is the same fake, its stubs and records.
    inBackground: vi.fn(() => fake),
    ...stubs,
  };
  return fake;
}

export type FakeAccountsApi = { [Method in keyof AccountsApi]: Mock<AccountsApi[Method]> };

/** The accounts' calls (account-calls.ts), each a typed mock; every call fails unless the test stubs it. */
export function fakeAccountsApi(stubs: Partial<FakeAccountsApi> = {}): FakeAccountsApi {
  const unexpected = (name: string) => () => Promise.reject(new Error(`unexpected call: ${name}`));
  return {
    listAccounts: vi.fn(unexpected('listAccounts')),
    accountsInHand: vi.fn(() => undefined),
    addAccount: vi.fn(unexpected('addAccount')),
    renameAccount: vi.fn(unexpected('renameAccount')),
    makePrimary: vi.fn(unexpected('makePrimary')),
    updateCard: vi.fn(unexpected('updateCard')),
    removeAccount: vi.fn(unexpected('removeAccount')),
    addTransfer: vi.fn(unexpected('addTransfer')),
    getForecastWarnings: vi.fn(unexpected('getForecastWarnings')),
    ...stubs,
  };
}

export type FakeYourDataApi = { [Method in keyof YourDataApi]: Mock<YourDataApi[Method]> };

/** Your data's calls (your-data-calls.ts), each a typed mock; every call fails unless the test stubs it. */
export function fakeYourDataApi(stubs: Partial<FakeYourDataApi> = {}): FakeYourDataApi {
  const unexpected = (name: string) => () => Promise.reject(new Error(`unexpected call: ${name}`));
  return {
    exportYourData: vi.fn(unexpected('exportYourData')),
    restoreYourData: vi.fn(unexpected('restoreYourData')),
    deleteYourData: vi.fn(unexpected('deleteYourData')),
    ...stubs,
  };
}

export type FakeSettingsApi = { [Method in keyof SettingsApi]: Mock<SettingsApi[Method]> };

/** Settings' calls (settings-calls.ts), each a typed mock; every call fails unless the test stubs it. */
export function fakeSettingsApi(stubs: Partial<FakeSettingsApi> = {}): FakeSettingsApi {
  const unexpected = (name: string) => () => Promise.reject(new Error(`unexpected call: ${name}`));
  return {
    updateTimeZone: vi.fn(unexpected('updateTimeZone')),
    getNotifications: vi.fn(unexpected('getNotifications')),
    updateNotifications: vi.fn(unexpected('updateNotifications')),
    addChannel: vi.fn(unexpected('addChannel')),
    removeChannel: vi.fn(unexpected('removeChannel')),
    testChannel: vi.fn(unexpected('testChannel')),
    getPushKey: vi.fn(unexpected('getPushKey')),
    getProfile: vi.fn(unexpected('getProfile')),
    updateBuffer: vi.fn(unexpected('updateBuffer')),
    updateEveryday: vi.fn(unexpected('updateEveryday')),
    getEverydaySuggestion: vi.fn(unexpected('getEverydaySuggestion')),
    ...stubs,
  };
}

export type FakeBankApi = { [Method in keyof BankApi]: Mock<BankApi[Method]> };

/** The bank connections' calls (bank-calls.ts), each a typed mock; every call fails unless the test stubs it. */
export function fakeBankApi(stubs: Partial<FakeBankApi> = {}): FakeBankApi {
  const unexpected = (name: string) => () => Promise.reject(new Error(`unexpected call: ${name}`));
  return {
    listConnections: vi.fn(unexpected('listConnections')),
    connect: vi.fn(unexpected('connect')),
    linkAccount: vi.fn(unexpected('linkAccount')),
    syncNow: vi.fn(unexpected('syncNow')),
    disconnect: vi.fn(unexpected('disconnect')),
    ...stubs,
  };
}

export type FakeBudgetsApi = { [Method in keyof BudgetsApi]: Mock<BudgetsApi[Method]> };

/** The budgets' calls (budget-calls.ts), each a typed mock; every call fails unless the test stubs it. */
export function fakeBudgetsApi(stubs: Partial<FakeBudgetsApi> = {}): FakeBudgetsApi {
  const unexpected = (name: string) => () => Promise.reject(new Error(`unexpected call: ${name}`));
  return {
    listBudgets: vi.fn(unexpected('listBudgets')),
    createBudget: vi.fn(unexpected('createBudget')),
    listMembers: vi.fn(unexpected('listMembers')),
    changeRole: vi.fn(unexpected('changeRole')),
    removeMember: vi.fn(unexpected('removeMember')),
    leaveBudget: vi.fn(unexpected('leaveBudget')),
    setBudgetNotify: vi.fn(unexpected('setBudgetNotify')),
    listInvitations: vi.fn(unexpected('listInvitations')),
    createInvitation: vi.fn(unexpected('createInvitation')),
    revokeInvitation: vi.fn(unexpected('revokeInvitation')),
    sendInvitation: vi.fn(unexpected('sendInvitation')),
    viewInvitation: vi.fn(unexpected('viewInvitation')),
    acceptInvitation: vi.fn(unexpected('acceptInvitation')),
    declineInvitation: vi.fn(unexpected('declineInvitation')),
    ...stubs,
  };
}
