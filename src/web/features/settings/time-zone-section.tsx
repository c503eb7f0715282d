/** "Time zone" (issue 26): the zone whose today every rule uses for this user, chosen among the browser's IANA zones. */
import { useId, useMemo, useState } from 'react';
import { Form } from 'react-bootstrap';
import { profileUpdateSchema } from '../../../contract/settings-requests.js';
import { useSettingsApi } from '../../api/settings-calls.js';
import { FormField } from '../../components/form-field.js';
import { InlineForm } from '../../components/inline-form.js';
import { SaveRow } from '../../components/save-row.js';
import { useSchemaForm } from '../../components/use-dialog-submit.js';
import { settingsCall } from './settings-call.js';

interface TimeZoneSectionProps {
  readonly timeZone: string;
  readonly onSaved: (timeZone: string) => void;
}

/** Every zone the browser knows, with the user's own first in line if the browser does not list it (an alias, say). */
function zoneChoices(current: string): readonly string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

export function TimeZoneSection({ timeZone, onSaved }: TimeZoneSectionProps) {
  const api = useSettingsApi();
  const headingId = useId();
  const fieldId = useId();
  const choices = useMemo(() => zoneChoices(timeZone), [timeZone]);
  /** What the last save that worked says; a failure not about the zone is said in its place. */
  const [saved, setSaved] = useState('');
  const form = useSchemaForm({
    schema: profileUpdateSchema,
    initialValues: { timeZone },
    candidateOf: (values) => values,
    staysOpen: true,
    onSave: ({ timeZone: chosen }) => {
      setSaved('');
      return settingsCall(
        () => api.updateTimeZone(chosen ?? timeZone),
        (profile) => {
          form.setValues({ timeZone: profile.timeZone });
          onSaved(profile.timeZone);
          setSaved(`Saved. Your today is now ${profile.timeZone}'s.`);
        },
        ['timeZone'],
      );
    },
  });

  return (
    <section aria-labelledby={headingId} className="mb-4">
      <h3 id={headingId} className="h5">
        Time zone
      </h3>
      <InlineForm form={form}>
        <FormField
          id={fieldId}
          label="Time zone"
          error={form.errors.timeZone}
          help="Your today, the hour messages go out and which bills are due tomorrow all follow this zone."
        >
          {(control) => (
            <Form.Select {...control} value={form.values.timeZone} onChange={(event) => form.setValues({ timeZone: event.target.value })}>
              {choices.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </Form.Select>
          )}
        </FormField>
        <SaveRow label="Save time zone" sending={form.sending} message={form.errors.form ?? saved} />
      </InlineForm>
    </section>
  );
}
