import { Form } from 'react-bootstrap';
import { FormField } from '../../components/form-field.js';
import type { FormFieldsProps } from '../../components/schema-form-dialog.js';
import type { ExpenseFormValues } from './expense-form-values.js';

export function ExpenseFields({ idPrefix, values, errors, onChange }: FormFieldsProps<ExpenseFormValues>) {
  const change = (field: keyof ExpenseFormValues) => (event: { readonly target: { readonly value: string } }) =>
    onChange({ ...values, [field]: event.target.value });

  return (
    <>
      <FormField id={`${idPrefix}-name`} label="Name" error={errors.name}>
        {(control) => <Form.Control {...control} type="text" autoComplete="off" value={values.name} onChange={change('name')} />}
      </FormField>
      <FormField id={`${idPrefix}-type`} label="Type" error={errors.type} help="Your own category, such as Housing or Utilities.">
        {(control) => <Form.Control {...control} type="text" autoComplete="off" value={values.type} onChange={change('type')} />}
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
            onChange={change('day')}
          />
        )}
      </FormField>
      <FormField id={`${idPrefix}-amount`} label="Amount" error={errors.amount}>
        {(control) => (
          <Form.Control
            {...control}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0.01"
            value={values.amount}
            onChange={change('amount')}
          />
        )}
      </FormField>
      <FormField id={`${idPrefix}-end-date`} label="End Date" error={errors.endDate} help="Leave empty when the expense has no end.">
        {(control) => <Form.Control {...control} type="date" value={values.endDate} onChange={change('endDate')} />}
      </FormField>
    </>
  );
}
