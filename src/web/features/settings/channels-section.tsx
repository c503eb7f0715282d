/**
 * Where Leftover's messages go (issue 26): the user's channels with their state (failing, or "Needs
 * attention" after 5 days of failures: decision 0070) and last result,
 * "Send a test" and "Remove" on each, and adding an email address, a webhook, or this device's push.
 * Only the kinds the server offers are offered (no SMTP_URL, no email).
 */
import { useEffect, useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import { emailChannelSchema, webhookChannelSchema } from '../../../contract/channel-requests.js';
import type { NewChannel } from '../../../contract/notification-requests.js';
import type { ChannelInfo, NotificationSettings } from '../../../contract/notifications.js';
import { useSettingsApi } from '../../api/settings-calls.js';
import { Button } from '../../components/button.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { FormField } from '../../components/form-field.js';
import { InlineForm } from '../../components/inline-form.js';
import { useDialogSubmit } from '../../components/use-dialog-submit.js';
import { useSchemaForm } from '../../components/use-dialog-submit.js';
import { pushSupported, subscribeThisDevice, thisDeviceEndpoint, unsubscribeThisDevice } from './push-subscription.js';
import { settingsCall } from './settings-call.js';
import { channelStateText, KIND_WORDS, lastResultText, problemOf, testText } from './settings-words.js';

interface ChannelsSectionProps {
  readonly settings: NotificationSettings;
  readonly onChange: (settings: NotificationSettings) => void;
}

export function ChannelsSection({ settings, onChange }: ChannelsSectionProps) {
  const api = useSettingsApi();
  const headingId = useId();
  const [device, setDevice] = useState<string | null>(null);
  // Remove, "Push to this device", and an address added that fails for a reason no field shows:
  // what went wrong is said once, above the forms (`errors.form`).
  const actions = useDialogSubmit('', { staysOpen: true });
  /** What the last test of each channel answered, by channel id. */
  const [tests, setTests] = useState<Readonly<Record<string, string>>>({});

  useEffect(() => {
    let current = true;
    thisDeviceEndpoint().then(
      (endpoint) => current && setDevice(endpoint),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);

  function act(save: () => Promise<SaveOutcome>): Promise<void> {
    actions.setErrors({});
    return actions.send(save);
  }

  async function sendTest(channel: ChannelInfo) {
    setTests((shown) => ({ ...shown, [channel.id]: 'Sending…' }));
    const text = await api.testChannel(channel.id).then((result) => {
      // A test that arrives ends the channel's back-off or "Needs attention" (decision 0070): show it as it now is.
      if (result.delivered && channel.state !== 'OK') void settingsCall(() => api.getNotifications(), onChange);
      return testText(result);
    }, problemOf);
    setTests((shown) => ({ ...shown, [channel.id]: text }));
  }

  const remove = (channel: ChannelInfo) =>
    act(async () => {
      const outcome = await settingsCall(() => api.removeChannel(channel.id), onChange);
      if (outcome === undefined && channel.kind === 'PUSH' && channel.target === device) {
        // This device's channel is gone: the browser lets go of its subscription too.
        await unsubscribeThisDevice(channel.target).catch(() => undefined);
        setDevice(null);
      }
      return outcome;
    });

  const pushToThisDevice = () =>
    act(() =>
      settingsCall(async () => {
        const { publicKey } = await api.getPushKey();
        const subscription = await subscribeThisDevice(publicKey);
        setDevice(subscription.endpoint);
        return api.addChannel({ kind: 'PUSH', target: subscription });
      }, onChange),
    );

  /** An address from its form: the server's message for it goes under it, any other failure above the forms. */
  async function addAddress(channel: NewChannel): Promise<SaveOutcome> {
    actions.setErrors({});
    const outcome = await settingsCall(() => api.addChannel(channel), onChange, ['target']);
    if (outcome?.form === undefined) return outcome;
    actions.setErrors(outcome);
    return {};
  }

  const offers = (kind: ChannelInfo['kind']) => settings.available.includes(kind);
  const thisDeviceAdded = device !== null && settings.channels.some((channel) => channel.kind === 'PUSH' && channel.target === device);

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="h5">
        Channels
      </h3>
      {settings.channels.length === 0 ? (
        <p>No channels yet: add one below and Leftover tells you there.</p>
      ) : (
        <ul className="list-group mb-3">
          {settings.channels.map((channel) => {
            const name = channel.kind === 'PUSH' ? (channel.target === device ? 'This device' : 'Another device') : channel.target;
            return (
              <li key={channel.id} className="list-group-item" aria-label={`${KIND_WORDS[channel.kind]}: ${name}`}>
                <div className="d-flex flex-wrap align-items-baseline gap-2">
                  <span className="badge text-bg-secondary">{KIND_WORDS[channel.kind]}</span>
                  <span className="text-break me-auto">{name}</span>
                  {channel.state === 'NEEDS_ATTENTION' && <span className="badge text-bg-danger">Needs attention</span>}
                  <span className={channel.confirmed ? 'text-success-emphasis small' : 'text-warning-emphasis small'}>
                    {channel.confirmed ? 'Confirmed' : 'Waiting for confirmation'}
                  </span>
                </div>
                {channel.state !== 'OK' && <div className="small text-danger-emphasis">{channelStateText(channel, settings.timeZone)}</div>}
                <div className="small text-body-secondary">Last result: {lastResultText(channel, settings.timeZone)}</div>
                <div className="d-flex flex-wrap align-items-center gap-2 mt-2">
                  <Button variant="outline-primary" size="sm" onClick={() => void sendTest(channel)}>
                    Send a test
                  </Button>
                  <Button variant="outline-danger" size="sm" onClick={() => void remove(channel)}>
                    Remove
                  </Button>
                  <span role="status" className="small">
                    {tests[channel.id] ?? ''}
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {actions.errors.form && (
        <p className="text-danger-emphasis small" role="alert">
          {actions.errors.form}
        </p>
      )}
      {offers('EMAIL') && <AddChannelForm kind="EMAIL" label="Email address" inputType="email" button="Add email" onAdd={addAddress} />}
      {offers('WEBHOOK') && <AddChannelForm kind="WEBHOOK" label="Webhook URL" inputType="url" button="Add webhook" onAdd={addAddress} />}
      {offers('PUSH') &&
        (pushSupported() ? (
          <Button variant="outline-primary" size="sm" disabled={thisDeviceAdded} onClick={() => void pushToThisDevice()}>
            Push to this device
          </Button>
        ) : (
          <p className="small text-body-secondary">This browser cannot receive push notifications.</p>
        ))}
    </section>
  );
}

interface AddChannelFormProps {
  readonly kind: 'EMAIL' | 'WEBHOOK';
  readonly label: string;
  readonly inputType: 'email' | 'url';
  readonly button: string;
  /** Adds the checked address; answers undefined when it was added, else the fields to mark. */
  readonly onAdd: (channel: NewChannel) => Promise<SaveOutcome>;
}

/** One address and its Add button; checked with the contract's schema, then by the server. */
function AddChannelForm({ kind, label, inputType, button, onAdd }: AddChannelFormProps) {
  const fieldId = useId();
  const form = useSchemaForm({
    schema: kind === 'EMAIL' ? emailChannelSchema : webhookChannelSchema,
    initialValues: { target: '' },
    candidateOf: ({ target }) => ({ kind, target }),
    staysOpen: true,
    onSave: async (channel) => {
      const outcome = await onAdd(channel);
      // Added: the field is cleared for the next address. Refused: what was typed stays, marked.
      if (outcome === undefined) form.setValues({ target: '' });
      return outcome;
    },
  });

  return (
    <InlineForm form={form} className="mb-3">
      <FormField id={fieldId} label={label} error={form.errors.target}>
        {(control) => (
          <div className="d-flex gap-2">
            <Form.Control
              {...control}
              type={inputType}
              value={form.values.target}
              onChange={(event) => form.setValues({ target: event.target.value })}
            />
            <Button type="submit" variant="outline-primary" size="sm" className="text-nowrap" disabled={form.sending}>
              {button}
            </Button>
          </div>
        )}
      </FormField>
    </InlineForm>
  );
}
