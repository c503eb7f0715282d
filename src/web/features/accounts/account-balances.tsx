/**
 * Home's "Accounts" (issue 25, decision 0044): every account's current balance, when there is more
 * than one. A chunk loaded alongside Home's requests, with the accounts' calls: the first view's
 * script carries neither (benchmark 4a).
 */
import { useEffect, useId, useState } from 'react';
import type { AccountView } from '../../../contract/account-codecs.js';
import { type Cents, formatUsd } from '../../../domain/money.js';
import { useAccountsApi } from '../../api/account-calls.js';

interface AccountBalancesProps {
  /** Counts Home's reads of its answers (0 before the first): each read, an undo's too, reads the balances again. */
  readonly reads: number;
  /**
   * The primary account's current balance as Home's forecast last answered it: a row paid or added
   * on Home moves it at once, without reading every account again.
   */
  readonly primaryBalance: Cents | undefined;
}

export function AccountBalances({ reads, primaryBalance }: AccountBalancesProps) {
  const accountsApi = useAccountsApi();
  const headingId = useId();
  // Null when the last read failed.
  const [accounts, setAccounts] = useState<readonly AccountView[] | null>([]);

  useEffect(() => {
    if (reads === 0) return;
    let current = true;
    accountsApi.listAccounts().then(
      (info) => {
        if (current) setAccounts(info.accounts);
      },
      () => {
        if (current) setAccounts(null);
      },
    );
    return () => {
      current = false;
    };
  }, [reads, accountsApi]);

  // Said here, not in Home's error dialog: Home's own reads would close it, and the rest of Home stands.
  if (accounts === null) return <p className="text-body-secondary mt-3 mb-0">The accounts' balances have not loaded.</p>;
  // With one account its balance is Home's own: nothing to list.
  if (accounts.length < 2) return null;
  return (
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
  );
}
