/**
 * Answers as the api client hands them to the page (decision 0034), from fixtures written as the
 * server sends them: dollars and date strings, decoded by the contract's own codecs.
 */
import * as z from 'zod/mini';
import {
  accountsInfoCodec,
  type AccountsInfoView,
  forecastWarningsCodec,
  type ForecastWarningsView,
} from '../../contract/account-codecs.js';
import type { AccountForecast, AccountInfo, AccountsInfo } from '../../contract/accounts.js';
import {
  depositsInfoCodec,
  type DepositsInfoView,
  expenseCodec,
  expensesInfoCodec,
  type ExpensesInfoView,
  type ExpenseView,
  forecastCodec,
  type ForecastView,
  ledgerCodec,
  type LedgerView,
} from '../../contract/codecs.js';
import type { DepositsInfo } from '../../contract/deposits.js';
import type { Expense, ExpensesInfo } from '../../contract/expenses.js';
import type { Forecast, Ledger } from '../../contract/ledger.js';
import {
  reconciliationCodec,
  type ReconciliationView,
  statementPreviewCodec,
  type StatementPreviewView,
} from '../../contract/statement-codecs.js';
import type { ReconciliationInfo, StatementPreview } from '../../contract/statements.js';

export const depositsAnswer = (answer: DepositsInfo): DepositsInfoView => z.decode(depositsInfoCodec, answer);
export const expenseAnswer = (expense: Expense): ExpenseView => z.decode(expenseCodec, expense);
export const expensesAnswer = (answer: ExpensesInfo): ExpensesInfoView => z.decode(expensesInfoCodec, answer);
export const ledgerAnswer = (ledger: Ledger): LedgerView => z.decode(ledgerCodec, ledger);
/** A forecast as the server answers it; with several accounts it names whose it is (decision 0045). */
export const forecastAnswer = (forecast: Forecast & { readonly account?: AccountForecast['account'] }): ForecastView =>
  z.decode(forecastCodec, forecast);
export const reconciliationAnswer = (reconciliation: ReconciliationInfo): ReconciliationView =>
  z.decode(reconciliationCodec, reconciliation);
export const statementPreviewAnswer = (answer: StatementPreview): StatementPreviewView => z.decode(statementPreviewCodec, answer);

export const accountsAnswer = (answer: AccountsInfo): AccountsInfoView => z.decode(accountsInfoCodec, answer);

/** Another account's forecast as Home reads it for its warnings (decision 0045): only what they need. */
export const forecastWarningsAnswer = (
  forecast: Pick<AccountForecast, 'today' | 'firstBelowZero' | 'firstOverLimit' | 'account'>,
): ForecastWarningsView => z.decode(forecastWarningsCodec, forecast);

/** An account as the server answers it, a checking account with no ledger unless told otherwise. */
export function accountInfo(account: Partial<AccountInfo> & Pick<AccountInfo, 'id' | 'name'>): AccountInfo {
  return { kind: 'CHECKING', currentBalance: 0, pendingBalance: 0, primary: false, card: null, ...account };
}
