import { Form } from 'react-bootstrap';
import { EXPENSE_FREQUENCIES, EXPENSE_FREQUENCY_LABELS, type ExpenseFrequency } from '../../../domain/schedules.js';
import { ChoiceSelect, DollarsInput, TextInput } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import { AccountField, ToAccountField } from '../../components/account-field.js';
import type { ScheduleAccount } from '../../components/schedule-account.js';
import type { FormFieldsProps } from '../../components/schema-form-dialog.js';
import { type ExpenseFormValues, hasOwnDay, isExpenseFrequency } from './expense-form-values.js';

/** What the Start Date means for each frequency: a monthly bill's first month, the others' first due date. */
const START_DATE_HELP: Record<ExpenseFrequency, string> = {
  M: 'Optional: the month it first falls due. Leave empty when it already does.',
  W: 'The first due date; then every 7 days.',
  BW: 'The first due date; then every 14 days.',
  Q: 'The first due date; then every 3 months on its day (the last day in shorter months).',
  Y: 'The first due date; then every year on that date (Feb 28 when there is no Feb 29).',
};

/** The expense fields; only a monthly bill asks for its day, the others are set by their start date. */
export function ExpenseFields({
  idPrefix,
  values,
  errors,
  onChange,
  accounts,
}: FormFieldsProps<ExpenseFormValues> & { readonly accounts?: readonly ScheduleAccount[] | undefined }) {
  const set = (field: keyof ExpenseFormValues) => (value: string) => onChange({ ...values, [field]: value });

  return (
    <>
      <FormField id={`${idPrefix}-name`} label="Name" error={errors.name}>
        {(control) => <TextInput {...control} value={values.name} onValueChange={set('name')} />}
      </FormField>
      <FormField id={`${idPrefix}-type`} label="Type" error={errors.type} help="Your own category, such as Housing or Utilities.">
        {(control) => <TextInput {...control} value={values.type} onValueChange={set('type')} />}
      </FormField>
      <FormField id={`${idPrefix}-frequency`} label="Frequency" error={errors.frequency}>
        {(control) => (
          <ChoiceSelect
            {...control}
            choices={EXPENSE_FREQUENCIES}
            labelOf={(frequency) => EXPENSE_FREQUENCY_LABELS[frequency]}
            withPlaceholder={false}
            value={values.frequency}
            onValueChange={set('frequency')}
          />
        )}
      </FormField>
      {hasOwnDay(values.frequency) && (
        <FormField
          id={`${idPrefix}-day`}
          label="Day"
          error={errors.day}
          help="Day of the month, 1 to 31; in a shorter month, its last day."
        >
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
      )}
      <FormField
        id={`${idPrefix}-start-date`}
        label="Start Date"
        error={errors.startDate}
        help={isExpenseFrequency(values.frequency) ? START_DATE_HELP[values.frequency] : undefined}
      >
        {(control) => <TextInput {...control} type="date" value={values.startDate} onValueChange={set('startDate')} />}
      </FormField>
      <FormField id={`${idPrefix}-amount`} label="Amount" error={errors.amount}>
        {(control) => <DollarsInput {...control} value={values.amount} onValueChange={set('amount')} />}
      </FormField>
      <FormField id={`${idPrefix}-end-date`} label="End Date" error={errors.endDate} help="Leave empty when the expense has no end.">
        {(control) => <TextInput {...control} type="date" value={values.endDate} onValueChange={set('endDate')} />}
      </FormField>
      {accounts && (
        <AccountField
          id={`${idPrefix}-account`}
          accounts={accounts}
          value={values.accountId}
          error={errors.accountId}
          help="The account it is paid from."
          onValueChange={set('accountId')}
        />
      )}
      {accounts && (
        <ToAccountField
          id={`${idPrefix}-to-account`}
          accounts={accounts}
          fromAccountId={values.accountId}
          value={values.toAccountId}
          error={errors.toAccountId}
          onValueChange={set('toAccountId')}
        />
      )}
    </>
  );
}
