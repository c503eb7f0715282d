import { Form } from 'react-bootstrap';
import { DollarsInput, TextInput } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import type { FormFieldsProps } from '../../components/schema-form-dialog.js';
import type { ExpenseFormValues } from './expense-form-values.js';

export function ExpenseFields({ idPrefix, values, errors, onChange }: FormFieldsProps<ExpenseFormValues>) {
  const set = (field: keyof ExpenseFormValues) => (value: string) => onChange({ ...values, [field]: value });

  return (
    <>
      <FormField id={`${idPrefix}-name`} label="Name" error={errors.name}>
        {(control) => <TextInput {...control} value={values.name} onValueChange={set('name')} />}
      </FormField>
      <FormField id={`${idPrefix}-type`} label="Type" error={errors.type} help="Your own category, such as Housing or Utilities.">
        {(control) => <TextInput {...control} value={values.type} onValueChange={set('type')} />}
      </FormField>
      <FormField id={`${idPrefix}-day`} label="Day" error={errors.day} help="Day of the month, 1 to 31; in a shorter month, its last day.">
        {(control) => (
          <Form.Control
            {...control}
            type="number"
            inputMode="numeric"
            min="1"
            max="31"
            step="1"
            value={values.day}
            onChange={(event) => set('day')(event.target.value)}
          />
        )}
      </FormField>
      <FormField id={`${idPrefix}-amount`} label="Amount" error={errors.amount}>
        {(control) => <DollarsInput {...control} value={values.amount} onValueChange={set('amount')} />}
      </FormField>
      <FormField id={`${idPrefix}-end-date`} label="End Date" error={errors.endDate} help="Leave empty when the expense has no end.">
        {(control) => <TextInput {...control} type="date" value={values.endDate} onValueChange={set('endDate')} />}
      </FormField>
    </>
  );
}
