/** "Add Account": a name and a kind, and for a credit card its statement and payment settings. */
import { type NewAccount, newAccountSchema } from '../../../contract/account-input.js';
import type { AccountView } from '../../../contract/account-codecs.js';
import { ACCOUNT_KINDS } from '../../../domain/accounts.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { ChoiceSelect, TextInput } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import { SchemaFormDialog } from '../../components/schema-form-dialog.js';
import { accountCandidate, emptyAccountForm } from './account-form-values.js';
import { KIND_LABELS } from './account-words.js';
import { CardFields } from './card-fields.js';

interface AccountDialogProps {
  readonly show: boolean;
  /** The user's accounts: a card pays from one that is not a card. */
  readonly accounts: readonly AccountView[];
  readonly onSave: (account: NewAccount) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

export function AccountDialog({ show, accounts, onSave, onClose }: AccountDialogProps) {
  const primary = accounts.find((account) => account.primary) ?? accounts.find((account) => account.kind !== 'CARD');
  return (
    <SchemaFormDialog
      show={show}
      title="Add Account"
      submitLabel="Add"
      schema={newAccountSchema}
      initialValues={emptyAccountForm(primary?.id ?? '')}
      candidateOf={accountCandidate}
      renderFields={({ idPrefix, values, errors, onChange }) => {
        const set = (field: keyof typeof values) => (value: string) => onChange({ ...values, [field]: value });
        return (
          <>
            <FormField id={`${idPrefix}-name`} label="Name" error={errors.name}>
              {(control) => <TextInput {...control} value={values.name} onValueChange={set('name')} />}
            </FormField>
            <FormField id={`${idPrefix}-kind`} label="Kind" error={errors.kind}>
              {(control) => (
                <ChoiceSelect
                  {...control}
                  choices={ACCOUNT_KINDS}
                  labelOf={(kind) => KIND_LABELS[kind]}
                  value={values.kind}
                  onValueChange={set('kind')}
                />
              )}
            </FormField>
            {values.kind === 'CARD' && (
              <CardFields idPrefix={idPrefix} values={values} errors={errors} accounts={accounts} onChange={onChange} />
            )}
          </>
        );
      }}
      onSave={onSave}
      onClose={onClose}
    />
  );
}
