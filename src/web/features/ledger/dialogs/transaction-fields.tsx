/** The fields the Add Transaction and Edit Transaction dialogs share, each labelled for getByLabelText. */
import { TRANSACTION_TYPES, type TransactionType } from '../../../../domain/ledger.js';
import { ChoiceSelect, DateWithToday, DollarsInput } from '../../../components/form-controls.js';
import { FormField } from '../../../components/form-field.js';
import type { FormFieldsProps } from '../../../components/schema-form-dialog.js';
import { TYPE_LABELS } from '../ledger-format.js';
import type { LedgerDates } from '../ledger-rules.js';
import { NameCombobox } from './name-combobox.js';
import type { TransactionFormValues } from './transaction-form-values.js';

interface TransactionFieldsProps extends FormFieldsProps<TransactionFormValues> {
  /** A transaction must fall within its ledger's dates. */
  readonly ledger: LedgerDates;
  /** An existing row keeps its type: it is shown, not asked. */
  readonly fixedType?: TransactionType;
}

export function TransactionFields({ idPrefix, values, errors, onChange, ledger, fixedType }: TransactionFieldsProps) {
  const set = (field: keyof TransactionFormValues) => (value: string) => onChange({ ...values, [field]: value });

  return (
    <>
      <FormField id={`${idPrefix}-date`} label="Date" error={errors.date}>
        {(control) => (
          <DateWithToday {...control} value={values.date} onValueChange={set('date')} min={ledger.startDate} max={ledger.endDate} />
        )}
      </FormField>
      <FormField id={`${idPrefix}-name`} label="Name" error={errors.name}>
        {(control) => <NameCombobox {...control} value={values.name} onValueChange={set('name')} />}
      </FormField>
      {fixedType === undefined ? (
        <FormField id={`${idPrefix}-type`} label="Type" error={errors.type}>
          {(control) => (
            <ChoiceSelect
              {...control}
              choices={TRANSACTION_TYPES}
              labelOf={(code) => TYPE_LABELS[code]}
              value={values.type}
              onValueChange={set('type')}
            />
          )}
        </FormField>
      ) : (
        <p className="mb-3">
          Type: {TYPE_LABELS[fixedType]} <span className="text-body-secondary">(a row keeps its type)</span>
        </p>
      )}
      <FormField id={`${idPrefix}-amount`} label="Amount" error={errors.amount}>
        {(control) => <DollarsInput {...control} value={values.amount} onValueChange={set('amount')} />}
      </FormField>
    </>
  );
}
