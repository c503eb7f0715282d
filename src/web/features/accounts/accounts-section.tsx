/**
 * Accounts (issue 25, decision 0044): where the user's money is, each with its own ledger. Lists
 * each account with its kind, current balance and the primary marker, and adds, renames, changes a
 * card's settings, makes primary and deletes them. A chunk of the Plan view: never the first view's
 * script.
 */
import type { CardInput, NewAccount } from '../../../contract/account-input.js';
import type { AccountsInfoView, AccountView } from '../../../contract/account-codecs.js';
import { formatUsd } from '../../../domain/money.js';
import { useAccountsApi } from '../../api/account-calls.js';
import { useSectionCall } from '../../api/use-section-call.js';
import { Button } from '../../components/button.js';
import { DataTable } from '../../components/data-table.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { lazyDialog } from '../../components/lazy-dialog.js';
import { useDialogState } from '../../components/use-dialog-state.js';
import type { SectionProps } from '../section-props.js';
import { KIND_LABELS } from './account-words.js';
import { AddTransferButton } from './add-transfer-button.js';

const AccountDialog = lazyDialog(() => import('./account-dialog.js').then((module) => module.AccountDialog));
const RenameAccountDialog = lazyDialog(() => import('./rename-account-dialog.js').then((module) => module.RenameAccountDialog));
const CardSettingsDialog = lazyDialog(() => import('./card-settings-dialog.js').then((module) => module.CardSettingsDialog));
const DeleteAccountDialog = lazyDialog(() => import('./delete-account-dialog.js').then((module) => module.DeleteAccountDialog));

export function AccountsSection({ info, onChange, onError }: SectionProps<AccountsInfoView>) {
  const accountsApi = useAccountsApi();
  const run = useSectionCall(onChange, onError);
  const adding = useDialogState(false);
  const renaming = useDialogState<AccountView | null>(null);
  const cardSettings = useDialogState<AccountView | null>(null);
  const deletion = useDialogState<AccountView | null>(null);
  const accounts = info?.accounts ?? [];

  // An add, a rename or a new primary answers one account; the list is read again, since making one
  // primary changes another too.
  const add = (account: NewAccount): Promise<SaveOutcome> =>
    adding.closeAfter(run(() => accountsApi.addAccount(account).then(accountsApi.listAccounts)));
  const rename = (name: string): Promise<SaveOutcome> => {
    const account = renaming.target;
    return account
      ? renaming.closeAfter(run(() => accountsApi.renameAccount(account.id, name).then(accountsApi.listAccounts)))
      : Promise.resolve({});
  };
  const changeCard = (card: CardInput): Promise<SaveOutcome> => {
    const account = cardSettings.target;
    return account
      ? cardSettings.closeAfter(run(() => accountsApi.updateCard(account.id, card).then(accountsApi.listAccounts)))
      : Promise.resolve({});
  };
  const makePrimary = (account: AccountView) => void run(() => accountsApi.makePrimary(account.id).then(accountsApi.listAccounts));
  const remove = (confirm: string): Promise<SaveOutcome> => {
    const account = deletion.target;
    return account ? deletion.closeAfter(run(() => accountsApi.removeAccount(account.id, confirm))) : Promise.resolve({});
  };

  return (
    <>
      {info ? (
        <DataTable responsive className="align-middle">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Current Balance</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((account) => (
              <tr key={account.id}>
                <th scope="row">
                  {account.name} {account.primary && <span className="badge text-bg-success ms-1">Primary</span>}
                </th>
                <td>{KIND_LABELS[account.kind]}</td>
                <td className="text-end">{formatUsd(account.currentBalance)}</td>
                <td className="text-nowrap">
                  <Button
                    size="sm"
                    variant="outline-primary"
                    className="me-2"
                    aria-label={`Rename ${account.name}`}
                    onClick={() => renaming.show(account)}
                  >
                    Rename
                  </Button>
                  {account.card !== null && (
                    <Button
                      size="sm"
                      variant="outline-primary"
                      className="me-2"
                      aria-label={`Card settings of ${account.name}`}
                      onClick={() => cardSettings.show(account)}
                    >
                      Settings
                    </Button>
                  )}
                  {!account.primary && account.kind !== 'CARD' && (
                    <Button
                      size="sm"
                      variant="outline-secondary"
                      className="me-2"
                      aria-label={`Make ${account.name} primary`}
                      onClick={() => makePrimary(account)}
                    >
                      Make primary
                    </Button>
                  )}
                  {accounts.length > 1 && (
                    <Button size="sm" variant="outline-danger" aria-label={`Delete ${account.name}`} onClick={() => deletion.show(account)}>
                      Delete
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : (
        <p className="text-body-secondary">Accounts are not loaded.</p>
      )}
      <div className="d-flex flex-wrap gap-2">
        <Button variant="primary" onClick={() => adding.show(true)} disabled={!info}>
          Add Account
        </Button>
        {/* Money moves between accounts: offered once there are two (decision 0050). A new transfer is
            pending on both sides, so no current balance listed here moves. */}
        {accounts.length > 1 && (
          <AddTransferButton
            accounts={accounts}
            fromAccountId={accounts.find((account) => account.primary)?.id ?? accounts[0]?.id ?? ''}
            onError={onError}
          />
        )}
      </div>
      <AccountDialog key={`add-${adding.session}`} show={adding.open} accounts={accounts} onSave={add} onClose={adding.close} />
      <RenameAccountDialog
        key={`rename-${renaming.session}`}
        show={renaming.open}
        name={renaming.target?.name ?? ''}
        onSave={rename}
        onClose={renaming.close}
      />
      <CardSettingsDialog
        key={`card-${cardSettings.session}`}
        show={cardSettings.open}
        card={cardSettings.target}
        accounts={accounts}
        onSave={changeCard}
        onClose={cardSettings.close}
      />
      <DeleteAccountDialog
        key={`delete-${deletion.session}`}
        show={deletion.open}
        name={deletion.target?.name ?? ''}
        onConfirm={remove}
        onClose={deletion.close}
      />
    </>
  );
}
