/**
 * The Add Transfer form's state as typed (issue 25 item 3, decision 0050), and how it becomes what
 * the contract's newTransferSchema checks. The name follows the To account ("Transfer to Savings")
 * until the user types one of their own.
 */
import { defaultTransferName } from '../../../contract/transfers.js';
import { numberFromInput } from '../../components/field-errors.js';

/** An account as the transfer's From and To selects list it. */
export interface TransferAccount {
  readonly id: string;
  readonly name: string;
}

export interface TransferFormValues {
  readonly fromAccountId: string;
  readonly toAccountId: string;
  readonly date: string;
  readonly amount: string;
  readonly name: string;
  /** True until the user edits the name: it then stays theirs, whatever To becomes. */
  readonly nameFollowsTo: boolean;
}

const nameOf = (accounts: readonly TransferAccount[], id: string) => accounts.find((account) => account.id === id)?.name;

/** From the account given (the one the user is looking at), to the first other one, on `date`, named after To. */
export function newTransferForm(accounts: readonly TransferAccount[], fromAccountId: string, date: string): TransferFormValues {
  const toAccountId = accounts.find((account) => account.id !== fromAccountId)?.id ?? '';
  const toName = nameOf(accounts, toAccountId);
  return {
    fromAccountId,
    toAccountId,
    date,
    amount: '',
    name: toName === undefined ? '' : defaultTransferName(toName),
    nameFollowsTo: true,
  };
}

/** A new To: the name follows it while it is still the one Leftover gave. */
export function withToAccount(values: TransferFormValues, accounts: readonly TransferAccount[], toAccountId: string): TransferFormValues {
  const toName = nameOf(accounts, toAccountId);
  if (!values.nameFollowsTo) return { ...values, toAccountId };
  return { ...values, toAccountId, name: toName === undefined ? '' : defaultTransferName(toName) };
}

/** A name typed by the user: theirs from now on. */
export function withName(values: TransferFormValues, name: string): TransferFormValues {
  return { ...values, name, nameFollowsTo: false };
}

/** The form as the schema checks it: the amount as a number; a name left blank is left out, and the server names it after To. */
export function transferCandidate(values: TransferFormValues) {
  return {
    fromAccountId: values.fromAccountId,
    toAccountId: values.toAccountId,
    date: values.date,
    amount: numberFromInput(values.amount),
    ...(values.name.trim() === '' ? {} : { name: values.name }),
  };
}

/** What the schema cannot see: From and To must differ (the server's own words). */
export function transferErrors(values: TransferFormValues): Record<string, string> {
  return values.fromAccountId !== '' && values.fromAccountId === values.toAccountId
    ? { toAccountId: 'To must be another account than From.' }
    : {};
}
