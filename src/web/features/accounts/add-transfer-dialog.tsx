/**
 * "Add Transfer" (issue 25 item 3, decision 0050): money moved between two of the user's accounts,
 * written by the server as a linked pair (a debit in From, a credit in To). The caller remounts it
 * per opening, so it opens fresh: From the account the user is looking at, To the first other one,
 * Date today, and the Name following To until the user types one.
 */
import { type NewTransfer, newTransferSchema } from '../../../contract/transfers.js';
import { todayIn } from '../../../domain/calendar-date.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { ChoiceSelect, DateWithToday, DollarsInput, TextInput } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import { SchemaFormDialog } from '../../components/schema-form-dialog.js';
import {
  newTransferForm,
  type TransferAccount,
  transferCandidate,
  transferErrors,
  type TransferFormValues,
  withName,
  withToAccount,
} from './transfer-form-values.js';

interface AddTransferDialogProps {
  readonly show: boolean;
  /** Every account of the user, in their list's order. */
  readonly accounts: readonly TransferAccount[];
  /** The account the transfer starts from. */
  readonly fromAccountId: string;
  readonly onSave: (transfer: NewTransfer) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

export function AddTransferDialog({ show, accounts, fromAccountId, onSave, onClose }: AddTransferDialogProps) {
  const ids = accounts.map((account) => account.id);
  const nameOf = (id: string) => accounts.find((account) => account.id === id)?.name ?? id;
  return (
    <SchemaFormDialog
      show={show}
      title="Add Transfer"
      submitLabel="Add"
      schema={newTransferSchema}
      initialValues={newTransferForm(accounts, fromAccountId, todayIn(new Date()))}
      candidateOf={transferCandidate}
      check={transferErrors}
      renderFields={({ idPrefix, values, errors, onChange }) => {
        const set = (field: keyof TransferFormValues) => (value: string) => onChange({ ...values, [field]: value });
        return (
          <>
            <FormField id={`${idPrefix}-from`} label="From" error={errors.fromAccountId}>
              {(control) => (
                <ChoiceSelect
                  {...control}
                  choices={ids}
                  labelOf={nameOf}
                  withPlaceholder={false}
                  value={values.fromAccountId}
                  onValueChange={set('fromAccountId')}
                />
              )}
            </FormField>
            <FormField id={`${idPrefix}-to`} label="To" error={errors.toAccountId}>
              {(control) => (
                <ChoiceSelect
                  {...control}
                  choices={ids}
                  labelOf={nameOf}
                  withPlaceholder={false}
                  value={values.toAccountId}
                  onValueChange={(id) => onChange(withToAccount(values, accounts, id))}
                />
              )}
            </FormField>
            <FormField id={`${idPrefix}-date`} label="Date" error={errors.date}>
              {(control) => <DateWithToday {...control} value={values.date} onValueChange={set('date')} />}
            </FormField>
            <FormField id={`${idPrefix}-amount`} label="Amount" error={errors.amount}>
              {(control) => <DollarsInput {...control} value={values.amount} onValueChange={set('amount')} />}
            </FormField>
            <FormField
              id={`${idPrefix}-name`}
              label="Name"
              error={errors.name}
              help="Both accounts' ledgers show the transfer under this name."
            >
              {(control) => <TextInput {...control} value={values.name} onValueChange={(name) => onChange(withName(values, name))} />}
            </FormField>
          </>
        );
      }}
      onSave={onSave}
      onClose={onClose}
    />
  );
}
