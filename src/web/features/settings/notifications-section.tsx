/**
 * "Notifications" (issue 26): which messages Leftover sends, and at which hour of the user's day.
 * The rules apply to every channel below; saved together with one button.
 */
import { useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import { notificationPreferencesSchema } from '../../../contract/settings-requests.js';
import type { NotificationSettings } from '../../../contract/notifications.js';
import { useSettingsApi } from '../../api/settings-calls.js';
import { FormField } from '../../components/form-field.js';
import { InlineForm } from '../../components/inline-form.js';
import { SaveRow } from '../../components/save-row.js';
import { useSchemaForm } from '../../components/use-dialog-submit.js';
import { settingsCall } from './settings-call.js';
import { hourText } from './settings-words.js';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const FIELDS = ['belowZero', 'billsDue', 'hour'];

interface NotificationsSectionProps {
  readonly settings: NotificationSettings;
  readonly onSaved: (settings: NotificationSettings) => void;
}

export function NotificationsSection({ settings, onSaved }: NotificationsSectionProps) {
  const api = useSettingsApi();
  const headingId = useId();
  const ids = { belowZero: useId(), billsDue: useId(), hour: useId() };
  const stored = { belowZero: settings.belowZero, billsDue: settings.billsDue, hour: settings.hour };
  /** What the last save that worked says; a failure that marks no field is said in its place. */
  const [saved, setSaved] = useState('');
  const form = useSchemaForm({
    schema: notificationPreferencesSchema,
    initialValues: stored,
    candidateOf: (values) => values,
    staysOpen: true,
    onSave: (preferences) => {
      setSaved('');
      return settingsCall(
        () => api.updateNotifications(preferences),
        (answer) => {
          onSaved(answer);
          setSaved('Saved.');
        },
        FIELDS,
      );
    },
  });
  // The server may change them too (the first channel turns "below $0" on): what it answers is shown.
  const [basis, setBasis] = useState(stored);
  if (basis.belowZero !== stored.belowZero || basis.billsDue !== stored.billsDue || basis.hour !== stored.hour) {
    setBasis(stored);
    form.setValues(stored);
  }

  const checkbox = (name: 'belowZero' | 'billsDue', label: string) => (
    <Form.Check
      id={ids[name]}
      type="checkbox"
      label={label}
      checked={form.values[name]}
      isInvalid={form.errors[name] !== undefined}
      feedback={form.errors[name]}
      feedbackType="invalid"
      onChange={(event) => form.setValues((current) => ({ ...current, [name]: event.target.checked }))}
    />
  );

  return (
    <section aria-labelledby={headingId} className="mb-4">
      <h3 id={headingId} className="h5">
        Notifications
      </h3>
      <InlineForm form={form}>
        <fieldset className="mb-3">
          <legend className="fs-6">Tell me</legend>
          {checkbox('belowZero', 'Before my balance goes below $0')}
          {checkbox('billsDue', 'Bills due tomorrow')}
        </fieldset>
        <FormField id={ids.hour} label="Send each day at" error={form.errors.hour} help={`In your time zone, ${settings.timeZone}.`}>
          {(control) => (
            <Form.Select
              {...control}
              className="w-auto"
              value={form.values.hour}
              onChange={(event) => form.setValues((current) => ({ ...current, hour: Number(event.target.value) }))}
            >
              {HOURS.map((hour) => (
                <option key={hour} value={hour}>
                  {hourText(hour)}
                </option>
              ))}
            </Form.Select>
          )}
        </FormField>
        <SaveRow label="Save notifications" sending={form.sending} message={form.errors.form ?? saved} />
      </InlineForm>
    </section>
  );
}
