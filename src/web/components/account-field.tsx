/**
 * The account selects of the deposit and expense dialogs (issue 25, decisions 0043 and 0044), apart
 * from schedule-account.ts so that Plan's tables do not carry the forms' code (decision 0073).
 */
import { ChoiceSelect } from './form-controls.js';
import { FormField } from './form-field.js';
import type { ScheduleAccount } from './schedule-account.js';

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
