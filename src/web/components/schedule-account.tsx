/**
 * Which account a deposit lands in or an expense is paid from (issue 25, decision 0044). Shown only
 * when there is a choice: with one account every schedule is in it, and the page stays as it was.
 */
import { ChoiceSelect } from './form-controls.js';
import { FormField } from './form-field.js';

/** An account as a schedule's dialog and table name it. */
export interface ScheduleAccount {
  readonly id: string;
  readonly name: string;
  readonly primary: boolean;
}

/** The accounts to choose from, or undefined when there is no choice to make (one account, or not loaded). */
export function accountChoices(accounts: readonly ScheduleAccount[] | null | undefined): readonly ScheduleAccount[] | undefined {
  return accounts && accounts.length > 1 ? accounts : undefined;
}

/** A schedule's account: the one it names, or the primary one (an answer names none while there is one account). */
export function scheduleAccountId(accounts: readonly ScheduleAccount[], accountId: string | undefined): string {
  return accountId ?? accounts.find((account) => account.primary)?.id ?? '';
}

/** The name of a schedule's account, as its table's Account column shows it. */
export function scheduleAccountName(accounts: readonly ScheduleAccount[], accountId: string | undefined): string {
  const id = scheduleAccountId(accounts, accountId);
  return accounts.find((account) => account.id === id)?.name ?? '';
}

interface AccountFieldProps {
  readonly id: string;
  readonly accounts: readonly ScheduleAccount[];
  readonly value: string;
  readonly error: string | undefined;
  readonly help: string;
  readonly onValueChange: (accountId: string) => void;
  /** "Account" unless said. */
  readonly label?: string;
  /** When given, a first choice of no account (the value ''), named so. */
  readonly noneLabel?: string;
}

/** An account select, listing the accounts by name: "Account" in the Add/Edit Deposit and Expense dialogs. */
export function AccountField({ id, accounts, value, error, help, onValueChange, label = 'Account', noneLabel }: AccountFieldProps) {
  const names = new Map(accounts.map((account) => [account.id, account.name]));
  const ids = accounts.map((account) => account.id);
  return (
    <FormField id={id} label={label} error={error} help={help}>
      {(control) => (
        <ChoiceSelect
          {...control}
          choices={noneLabel === undefined ? ids : ['', ...ids]}
          labelOf={(accountId) => (accountId === '' && noneLabel !== undefined ? noneLabel : (names.get(accountId) ?? accountId))}
          withPlaceholder={false}
          value={value}
          onValueChange={onValueChange}
        />
      )}
    </FormField>
  );
}

interface ToAccountFieldProps extends Omit<AccountFieldProps, 'help' | 'label' | 'noneLabel'> {
  /** The account the expense is paid from: not offered as To (kept while chosen, so its message shows). */
  readonly fromAccountId: string;
}

/**
 * An expense's "To" select (issue 25, decision 0043): None keeps it a bill; another account makes it
 * a recurring transfer, a debit in the account it is paid from and a credit in this one.
 */
export function ToAccountField({ accounts, fromAccountId, value, ...field }: ToAccountFieldProps) {
  return (
    <AccountField
      {...field}
      accounts={accounts.filter((account) => account.id !== fromAccountId || account.id === value)}
      value={value}
      label="To"
      noneLabel="None"
      help="None for a bill; another of your accounts to move the amount into it each time (a recurring transfer)."
    />
  );
}
