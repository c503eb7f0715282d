/**
 * Home's "Accounts" (issue 25, decisions 0044 and 0045): with more than one account, the warnings of
 * the accounts other than the primary one (whose warning is Home's own, named from its forecast)
 * and every account's current balance. A chunk loaded alongside Home's requests, with the
 * accounts' calls: the first view's script carries none of it (benchmark 4a).
 */
import { useEffect, useId, useState } from 'react';
import type { AccountView, ForecastWarningsView } from '../../../contract/account-codecs.js';
import type { BalancePoint } from '../../../domain/forecast.js';
import { type Cents, formatUsd } from '../../../domain/money.js';
import { useAccountsApi } from '../../api/account-calls.js';
import { ApiCallError } from '../../api/api-client.js';
import { BelowZeroWarning } from '../../forecast/below-zero-warning.js';
import { OverLimitWarning } from '../../forecast/over-limit-warning.js';

interface AccountBalancesProps {
  /** The accounts as read, handed on so Home's other parts (Can I afford it?'s Account field) need no second read. */
  readonly onAccounts?: ((accounts: readonly AccountView[]) => void) | undefined;
  /** Counts Home's reads of its answers (0 before the first): each read, an undo's too, reads the balances again. */
  readonly reads: number;
  /**
   * The primary account's current balance as Home's forecast last answered it: a row paid or added
   * on Home moves it at once, without reading every account again.
   */
  readonly primaryBalance: Cents | undefined;
}

/** Another account's warning: its balance going below $0, or a card going over its limit. */
type AccountWarning =
  | { readonly kind: 'below'; readonly account: AccountView; readonly point: BalancePoint }
  | { readonly kind: 'over'; readonly account: AccountView; readonly creditLimit: Cents; readonly point: BalancePoint };

interface Read {
  readonly accounts: readonly AccountView[];
  readonly warnings: readonly AccountWarning[];
  /** Some account's forecast could not be read: its warning may be missing. */
  readonly incomplete: boolean;
}

/**
 * Whose forecasts Home reads beside its own: every other account that can warn. A card warns only
 * of its limit (its balance is below $0 whenever it is owed), so a card without one is not read.
 */
function warnable(account: AccountView): boolean {
  return !account.primary && (account.card === null || account.card.creditLimit !== null);
}

function warningOf(account: AccountView, forecast: ForecastWarningsView | null): AccountWarning | null {
  if (forecast === null) return null;
  const creditLimit = account.card?.creditLimit ?? null;
  if (account.card !== null) {
    const over = forecast.firstOverLimit ?? null;
    return creditLimit !== null && over !== null ? { kind: 'over', account, creditLimit, point: over } : null;
  }
  return forecast.firstBelowZero && { kind: 'below', account, point: forecast.firstBelowZero };
}

export function AccountBalances({ reads, primaryBalance, onAccounts }: AccountBalancesProps) {
  const accountsApi = useAccountsApi();
  const headingId = useId();
  // Null when the list could not be read.
  const [read, setRead] = useState<Read | null>({ accounts: [], warnings: [], incomplete: false });

  useEffect(() => {
    if (reads === 0) return;
    let current = true;
    void (async () => {
      let accounts: readonly AccountView[];
      try {
        accounts = (await accountsApi.listAccounts()).accounts;
      } catch {
        if (current) setRead(null);
        return;
      }
      if (current) onAccounts?.(accounts);
      // One account: its warning is Home's own. Several: the others' forecasts, all at once.
      const others = accounts.length > 1 ? accounts.filter(warnable) : [];
      // The balances first, so the warnings' status region is on the page before they come; warnings
      // already shown stay until the new ones replace them (a region that empties and fills speaks twice).
      if (current)
        setRead((previous) => (others.length > 0 && previous ? { ...previous, accounts } : { accounts, warnings: [], incomplete: false }));
      if (others.length === 0) return;
      const forecasts = await Promise.allSettled(
        others.map((account) =>
          accountsApi.getForecastWarnings(account.id).catch((error: unknown) => {
            // An account without a ledger has no forecast, and nothing to warn of.
            if (error instanceof ApiCallError && error.status === 404) return null;
            throw error;
          }),
        ),
      );
      const warnings: AccountWarning[] = [];
      forecasts.forEach((forecast, index) => {
        const warning = forecast.status === 'fulfilled' ? warningOf(others[index] as AccountView, forecast.value) : null;
        if (warning) warnings.push(warning);
      });
      if (current) setRead({ accounts, warnings, incomplete: forecasts.some((forecast) => forecast.status === 'rejected') });
    })();
    return () => {
      current = false;
    };
  }, [reads, accountsApi, onAccounts]);

  // Said here, not in Home's error dialog: Home's own reads would close it, and the rest of Home stands.
  if (read === null) return <p className="text-body-secondary mt-3 mb-0">The accounts' balances have not loaded.</p>;
  const { accounts, warnings, incomplete } = read;
  // With one account its balance and warning are Home's own: nothing to list.
  if (accounts.length < 2) return null;
  return (
    <>
      {/* A status, there before it has words, so the warnings are read out when they come. */}
      <div role="status">
        {warnings.map((warning) =>
          warning.kind === 'over' ? (
            <OverLimitWarning
              key={warning.account.id}
              card={warning.account.name}
              creditLimit={warning.creditLimit}
              over={warning.point}
              className="mt-3 mb-0"
            />
          ) : (
            <BelowZeroWarning key={warning.account.id} below={warning.point} account={warning.account.name} className="mt-3 mb-0" />
          ),
        )}
        {incomplete && <p className="text-body-secondary mt-3 mb-0">Some accounts' warnings have not loaded.</p>}
      </div>
      <div className="mt-3">
        <h3 id={headingId} className="h6 mb-1">
          Accounts
        </h3>
        <ul aria-labelledby={headingId} className="list-unstyled mb-0">
          {accounts.map((account) => (
            <li key={account.id} className="d-flex gap-2">
              <span>{account.name}</span>
              <span className="ms-auto">
                {formatUsd(account.primary && primaryBalance !== undefined ? primaryBalance : account.currentBalance)}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
