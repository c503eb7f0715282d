/** "Time zone" (issue 26): the zone whose today every rule uses for this user, chosen among the browser's IANA zones. */
import { useId, useMemo, useState } from 'react';
import { Form } from 'react-bootstrap';
import { useSettingsApi } from '../../api/settings-calls.js';
import { Button } from '../../components/button.js';
import { FormField } from '../../components/form-field.js';
import { fieldsOf, problemOf } from './settings-words.js';

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
  const [chosen, setChosen] = useState(timeZone);
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const choices = useMemo(() => zoneChoices(timeZone), [timeZone]);

  async function save() {
    setError(undefined);
    setStatus('');
    try {
      const profile = await api.updateTimeZone(chosen);
      setChosen(profile.timeZone);
      onSaved(profile.timeZone);
      setStatus(`Saved. Your today is now ${profile.timeZone}'s.`);
    } catch (failure) {
      const fields = fieldsOf(failure);
      if (fields.timeZone) setError(fields.timeZone);
      else setStatus(problemOf(failure));
    }
  }

  return (
    <section aria-labelledby={headingId} className="mb-4">
      <h3 id={headingId} className="h5">
        Time zone
      </h3>
      <FormField
        id={fieldId}
        label="Time zone"
        error={error}
        help="Your today, the hour messages go out and which bills are due tomorrow all follow this zone."
      >
        {(control) => (
          <Form.Select {...control} value={chosen} onChange={(event) => setChosen(event.target.value)}>
            {choices.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </Form.Select>
        )}
      </FormField>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Button variant="primary" size="sm" onClick={() => void save()}>
          Save time zone
        </Button>
        <span role="status" className="small">
          {status}
        </span>
      </div>
    </section>
  );
}
