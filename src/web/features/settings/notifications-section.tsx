/**
 * "Notifications" (issue 26): which messages Leftover sends, and at which hour of the user's day.
 * The rules apply to every channel below; saved together with one button.
 */
import { useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import type { NotificationSettings } from '../../../contract/notifications.js';
import { useSettingsApi } from '../../api/settings-calls.js';
import { Button } from '../../components/button.js';
import { FormField } from '../../components/form-field.js';
import { fieldsOf, hourText, problemOf } from './settings-words.js';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

interface NotificationsSectionProps {
  readonly settings: NotificationSettings;
  readonly onSaved: (settings: NotificationSettings) => void;
}

export function NotificationsSection({ settings, onSaved }: NotificationsSectionProps) {
  const api = useSettingsApi();
  const headingId = useId();
  const ids = { belowZero: useId(), billsDue: useId(), hour: useId() };
  const stored = { belowZero: settings.belowZero, billsDue: settings.billsDue, hour: settings.hour };
  const [values, setValues] = useState(stored);
  // The server may change them too (the first channel turns "below $0" on): what it answers is shown.
  const [basis, setBasis] = useState(stored);
  if (basis.belowZero !== stored.belowZero || basis.billsDue !== stored.billsDue || basis.hour !== stored.hour) {
    setBasis(stored);
    setValues(stored);
  }
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [status, setStatus] = useState('');

  async function save() {
    setErrors({});
    setStatus('');
    try {
      onSaved(await api.updateNotifications(values));
      setStatus('Saved.');
    } catch (failure) {
      const fields = fieldsOf(failure);
      setErrors(fields);
      if (Object.keys(fields).length === 0) setStatus(problemOf(failure));
    }
  }

  const checkbox = (name: 'belowZero' | 'billsDue', label: string) => (
    <Form.Check
      id={ids[name]}
      type="checkbox"
      label={label}
      checked={values[name]}
      isInvalid={errors[name] !== undefined}
      feedback={errors[name]}
      feedbackType="invalid"
      onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.checked }))}
    />
  );

  return (
    <section aria-labelledby={headingId} className="mb-4">
      <h3 id={headingId} className="h5">
        Notifications
      </h3>
      <fieldset className="mb-3">
        <legend className="fs-6">Tell me</legend>
        {checkbox('belowZero', 'Before my balance goes below $0')}
        {checkbox('billsDue', 'Bills due tomorrow')}
      </fieldset>
      <FormField id={ids.hour} label="Send each day at" error={errors.hour} help={`In your time zone, ${settings.timeZone}.`}>
        {(control) => (
          <Form.Select
            {...control}
            className="w-auto"
            value={values.hour}
            onChange={(event) => setValues((current) => ({ ...current, hour: Number(event.target.value) }))}
          >
            {HOURS.map((hour) => (
              <option key={hour} value={hour}>
                {hourText(hour)}
              </option>
            ))}
          </Form.Select>
        )}
      </FormField>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Button variant="primary" size="sm" onClick={() => void save()}>
          Save notifications
        </Button>
        <span role="status" className="small">
          {status}
        </span>
      </div>
    </section>
  );
}
