/** "Add Account": a name and a kind, and for a credit card its statement and payment settings. */
import { type NewAccount, newAccountSchema } from '../../../contract/account-input.js';
import type { AccountView } from '../../../contract/account-codecs.js';
import { ACCOUNT_KINDS, CARD_RULES } from '../../../domain/accounts.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { ChoiceSelect, DollarsInput, TextInput } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import { SchemaFormDialog } from '../../components/schema-form-dialog.js';
import { accountCandidate, emptyAccountForm } from './account-form-values.js';
import { KIND_LABELS, RULE_LABELS } from './account-words.js';

interface AccountDialogProps {
  readonly show: boolean;
  /** The user's accounts: a card pays from one that is not a card. */
  readonly accounts: readonly AccountView[];
  readonly onSave: (account: NewAccount) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

export function AccountDialog({ show, accounts, onSave, onClose }: AccountDialogProps) {
  const payFrom = accounts.filter((account) => account.kind !== 'CARD');
  const primary = accounts.find((account) => account.primary) ?? payFrom[0];
  const accountName = (id: string) => accounts.find((account) => account.id === id)?.name ?? id;
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
              <>
                {errors.card !== undefined && <p className="text-danger small">{errors.card}</p>}
                <FormField
                  id={`${idPrefix}-closing-day`}
                  label="Closing day"
                  error={errors['card.closingDay']}
                  help="Day of the month the statement closes."
                >
                  {(control) => <TextInput {...control} value={values.closingDay} onValueChange={set('closingDay')} />}
                </FormField>
                <FormField id={`${idPrefix}-due-day`} label="Payment due day" error={errors['card.dueDay']}>
                  {(control) => <TextInput {...control} value={values.dueDay} onValueChange={set('dueDay')} />}
                </FormField>
                <FormField id={`${idPrefix}-pay-from`} label="Pay from" error={errors['card.payFromAccountId']}>
                  {(control) => (
                    <ChoiceSelect
                      {...control}
                      choices={payFrom.map((account) => account.id)}
                      labelOf={accountName}
                      value={values.payFromAccountId}
                      onValueChange={set('payFromAccountId')}
                    />
                  )}
                </FormField>
                <FormField id={`${idPrefix}-rule`} label="Payment rule" error={errors['card.rule']}>
                  {(control) => (
                    <ChoiceSelect
                      {...control}
                      choices={CARD_RULES}
                      labelOf={(rule) => RULE_LABELS[rule]}
                      withPlaceholder={false}
                      value={values.rule}
                      onValueChange={set('rule')}
                    />
                  )}
                </FormField>
                {values.rule !== 'STATEMENT' && (
                  <FormField id={`${idPrefix}-amount`} label="Payment amount" error={errors['card.amount']}>
                    {(control) => <DollarsInput {...control} value={values.amount} onValueChange={set('amount')} />}
                  </FormField>
                )}
                <FormField id={`${idPrefix}-credit-limit`} label="Credit limit (optional)" error={errors['card.creditLimit']}>
                  {(control) => <DollarsInput {...control} value={values.creditLimit} onValueChange={set('creditLimit')} />}
                </FormField>
              </>
            )}
          </>
        );
      }}
      onSave={onSave}
      onClose={onClose}
    />
  );
}
