/**
 * "Keep at least" and "Everyday spending" (issue 36, decisions 0074 and 0075): what safe to spend
 * keeps back, and an estimate of everything else spent a week, with Leftover's suggestion from the
 * account's last 13 full weeks. Each saves on its own button and says what happened.
 */
import { useEffect, useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import type { Profile } from '../../../contract/app-config.js';
import { bufferUpdateSchema, everydayUpdateSchema } from '../../../contract/settings-requests.js';
import type { EverydaySuggestion } from '../../../contract/what-if.js';
import { cents, formatUsd } from '../../../domain/money.js';
import { useSettingsApi } from '../../api/settings-calls.js';
import { Button } from '../../components/button.js';
import { type FieldControlProps, FormField } from '../../components/form-field.js';
import { InlineForm } from '../../components/inline-form.js';
import { SaveRow } from '../../components/save-row.js';
import { useSchemaForm } from '../../components/use-dialog-submit.js';
import { settingsCall } from './settings-call.js';

/** A typed amount as the contract checks it: empty is missing, anything else a number (NaN is refused by the check). */
function typedDollars(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}

const dollarsText = (dollars: number) => dollars.toFixed(2);

type Loaded = 'loading' | 'failed' | Profile;

interface DollarsControlProps {
  readonly control: FieldControlProps;
  readonly value: string;
  readonly onChange: (text: string) => void;
}

/** A dollar amount as typed: the phone's keyboard with a decimal point, the text checked on save. */
function DollarsControl({ control, value, onChange }: DollarsControlProps) {
  return <Form.Control {...control} inputMode="decimal" value={value} onChange={(event) => onChange(event.target.value)} />;
}

export function SpendingSection() {
  const api = useSettingsApi();
  const [profile, setProfile] = useState<Loaded>('loading');
  useEffect(() => {
    api.getProfile().then(setProfile, () => setProfile('failed'));
  }, [api]);
  if (profile === 'loading') return <p className="text-body-secondary">Loading what you keep and spend…</p>;
  if (profile === 'failed') return <p className="text-body-secondary">Keep at least and Everyday spending have not loaded.</p>;
  return (
    <>
      <BufferForm profile={profile} onSaved={setProfile} />
      <EverydayForm profile={profile} onSaved={setProfile} />
    </>
  );
}

interface FormProps {
  readonly profile: Profile;
  readonly onSaved: (profile: Profile) => void;
}

function BufferForm({ profile, onSaved }: FormProps) {
  const api = useSettingsApi();
  const headingId = useId();
  const fieldId = useId();
  const [saved, setSaved] = useState('');
  const form = useSchemaForm({
    schema: bufferUpdateSchema,
    initialValues: { buffer: dollarsText(profile.buffer) },
    candidateOf: (values) => ({ buffer: typedDollars(values.buffer) }),
    staysOpen: true,
    onSave: ({ buffer }) => {
      setSaved('');
      return settingsCall(
        () => api.updateBuffer(buffer),
        (answer) => {
          onSaved(answer);
          setSaved('Saved.');
        },
        ['buffer'],
      );
    },
  });
  return (
    <section aria-labelledby={headingId} className="mb-4">
      <h3 id={headingId} className="h5">
        Keep at least
      </h3>
      <InlineForm form={form}>
        <FormField id={fieldId} label="Keep at least" error={form.errors.buffer} help="Safe to spend keeps this much back before payday.">
          {(control) => <DollarsControl control={control} value={form.values.buffer} onChange={(buffer) => form.setValues({ buffer })} />}
        </FormField>
        <SaveRow label="Save Keep at least" sending={form.sending} message={form.errors.form ?? saved} />
      </InlineForm>
    </section>
  );
}

function EverydayForm({ profile, onSaved }: FormProps) {
  const api = useSettingsApi();
  const headingId = useId();
  const fieldId = useId();
  const accountId = profile.everydaySpending?.accountId;
  const [suggestion, setSuggestion] = useState<EverydaySuggestion | 'none'>('none');
  useEffect(() => {
    api.getEverydaySuggestion(accountId).then(setSuggestion, () => setSuggestion('none'));
  }, [api, accountId]);
  const [saved, setSaved] = useState('');
  const form = useSchemaForm({
    schema: everydayUpdateSchema,
    initialValues: { weekly: profile.everydaySpending ? dollarsText(profile.everydaySpending.weekly) : '' },
    // An empty amount turns everyday spending off.
    candidateOf: (values) => ({
      everydaySpending: values.weekly.trim() === '' ? null : { weekly: typedDollars(values.weekly), accountId },
    }),
    staysOpen: true,
    onSave: ({ everydaySpending }) => {
      setSaved('');
      return settingsCall(
        () => api.updateEveryday(everydaySpending),
        (answer) => {
          onSaved(answer);
          setSaved(answer.everydaySpending ? 'Saved. Your forecast now includes everyday spending.' : 'Saved. Everyday spending is off.');
        },
        ['everydaySpending'],
      );
    },
  });
  const suggested = suggestion === 'none' ? null : suggestion.suggestion;
  return (
    <section aria-labelledby={headingId} className="mb-4">
      <h3 id={headingId} className="h5">
        Everyday spending
      </h3>
      {suggestion !== 'none' && (
        <p className="small">
          {suggested === null ? (
            `Leftover suggests an amount after 4 full weeks of history; this account has ${suggestion.weeks.length}.`
          ) : (
            <>
              You spent about {formatUsd(cents(Math.round(suggested * 100)))} a week on everything else over the last{' '}
              {suggestion.weeks.length} weeks.{' '}
              <Button variant="outline-primary" size="sm" onClick={() => form.setValues({ weekly: dollarsText(suggested) })}>
                Use it
              </Button>
            </>
          )}
        </p>
      )}
      <InlineForm form={form}>
        <FormField
          id={fieldId}
          label="Everyday spending"
          error={form.errors['everydaySpending.weekly'] ?? form.errors['everydaySpending.accountId'] ?? form.errors.everydaySpending}
          help="An estimate a week of everything your schedules do not cover; leave it empty to turn it off."
        >
          {(control) => <DollarsControl control={control} value={form.values.weekly} onChange={(weekly) => form.setValues({ weekly })} />}
        </FormField>
        <SaveRow label="Save everyday spending" sending={form.sending} message={form.errors.form ?? saved} />
      </InlineForm>
    </section>
  );
}
