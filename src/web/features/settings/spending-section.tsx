/**
 * "Keep at least" and "Everyday spending" (issue 36, decisions 0074 and 0075): what safe to spend
 * keeps back, and an estimate of everything else spent a week, with Leftover's suggestion from the
 * account's last 13 full weeks. Each saves on its own button and says what happened.
 */
import { useEffect, useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import type { AccountView } from '../../../contract/account-codecs.js';
import type { Profile } from '../../../contract/app-config.js';
import { bufferUpdateSchema, everydayUpdateSchema } from '../../../contract/settings-requests.js';
import type { EverydaySuggestion } from '../../../contract/what-if.js';
import { cents, formatUsd } from '../../../domain/money.js';
import { useAccountsApi } from '../../api/account-calls.js';
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

/** The accounts everyday spending may come out of, once they load; empty while loading or when they did not. */
function useAccountChoices(): readonly AccountView[] {
  const accountsApi = useAccountsApi();
  const [accounts, setAccounts] = useState<readonly AccountView[]>([]);
  useEffect(() => {
    // Without them the form still saves: everyday spending then comes out of the account it did, or the primary one.
    accountsApi.listAccounts().then(
      (info) => setAccounts(info.accounts),
      () => setAccounts([]),
    );
  }, [accountsApi]);
  return accounts;
}

/** What an account is called in the choice: a card says so, as its payments then carry everyday spending. */
const accountLabel = (account: AccountView) => (account.kind === 'CARD' ? `${account.name} (card)` : account.name);

function EverydayForm({ profile, onSaved }: FormProps) {
  const api = useSettingsApi();
  const headingId = useId();
  const fieldId = useId();
  const accountFieldId = useId();
  const accounts = useAccountChoices();
  const several = accounts.length > 1;
  const [suggestion, setSuggestion] = useState<EverydaySuggestion | 'none'>('none');
  const [saved, setSaved] = useState('');
  const form = useSchemaForm({
    schema: everydayUpdateSchema,
    initialValues: {
      weekly: profile.everydaySpending ? dollarsText(profile.everydaySpending.weekly) : '',
      accountId: profile.everydaySpending?.accountId ?? '',
    },
    // An empty amount turns everyday spending off; no account chosen is the primary one (the server's default).
    candidateOf: (values) => ({
      everydaySpending:
        values.weekly.trim() === ''
          ? null
          : { weekly: typedDollars(values.weekly), ...(values.accountId !== '' && { accountId: values.accountId }) },
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
        ['everydaySpending', 'everydaySpending.weekly', 'everydaySpending.accountId'],
      );
    },
  });
  // An account since deleted is no choice: the primary one is shown, and sent, instead.
  const primaryId = accounts.find((one) => one.primary)?.id ?? '';
  const listed = form.values.accountId === '' || accounts.length === 0 || accounts.some((one) => one.id === form.values.accountId);
  const chosen = listed ? form.values.accountId : '';
  const { setValues } = form;
  useEffect(() => {
    if (!listed) setValues((current) => ({ ...current, accountId: '' }));
  }, [listed, setValues]);
  // The suggestion is the chosen account's: its own last 13 weeks.
  const suggestFor = chosen === '' ? undefined : chosen;
  useEffect(() => {
    setSuggestion('none');
    api.getEverydaySuggestion(suggestFor).then(setSuggestion, () => setSuggestion('none'));
  }, [api, suggestFor]);
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
              <Button
                variant="outline-primary"
                size="sm"
                onClick={() => form.setValues((current) => ({ ...current, weekly: dollarsText(suggested) }))}
              >
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
          // Without a choice shown, a refused account is said here: it is the amount's account.
          error={
            form.errors['everydaySpending.weekly'] ??
            (several ? undefined : form.errors['everydaySpending.accountId']) ??
            form.errors.everydaySpending
          }
          help="An estimate a week of everything your schedules do not cover; leave it empty to turn it off."
        >
          {(control) => (
            <DollarsControl
              control={control}
              value={form.values.weekly}
              onChange={(weekly) => form.setValues((current) => ({ ...current, weekly }))}
            />
          )}
        </FormField>
        {several && (
          <FormField
            id={accountFieldId}
            label="Comes out of"
            error={form.errors['everydaySpending.accountId']}
            help="A card's statement payments then include it."
          >
            {(control) => (
              <Form.Select
                {...control}
                value={chosen === '' ? primaryId : chosen}
                onChange={(event) => form.setValues((current) => ({ ...current, accountId: event.target.value }))}
              >
                {accounts.map((one) => (
                  <option key={one.id} value={one.id}>
                    {accountLabel(one)}
                  </option>
                ))}
              </Form.Select>
            )}
          </FormField>
        )}
        <SaveRow label="Save everyday spending" sending={form.sending} message={form.errors.form ?? saved} />
      </InlineForm>
    </section>
  );
}
