import { Form } from 'react-bootstrap';
import { DEPOSIT_DAYS, DEPOSIT_TYPES, FREQUENCIES, FREQUENCY_LABELS } from '../../../domain/schedules.js';
import { FormField, PLEASE_SELECT } from '../../components/form-field.js';
import type { FormFieldsProps } from '../../components/schema-form-dialog.js';
import { decidedDepositDay, type DepositFormValues, shownDepositDay } from './deposit-form-values.js';

/** The six deposit fields; the day follows the frequency and start date when they decide it. */
export function DepositFields({ idPrefix, values, errors, onChange }: FormFieldsProps<DepositFormValues>) {
  const decidedDay = decidedDepositDay(values);
  const change = (field: keyof DepositFormValues) => (event: { readonly target: { readonly value: string } }) =>
    onChange({ ...values, [field]: event.target.value });

  return (
    <>
      <FormField id={`${idPrefix}-name`} label="Name" error={errors.name}>
        {(control) => <Form.Control {...control} type="text" autoComplete="off" value={values.name} onChange={change('name')} />}
      </FormField>
      <FormField id={`${idPrefix}-type`} label="Type" error={errors.type}>
        {(control) => (
          <Form.Select {...control} value={values.type} onChange={change('type')}>
            <option value="">{PLEASE_SELECT}</option>
            {DEPOSIT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </Form.Select>
        )}
      </FormField>
      <FormField
        id={`${idPrefix}-day`}
        label="Day"
        // While the start date is missing its own message says what to fix; the day just follows it.
        error={decidedDay === '' ? undefined : errors.day}
        help={dayHelp(values.frequency)}
      >
        {(control) => (
          <Form.Select {...control} value={shownDepositDay(values)} onChange={change('day')} disabled={decidedDay !== undefined}>
            <option value="">{PLEASE_SELECT}</option>
            {DEPOSIT_DAYS.map((day) => (
              <option key={day} value={day}>
                {day}
              </option>
            ))}
          </Form.Select>
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
      <FormField id={`${idPrefix}-start-date`} label="Start Date" error={errors.startDate}>
        {(control) => <Form.Control {...control} type="date" value={values.startDate} onChange={change('startDate')} />}
      </FormField>
      <FormField id={`${idPrefix}-frequency`} label="Frequency" error={errors.frequency}>
        {(control) => (
          <Form.Select {...control} value={values.frequency} onChange={change('frequency')}>
            <option value="">{PLEASE_SELECT}</option>
            {FREQUENCIES.map((frequency) => (
              <option key={frequency} value={frequency}>
                {frequency} – {FREQUENCY_LABELS[frequency]}
              </option>
            ))}
          </Form.Select>
        )}
      </FormField>
    </>
  );
}

function dayHelp(frequency: string): string | undefined {
  if (frequency === 'BW') return 'Set by the start date: a bi-weekly deposit is paid on its weekday.';
  if (frequency === 'EOM') return 'An end-of-month deposit has no fixed weekday.';
  return undefined;
}
