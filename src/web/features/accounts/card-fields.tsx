/** A card's statement and payment settings: in Add Account for a new card, and in Card Settings. */
import type { AccountView } from '../../../contract/account-codecs.js';
import { CARD_RULES } from '../../../domain/accounts.js';
import type { FieldErrors } from '../../components/field-errors.js';
import { ChoiceSelect, DollarsInput, TextInput } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import type { CardFormValues } from './account-form-values.js';
import { RULE_LABELS } from './account-words.js';

interface CardFieldsProps<Values extends CardFormValues> {
  readonly idPrefix: string;
  readonly values: Values;
  /** Keyed as the payload's paths are: `card.closingDay`, and `card` for the card as a whole. */
  readonly errors: FieldErrors;
  /** The user's accounts: a card pays from one that is not a card. */
  readonly accounts: readonly AccountView[];
  readonly onChange: (values: Values) => void;
}

export function CardFields<Values extends CardFormValues>({ idPrefix, values, errors, accounts, onChange }: CardFieldsProps<Values>) {
  const payFrom = accounts.filter((account) => account.kind !== 'CARD');
  const accountName = (id: string) => accounts.find((account) => account.id === id)?.name ?? id;
  const set = (field: keyof CardFormValues) => (value: string) => onChange({ ...values, [field]: value });
  return (
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
  );
}
