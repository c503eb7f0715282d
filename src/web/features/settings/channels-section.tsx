/**
 * Where Leftover's messages go (issue 26): the user's channels with their state and last result,
 * "Send a test" and "Remove" on each, and adding an email address, a webhook, or this device's push.
 * Only the kinds the server offers are offered (no SMTP_URL, no email).
 */
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import type { NewChannel } from '../../../contract/notification-requests.js';
import type { ChannelInfo, NotificationSettings } from '../../../contract/notifications.js';
import { useSettingsApi } from '../../api/settings-calls.js';
import { Button } from '../../components/button.js';
import { FormField } from '../../components/form-field.js';
import { pushSupported, subscribeThisDevice, thisDeviceEndpoint, unsubscribeThisDevice } from './push-subscription.js';
import { deliveryText, fieldsOf, KIND_WORDS, lastResultText, problemOf } from './settings-words.js';

interface ChannelsSectionProps {
  readonly settings: NotificationSettings;
  readonly onChange: (settings: NotificationSettings) => void;
}

export function ChannelsSection({ settings, onChange }: ChannelsSectionProps) {
  const api = useSettingsApi();
  const headingId = useId();
  const [device, setDevice] = useState<string | null>(null);
  const [problem, setProblem] = useState('');
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

  async function change(call: () => Promise<NotificationSettings>): Promise<Readonly<Record<string, string>>> {
    setProblem('');
    try {
      onChange(await call());
      return {};
    } catch (failure) {
      const fields = fieldsOf(failure);
      if (Object.keys(fields).length === 0) setProblem(problemOf(failure));
      return fields;
    }
  }

  async function sendTest(channel: ChannelInfo) {
    setTests((shown) => ({ ...shown, [channel.id]: 'Sending…' }));
    let text: string;
    try {
      text = deliveryText(await api.testChannel(channel.id));
    } catch (failure) {
      text = problemOf(failure);
    }
    setTests((shown) => ({ ...shown, [channel.id]: text }));
  }

  async function remove(channel: ChannelInfo) {
    await change(() => api.removeChannel(channel.id));
    if (channel.kind === 'PUSH' && channel.target === device) {
      await unsubscribeThisDevice(channel.target).catch(() => undefined);
      setDevice(null);
    }
  }

  async function pushToThisDevice() {
    setProblem('');
    try {
      const { publicKey } = await api.getPushKey();
      const subscription = await subscribeThisDevice(publicKey);
      setDevice(subscription.endpoint);
      await change(() => api.addChannel({ kind: 'PUSH', target: subscription }));
    } catch (failure) {
      setProblem(problemOf(failure));
    }
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
                  <span className={channel.confirmed ? 'text-success-emphasis small' : 'text-warning-emphasis small'}>
                    {channel.confirmed ? 'Confirmed' : 'Waiting for confirmation'}
                  </span>
                </div>
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
      {problem && (
        <p className="text-danger-emphasis small" role="alert">
          {problem}
        </p>
      )}
      {offers('EMAIL') && (
        <AddChannelForm
          kind="EMAIL"
          label="Email address"
          inputType="email"
          button="Add email"
          onAdd={(channel) => change(() => api.addChannel(channel))}
        />
      )}
      {offers('WEBHOOK') && (
        <AddChannelForm
          kind="WEBHOOK"
          label="Webhook URL"
          inputType="url"
          button="Add webhook"
          onAdd={(channel) => change(() => api.addChannel(channel))}
        />
      )}
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
  /** Answers the server's field messages for a refused address; none when it was added. */
  readonly onAdd: (channel: NewChannel) => Promise<Readonly<Record<string, string>>>;
}

/** One address and its Add button; the address is the server's to check (the same contract as the API's). */
function AddChannelForm({ kind, label, inputType, button, onAdd }: AddChannelFormProps) {
  const fieldId = useId();
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    const fields = await onAdd({ kind, target });
    if (Object.keys(fields).length === 0) setTarget('');
    else setError(fields.target ?? Object.values(fields).join(' '));
  }

  return (
    <Form noValidate onSubmit={(event) => void submit(event)} className="mb-3">
      <FormField id={fieldId} label={label} error={error}>
        {(control) => (
          <div className="d-flex gap-2">
            <Form.Control {...control} type={inputType} value={target} onChange={(event) => setTarget(event.target.value)} />
            <Button type="submit" variant="outline-primary" size="sm" className="text-nowrap">
              {button}
            </Button>
          </div>
        )}
      </FormField>
    </Form>
  );
}
