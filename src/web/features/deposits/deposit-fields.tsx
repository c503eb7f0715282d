import { DEPOSIT_DAYS, DEPOSIT_TYPES, FREQUENCIES, type Frequency, FREQUENCY_LABELS } from '../../../domain/schedules.js';
import { ChoiceSelect, DollarsInput, TextInput } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import { AccountField } from '../../components/account-field.js';
import type { ScheduleAccount } from '../../components/schedule-account.js';
import type { FormFieldsProps } from '../../components/schema-form-dialog.js';
import { decidedDepositDay, type DepositFormValues, isFrequency, shownDepositDay } from './deposit-form-values.js';

/** The six deposit fields; the day follows the frequency and start date when they decide it. */
export function DepositFields({
  idPrefix,
  values,
  errors,
  onChange,
  accounts,
}: FormFieldsProps<DepositFormValues> & { readonly accounts?: readonly ScheduleAccount[] | undefined }) {
  const decidedDay = decidedDepositDay(values);
  const set = (field: keyof DepositFormValues) => (value: string) => onChange({ ...values, [field]: value });

  return (
    <>
      <FormField id={`${idPrefix}-name`} label="Name" error={errors.name}>
        {(control) => <TextInput {...control} value={values.name} onValueChange={set('name')} />}
      </FormField>
      <FormField id={`${idPrefix}-type`} label="Type" error={errors.type}>
        {(control) => <ChoiceSelect {...control} choices={DEPOSIT_TYPES} value={values.type} onValueChange={set('type')} />}
      </FormField>
      <FormField
        id={`${idPrefix}-day`}
        label="Day"
        // While the start date is missing its own message says what to fix; the day just follows it.
        error={decidedDay === '' ? undefined : errors.day}
        help={dayHelp(values.frequency)}
      >
        {(control) => (
          <ChoiceSelect
            {...control}
            choices={DEPOSIT_DAYS}
            value={shownDepositDay(values)}
            onValueChange={set('day')}
            disabled={decidedDay !== undefined}
          />
        )}
      </FormField>
      <FormField id={`${idPrefix}-amount`} label="Amount" error={errors.amount}>
        {(control) => <DollarsInput {...control} value={values.amount} onValueChange={set('amount')} />}
      </FormField>
      <FormField id={`${idPrefix}-start-date`} label="Start Date" error={errors.startDate}>
        {(control) => <TextInput {...control} type="date" value={values.startDate} onValueChange={set('startDate')} />}
      </FormField>
      <FormField id={`${idPrefix}-frequency`} label="Frequency" error={errors.frequency}>
        {(control) => (
          <ChoiceSelect
            {...control}
            choices={FREQUENCIES}
            labelOf={(frequency) => `${frequency} – ${FREQUENCY_LABELS[frequency]}`}
            value={values.frequency}
            onValueChange={set('frequency')}
          />
        )}
      </FormField>
      {accounts && (
        <AccountField
          id={`${idPrefix}-account`}
          accounts={accounts}
          value={values.accountId}
          error={errors.accountId}
          help="The account it is paid into."
          onValueChange={set('accountId')}
        />
      )}
    </>
  );
}

/** Why the frequency decides the day. */
const DAY_HELP: Record<Frequency, string> = {
  W: 'Set by the start date: a weekly deposit is paid on its weekday.',
  BW: 'Set by the start date: a bi-weekly deposit is paid on its weekday.',
  SM: 'N/A: paid on the 15th and the last day of each month, or the Friday before a weekend.',
  M: "N/A: paid on the start date's day of each month, or the Friday before a weekend.",
  EOM: 'N/A: paid on the last day of each month, or the Friday before a weekend.',
};

function dayHelp(frequency: string): string | undefined {
  return isFrequency(frequency) ? DAY_HELP[frequency] : undefined;
}
