/**
 * Settings (issue 26) as a user meets it: the button beside Your data opens it; the time zone, the
 * notification rules and hour, and the channels, each with what happened ("Delivered" or "Not delivered"),
 * and the server's field messages beside their fields. The network is stubbed at Settings' calls
 * only; "Push to this device" uses a stand-in for the browser's PushManager (jsdom has none).
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountView } from '../../../contract/account-codecs.js';
import type { NotificationSettings } from '../../../contract/notifications.js';
import { ApiCallError } from '../../api/api-client.js';
import { AccountsApiProvider } from '../../api/account-calls.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { SettingsApiProvider } from '../../api/settings-calls.js';
import { accountInfo, accountsAnswer } from '../../test-support/answers.js';
import { findOpenDialog } from '../../test-support/dialog-queries.js';
import { fakeAccountsApi, fakeApiClient, fakeSettingsApi, type FakeSettingsApi } from '../../test-support/fake-api-client.js';
import { SettingsButton } from './settings-button.js';

/** A channel whose messages arrive (decision 0070). */
const DELIVERING = { state: 'OK', failingSince: null, retryAt: null } as const;

const SETTINGS: NotificationSettings = {
  timeZone: 'Pacific/Niue',
  hour: 8,
  belowZero: true,
  billsDue: false,
  channels: [
    { id: 'c-email', kind: 'EMAIL', target: 'me@example.com', confirmed: false, lastResult: null, ...DELIVERING },
    {
      id: 'c-hook',
      kind: 'WEBHOOK',
      target: 'https://ntfy.example/leftover',
      confirmed: true,
      lastResult: { delivered: false, reason: 'Not delivered', at: '2026-11-21T19:00:00.000Z' },
      ...DELIVERING,
    },
  ],
  available: ['EMAIL', 'PUSH', 'WEBHOOK'],
};

/** The browser's zone, which the page sends at sign-in (jsdom's is the process's). */
const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** What the server says of a webhook on a private network (src/server/notifications/address-guard.ts). */
const PRIVATE_ADDRESS =
  "This address is on a private or local network, or is this server's own, which Leftover does not send to (the operator can allow it with NOTIFY_ALLOW_PRIVATE_URLS=true).";

function refused(operation: 'updateProfile' | 'updateNotifications' | 'addNotificationChannel', fields: Record<string, string>) {
  return new ApiCallError(operation, 400, 'Some fields need attention.', fields);
}

/** Presses Settings; the dialog is open, its settings perhaps still on their way. */
async function pressSettings(
  stubs: Partial<FakeSettingsApi> = {},
  settings: NotificationSettings = SETTINGS,
  /** The user's accounts, when the test gives them; else their call fails, as an unexpected one does. */
  accounts?: readonly AccountView[],
) {
  const api = fakeSettingsApi({
    getNotifications: vi.fn(async () => settings),
    updateTimeZone: vi.fn(async (timeZone: string) => ({ subject: 'me', name: null, timeZone, buffer: 0, everydaySpending: null })),
    ...stubs,
  });
  const accountsApi = fakeAccountsApi(accounts && { listAccounts: vi.fn(async () => ({ accounts: [...accounts] })) });
  const { unmount } = render(
    <ApiClientProvider client={fakeApiClient()}>
      <AccountsApiProvider value={accountsApi}>
        <SettingsApiProvider value={api}>
          <SettingsButton />
        </SettingsApiProvider>
      </AccountsApiProvider>
    </ApiClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Settings' }));
  const dialog = await findOpenDialog('Settings');
  return { api, user, dialog, unmount };
}

async function openSettings(...args: Parameters<typeof pressSettings>) {
  const opened = await pressSettings(...args);
  await within(opened.dialog).findByRole('heading', { name: 'Time zone' });
  return opened;
}

function channel(dialog: HTMLElement, name: string): HTMLElement {
  return within(dialog).getByRole('listitem', { name });
}

afterEach(() => {
  vi.unstubAllGlobals();
  // Each test is a new tab: the note of a zone already sent ends with it.
  window.sessionStorage.clear();
});

describe('Settings', () => {
  it("sends the browser's time zone once the page has started, kept by the server only for a user who has none", async () => {
    const { api } = await openSettings();
    await waitFor(() => expect(api.updateTimeZone).toHaveBeenCalledWith(BROWSER_ZONE, true));
    expect(api.updateTimeZone).toHaveBeenCalledTimes(1);
  });

  it("opened before the browser's zone has been kept, reads the settings after it and shows that zone", async () => {
    let stored: string | null = null;
    let keep: () => void = () => undefined;
    const kept = new Promise<void>((resolve) => {
      keep = resolve;
    });
    const getNotifications = vi.fn(async () => ({ ...SETTINGS, timeZone: stored ?? 'UTC' }));
    const { dialog } = await pressSettings({
      getNotifications,
      updateTimeZone: vi.fn(async (timeZone: string) => {
        await kept;
        stored = timeZone;
        return { subject: 'me', name: null, timeZone, buffer: 0, everydaySpending: null };
      }),
    });
    expect(within(dialog).getByText('Loading your settings…')).toBeVisible();
    expect(getNotifications).not.toHaveBeenCalled();
    keep();
    expect(await within(dialog).findByRole('combobox', { name: 'Time zone' })).toHaveValue(BROWSER_ZONE);
    expect(getNotifications).toHaveBeenCalledTimes(1);
  });

  it("reads the settings after 3 s when the browser's zone is still on its way, and shows the server's zone", async () => {
    const getNotifications = vi.fn(async () => SETTINGS);
    const { dialog } = await pressSettings({
      getNotifications,
      // A send that never ends (a network that holds it).
      updateTimeZone: vi.fn(() => new Promise<never>(() => undefined)),
    });
    expect(getNotifications).not.toHaveBeenCalled();
    expect(await within(dialog).findByRole('combobox', { name: 'Time zone' }, { timeout: 5_000 })).toHaveValue(SETTINGS.timeZone);
    expect(getNotifications).toHaveBeenCalledTimes(1);
  });

  it('sends the zone once per tab: a reload after it has been kept sends nothing, and one after a failure sends it again', async () => {
    const failing = vi.fn(async () => {
      throw refused('updateProfile', {});
    });
    const first = await openSettings({ updateTimeZone: failing });
    await waitFor(() => expect(first.api.updateTimeZone).toHaveBeenCalledTimes(1));
    first.unmount();

    const second = await openSettings();
    await waitFor(() => expect(second.api.updateTimeZone).toHaveBeenCalledWith(BROWSER_ZONE, true));
    second.unmount();

    const third = await openSettings();
    await within(third.dialog).findByRole('combobox', { name: 'Time zone' });
    expect(third.api.updateTimeZone).not.toHaveBeenCalled();
  });

  it('shows the time zone, lets the user choose another among the browser’s zones, and saves it', async () => {
    const { api, user, dialog } = await openSettings();
    const zone = within(dialog).getByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue('Pacific/Niue');
    expect(within(zone).getAllByRole('option').length).toBe(Intl.supportedValuesOf('timeZone').length);

    await user.selectOptions(zone, 'America/Los_Angeles');
    await user.click(within(dialog).getByRole('button', { name: 'Save time zone' }));

    expect(api.updateTimeZone).toHaveBeenLastCalledWith('America/Los_Angeles');
    expect(await within(dialog).findByText("Saved. Your today is now America/Los_Angeles's.")).toBeInTheDocument();
    // The hour follows the zone.
    expect(within(dialog).getByText('In your time zone, America/Los_Angeles.')).toBeInTheDocument();
  });

  it("marks the time zone with the server's message when it refuses it", async () => {
    const message = 'Time zone must be an IANA time zone, like America/Los_Angeles.';
    const { user, dialog } = await openSettings({
      updateTimeZone: vi.fn(async (_zone: string, onlyIfUnset?: boolean) => {
        if (onlyIfUnset) return { subject: 'me', name: null, timeZone: 'Pacific/Niue', buffer: 0, everydaySpending: null };
        throw refused('updateProfile', { timeZone: message });
      }),
    });
    await user.click(within(dialog).getByRole('button', { name: 'Save time zone' }));
    const zone = within(dialog).getByRole('combobox', { name: 'Time zone' });
    await waitFor(() => expect(zone).toHaveAttribute('aria-invalid', 'true'));
    expect(zone).toHaveAccessibleDescription(expect.stringContaining(message));
  });

  it('shows the rules and the hour (00:00 to 23:00), and saves a change of both', async () => {
    const { api, user, dialog } = await openSettings({
      updateNotifications: vi.fn(async (preferences) => ({ ...SETTINGS, ...preferences })),
    });
    const belowZero = within(dialog).getByRole('checkbox', { name: 'Before my balance goes below $0' });
    const billsDue = within(dialog).getByRole('checkbox', { name: 'Bills due tomorrow' });
    const hour = within(dialog).getByRole('combobox', { name: 'Send each day at' });
    expect(belowZero).toBeChecked();
    expect(billsDue).not.toBeChecked();
    expect(hour).toHaveDisplayValue('08:00');
    const hours = within(hour)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(hours).toHaveLength(24);
    expect([hours[0], hours[7], hours[23]]).toEqual(['00:00', '07:00', '23:00']);

    await user.click(billsDue);
    await user.click(belowZero);
    await user.selectOptions(hour, '07:00');
    await user.click(within(dialog).getByRole('button', { name: 'Save notifications' }));

    expect(api.updateNotifications).toHaveBeenCalledWith({ hour: 7, belowZero: false, billsDue: true });
    expect(await within(dialog).findByText('Saved.')).toBeInTheDocument();
    expect(billsDue).toBeChecked();
    expect(belowZero).not.toBeChecked();
  });

  it("marks the hour with the server's message when it refuses it", async () => {
    const message = 'Hour must be a whole number from 0 to 23.';
    const { user, dialog } = await openSettings({
      updateNotifications: vi.fn(async () => {
        throw refused('updateNotifications', { hour: message });
      }),
    });
    await user.click(within(dialog).getByRole('button', { name: 'Save notifications' }));
    const hour = within(dialog).getByRole('combobox', { name: 'Send each day at' });
    await waitFor(() => expect(hour).toHaveAttribute('aria-invalid', 'true'));
    expect(hour).toHaveAccessibleDescription(expect.stringContaining(message));
  });

  it('lists each channel with its kind, state and last result, sends a test that says what happened, and removes one', async () => {
    const { api, user, dialog } = await openSettings({
      testChannel: vi.fn(async (id: string) =>
        id === 'c-hook'
          ? { delivered: true as const, message: 'Delivered' as const }
          : { delivered: false as const, message: 'Not delivered' as const },
      ),
      removeChannel: vi.fn(async () => ({ ...SETTINGS, channels: SETTINGS.channels.slice(1) })),
    });
    const email = channel(dialog, 'Email: me@example.com');
    const hook = channel(dialog, 'Webhook: https://ntfy.example/leftover');
    expect(within(email).getByText('Waiting for confirmation')).toBeInTheDocument();
    expect(within(email).getByText('Last result: Nothing sent yet.')).toBeInTheDocument();
    expect(within(hook).getByText('Confirmed')).toBeInTheDocument();
    // When, in the user's zone: 19:00 UTC is 8:00 AM in Niue (UTC-11).
    expect(within(hook).getByText('Last result: Not delivered (Nov 21, 2026, 8:00 AM)')).toBeInTheDocument();

    await user.click(within(hook).getByRole('button', { name: 'Send a test' }));
    expect(await within(hook).findByText('Delivered')).toBeInTheDocument();
    await user.click(within(email).getByRole('button', { name: 'Send a test' }));
    expect(await within(email).findByText('Not delivered')).toBeInTheDocument();
    expect(api.testChannel.mock.calls).toEqual([['c-hook'], ['c-email']]);

    await user.click(within(email).getByRole('button', { name: 'Remove' }));
    expect(api.removeChannel).toHaveBeenCalledWith('c-email');
    await waitFor(() => expect(within(dialog).queryByRole('listitem', { name: 'Email: me@example.com' })).not.toBeInTheDocument());
    expect(channel(dialog, 'Webhook: https://ntfy.example/leftover')).toBeInTheDocument();
  });

  it('marks a channel that failed for 5 days "Needs attention", says when a failing one is tried next, and clears it once a test arrives', async () => {
    const broken = {
      id: 'c-broken',
      kind: 'WEBHOOK' as const,
      target: 'https://hooks.example/broken',
      confirmed: true,
      lastResult: { delivered: false as const, reason: 'Not delivered', at: '2026-11-26T19:00:00.000Z' },
      state: 'NEEDS_ATTENTION' as const,
      failingSince: '2026-11-21T19:00:00.000Z',
      retryAt: null,
    };
    const flaky = {
      ...broken,
      id: 'c-flaky',
      target: 'https://hooks.example/flaky',
      state: 'FAILING' as const,
      retryAt: '2026-11-26T21:00:00.000Z',
    };
    const failing: NotificationSettings = { ...SETTINGS, channels: [broken, flaky] };
    const mended: NotificationSettings = {
      ...failing,
      channels: [{ ...broken, ...DELIVERING, lastResult: { delivered: true, at: '2026-11-26T20:00:00.000Z' } }, flaky],
    };
    const getNotifications = vi.fn(async () => failing);
    const { user, dialog } = await openSettings(
      { getNotifications, testChannel: vi.fn(async () => ({ delivered: true as const, message: 'Delivered' as const })) },
      failing,
    );
    const brokenItem = channel(dialog, 'Webhook: https://hooks.example/broken');
    const flakyItem = channel(dialog, 'Webhook: https://hooks.example/flaky');
    expect(within(brokenItem).getByText('Needs attention')).toBeInTheDocument();
    expect(
      within(brokenItem).getByText(
        'Nothing reached it for 5 days, so Leftover stopped sending here. Fix it, then send a test: once one arrives, messages go here again.',
      ),
    ).toBeInTheDocument();
    // In the user's zone (Niue, UTC-11).
    expect(within(flakyItem).queryByText('Needs attention')).not.toBeInTheDocument();
    expect(
      within(flakyItem).getByText(
        'Messages are failing here since Nov 21, 2026, 8:00 AM: Leftover tries again, less often each time. Next try after Nov 26, 2026, 10:00 AM.',
      ),
    ).toBeInTheDocument();

    getNotifications.mockResolvedValue(mended);
    await user.click(within(brokenItem).getByRole('button', { name: 'Send a test' }));
    await waitFor(() => expect(within(brokenItem).queryByText('Needs attention')).not.toBeInTheDocument());
    expect(within(brokenItem).queryByText(/Nothing reached it/)).not.toBeInTheDocument();
    expect(within(flakyItem).getByText(/^Messages are failing here/)).toBeInTheDocument();
  });

  it("adds an email address and a webhook, keeping what was typed and marking it with the server's message when refused", async () => {
    const added = { id: 'c-new', kind: 'EMAIL' as const, target: 'you@example.com', confirmed: false, lastResult: null, ...DELIVERING };
    const { api, user, dialog } = await openSettings({
      addChannel: vi.fn(async (channelToAdd) => {
        if (channelToAdd.kind === 'WEBHOOK') throw refused('addNotificationChannel', { target: PRIVATE_ADDRESS });
        return { ...SETTINGS, channels: [...SETTINGS.channels, added] };
      }),
    });
    const address = within(dialog).getByRole('textbox', { name: 'Email address' });
    await user.type(address, 'you@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add email' }));
    expect(api.addChannel).toHaveBeenCalledWith({ kind: 'EMAIL', target: 'you@example.com' });
    expect(await within(channel(dialog, 'Email: you@example.com')).findByText('Waiting for confirmation')).toBeInTheDocument();
    expect(address).toHaveValue('');

    // An address the contract takes and only the server refuses (it looks the host up): the contract
    // check in the page sends it, and the server's message marks it.
    const url = within(dialog).getByRole('textbox', { name: 'Webhook URL' });
    await user.type(url, 'http://192.168.1.20/hook');
    await user.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    expect(api.addChannel).toHaveBeenLastCalledWith({ kind: 'WEBHOOK', target: 'http://192.168.1.20/hook' });
    await waitFor(() => expect(url).toHaveAttribute('aria-invalid', 'true'));
    expect(url).toHaveAccessibleDescription(PRIVATE_ADDRESS);
    expect(url).toHaveValue('http://192.168.1.20/hook');
  });

  it('checks an address with the contract before sending it: a mistake is marked with its message, focused, and nothing is sent', async () => {
    const { api, user, dialog } = await openSettings({ addChannel: vi.fn() });
    const url = within(dialog).getByRole('textbox', { name: 'Webhook URL' });
    await user.type(url, 'ftp://example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    await waitFor(() => expect(url).toHaveAttribute('aria-invalid', 'true'));
    expect(url).toHaveAccessibleDescription('Target must be an http:// or https:// address.');
    expect(url).toHaveFocus();
    expect(url).toHaveValue('ftp://example.com');

    const address = within(dialog).getByRole('textbox', { name: 'Email address' });
    await user.type(address, 'not an address');
    await user.click(within(dialog).getByRole('button', { name: 'Add email' }));
    await waitFor(() => expect(address).toHaveAttribute('aria-invalid', 'true'));
    expect(address).toHaveAccessibleDescription('Target must be an email address, like you@example.com.');
    expect(api.addChannel).not.toHaveBeenCalled();
  });

  it('marks each field the server names under that field, a checkbox included, and clears the marks on the next save', async () => {
    const updateNotifications = vi
      .fn<FakeSettingsApi['updateNotifications']>()
      .mockRejectedValueOnce(
        refused('updateNotifications', {
          billsDue: 'Bills due tomorrow must be true or false.',
          hour: 'Hour must be a whole number from 0 to 23.',
        }),
      )
      .mockImplementationOnce(async (preferences) => ({ ...SETTINGS, ...preferences }));
    const { user, dialog } = await openSettings({ updateNotifications });
    const save = within(dialog).getByRole('button', { name: 'Save notifications' });
    await user.click(save);
    expect(await within(dialog).findByText('Bills due tomorrow must be true or false.')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Send each day at' })).toHaveAccessibleDescription(
      expect.stringContaining('Hour must be a whole number from 0 to 23.'),
    );
    expect(within(dialog).getByRole('checkbox', { name: 'Bills due tomorrow' })).toHaveClass('is-invalid');

    await user.click(save);
    expect(await within(dialog).findByText('Saved.')).toBeInTheDocument();
    expect(within(dialog).queryByText('Bills due tomorrow must be true or false.')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Send each day at' })).not.toHaveAttribute('aria-invalid');
  });

  it('says a failure that names no field of the form beside its button, in the catalogue’s words and the server’s', async () => {
    const { user, dialog } = await openSettings({
      updateTimeZone: vi.fn(async (_zone: string, onlyIfUnset?: boolean) => {
        if (onlyIfUnset) return { subject: 'me', name: null, timeZone: 'Pacific/Niue', buffer: 0, everydaySpending: null };
        throw new ApiCallError('updateProfile', 0, 'The server could not be reached. Check your connection and try again.');
      }),
      updateNotifications: vi.fn(async () => {
        throw refused('updateNotifications', { timeZone: 'Not a field of this form.' });
      }),
    });
    await user.click(within(dialog).getByRole('button', { name: 'Save time zone' }));
    expect(
      await within(dialog).findByText(
        'Failed to save your time zone! The server could not be reached. Check your connection and try again.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Time zone' })).not.toHaveAttribute('aria-invalid');

    await user.click(within(dialog).getByRole('button', { name: 'Save notifications' }));
    expect(await within(dialog).findByText('Failed to save notification settings! Some fields need attention.')).toBeInTheDocument();
  });

  it('keeps a Save button disabled while its call is on its way, and gives it back once the save worked', async () => {
    let answer: (settings: NotificationSettings) => void = () => undefined;
    const { user, dialog } = await openSettings({
      updateNotifications: vi.fn(() => new Promise<NotificationSettings>((resolve) => (answer = resolve))),
    });
    const save = within(dialog).getByRole('button', { name: 'Save notifications' });
    await user.click(save);
    expect(save).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Save time zone' })).toBeEnabled();
    answer(SETTINGS);
    expect(await within(dialog).findByText('Saved.')).toBeInTheDocument();
    expect(save).toBeEnabled();
  });

  it('says above the forms why an address could not be added when no field is to blame, keeping what was typed', async () => {
    const { user, dialog } = await openSettings({
      addChannel: vi.fn(async () => {
        throw new ApiCallError('addNotificationChannel', 409, 'You can have at most 10 channels: remove one first.');
      }),
    });
    const address = within(dialog).getByRole('textbox', { name: 'Email address' });
    await user.type(address, 'you@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add email' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to add the channel! You can have at most 10 channels: remove one first.',
    );
    expect(address).toHaveValue('you@example.com');
    expect(address).not.toHaveAttribute('aria-invalid');
  });

  it('offers only the kinds the server offers: no email without its mail server', async () => {
    const { dialog } = await openSettings({}, { ...SETTINGS, channels: [], available: ['PUSH', 'WEBHOOK'] });
    expect(within(dialog).getByText('No channels yet: add one below and Leftover tells you there.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: 'Email address' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Webhook URL' })).toBeInTheDocument();
  });

  it('subscribes this device with the server’s key and adds it as "This device"', async () => {
    const key = new Uint8Array(65).fill(4);
    const publicKey = btoa(String.fromCharCode(...key))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    const subscription = {
      endpoint: 'https://push.example/device-1',
      options: { applicationServerKey: key.buffer },
      toJSON: () => ({ endpoint: 'https://push.example/device-1', expirationTime: null, keys: { p256dh: 'BDevice', auth: 'secret' } }),
      unsubscribe: vi.fn(async () => true),
    };
    let current: typeof subscription | null = null;
    const subscribe = vi.fn(async () => (current = subscription));
    const registration = { active: {}, pushManager: { getSubscription: async () => current, subscribe } };
    vi.stubGlobal('PushManager', function PushManager() {});
    vi.stubGlobal(
      'Notification',
      Object.assign(function Notification() {}, { requestPermission: vi.fn(async () => 'granted') }),
    );
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { getRegistration: async () => registration } });
    try {
      const pushChannel = {
        id: 'c-push',
        kind: 'PUSH' as const,
        target: subscription.endpoint,
        confirmed: true,
        lastResult: null,
        ...DELIVERING,
      };
      const { api, user, dialog } = await openSettings({
        getPushKey: vi.fn(async () => ({ publicKey })),
        addChannel: vi.fn(async () => ({ ...SETTINGS, channels: [...SETTINGS.channels, pushChannel] })),
      });
      await user.click(within(dialog).getByRole('button', { name: 'Push to this device' }));

      expect(await within(dialog).findByRole('listitem', { name: 'Push: This device' })).toBeInTheDocument();
      expect(subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: key });
      expect(api.addChannel).toHaveBeenCalledWith({
        kind: 'PUSH',
        target: { endpoint: 'https://push.example/device-1', expirationTime: null, keys: { p256dh: 'BDevice', auth: 'secret' } },
      });
      expect(within(dialog).getByRole('button', { name: 'Push to this device' })).toBeDisabled();
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });

  it('says so when the browser blocks notifications, and adds nothing', async () => {
    vi.stubGlobal('PushManager', function PushManager() {});
    vi.stubGlobal(
      'Notification',
      Object.assign(function Notification() {}, { requestPermission: vi.fn(async () => 'denied') }),
    );
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { getRegistration: async () => undefined } });
    try {
      const { api, user, dialog } = await openSettings({ getPushKey: vi.fn(async () => ({ publicKey: 'BKey' })) });
      await user.click(within(dialog).getByRole('button', { name: 'Push to this device' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(
        "Notifications are blocked for Leftover in this browser. Allow them in the browser's site settings, then try again.",
      );
      expect(api.addChannel).not.toHaveBeenCalled();
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });
});

describe('Keep at least and Everyday spending (issue 36)', () => {
  const PROFILE = { subject: 'me', name: null, timeZone: 'Pacific/Niue', buffer: 0, everydaySpending: null };
  const WEEKS = Array.from({ length: 13 }, (_, week) => ({ startDate: `2026-08-${String(17 + week).padStart(2, '0')}`, total: 200 }));

  it('saves the buffer, suggests everyday spending, and "Use it" fills the amount', async () => {
    const updateBuffer = vi.fn(async (buffer: number) => ({ ...PROFILE, buffer }));
    const updateEveryday = vi.fn(async (everyday: { weekly: number } | null) => ({
      ...PROFILE,
      everydaySpending: everyday ? { weekly: everyday.weekly, accountId: 'a1' } : null,
    }));
    const { api, user, dialog } = await openSettings({
      getProfile: vi.fn(async () => PROFILE),
      getEverydaySuggestion: vi.fn(async () => ({ accountId: 'a1', weeks: WEEKS, suggestion: 212 })),
      updateBuffer,
      updateEveryday,
    });
    const buffer = await within(dialog).findByRole('textbox', { name: 'Keep at least' });
    await user.clear(buffer);
    await user.type(buffer, '-1');
    await user.click(within(dialog).getByRole('button', { name: 'Save Keep at least' }));
    expect(within(dialog).getByText('Keep at least must be from $0.00 to $1,000,000.00.')).toBeTruthy();
    expect(api.updateBuffer).not.toHaveBeenCalled();
    await user.clear(buffer);
    await user.type(buffer, '50');
    await user.click(within(dialog).getByRole('button', { name: 'Save Keep at least' }));
    await waitFor(() => expect(updateBuffer).toHaveBeenCalledWith(50));

    await within(dialog).findByText(/You spent about \$212\.00 a week on everything else over the last 13 weeks\./);
    await user.click(within(dialog).getByRole('button', { name: 'Use it' }));
    expect((within(dialog).getByRole('textbox', { name: 'Everyday spending' }) as HTMLInputElement).value).toBe('212.00');
    await user.click(within(dialog).getByRole('button', { name: 'Save everyday spending' }));
    await waitFor(() => expect(updateEveryday).toHaveBeenCalledWith({ weekly: 212 }));
    await within(dialog).findByText('Saved. Your forecast now includes everyday spending.');
  });

  const [CHECKING, VISA] = accountsAnswer({
    accounts: [
      accountInfo({ id: 'a1', name: 'Checking', currentBalance: 1000, pendingBalance: 1000, primary: true }),
      accountInfo({
        id: 'a2',
        name: 'Visa',
        kind: 'CARD',
        currentBalance: -200,
        pendingBalance: -200,
        card: { closingDay: 15, dueDay: 8, payFromAccountId: 'a1', rule: 'STATEMENT', amount: null, creditLimit: null },
      }),
    ],
  }).accounts as [AccountView, AccountView];
  /** Each account's own suggestion: $212.00 out of Checking, $90.00 on Visa. */
  const suggestionFor = vi.fn(async (accountId?: string) =>
    accountId === 'a2' ? { accountId: 'a2', weeks: WEEKS, suggestion: 90 } : { accountId: 'a1', weeks: WEEKS, suggestion: 212 },
  );

  it('chooses the account it comes out of, a card included; the suggestion and "Use it" are that account\'s', async () => {
    const updateEveryday = vi.fn(async (everyday: { weekly: number; accountId?: string } | null) => ({
      ...PROFILE,
      everydaySpending: everyday ? { weekly: everyday.weekly, accountId: everyday.accountId ?? 'a1' } : null,
    }));
    const { api, user, dialog } = await openSettings(
      { getProfile: vi.fn(async () => PROFILE), getEverydaySuggestion: suggestionFor, updateEveryday },
      SETTINGS,
      [CHECKING, VISA],
    );
    const account = (await within(dialog).findByRole('combobox', { name: 'Comes out of' })) as HTMLSelectElement;
    // Off, the primary account is the one offered, and its history is the one suggested from.
    expect(account.value).toBe('a1');
    expect(
      within(account)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Checking', 'Visa (card)']);
    await within(dialog).findByText(/You spent about \$212\.00 a week on everything else over the last 13 weeks\./);

    await user.selectOptions(account, 'a2');
    await within(dialog).findByText(/You spent about \$90\.00 a week on everything else over the last 13 weeks\./);
    expect(api.getEverydaySuggestion).toHaveBeenLastCalledWith('a2');
    await user.click(within(dialog).getByRole('button', { name: 'Use it' }));
    expect((within(dialog).getByRole('textbox', { name: 'Everyday spending' }) as HTMLInputElement).value).toBe('90.00');
    await user.click(within(dialog).getByRole('button', { name: 'Save everyday spending' }));
    await waitFor(() => expect(updateEveryday).toHaveBeenCalledWith({ weekly: 90, accountId: 'a2' }));
    await within(dialog).findByText('Saved. Your forecast now includes everyday spending.');
  });

  it("shows the account it is saved on, and the server's word on the account beside the choice", async () => {
    const saved = { ...PROFILE, everydaySpending: { weekly: 50, accountId: 'a2' } };
    const { user, dialog } = await openSettings(
      {
        getProfile: vi.fn(async () => saved),
        getEverydaySuggestion: suggestionFor,
        updateEveryday: vi.fn(async () => {
          throw refused('updateProfile', { 'everydaySpending.accountId': 'Account must be the id of one of your accounts.' });
        }),
      },
      SETTINGS,
      [CHECKING, VISA],
    );
    const account = (await within(dialog).findByRole('combobox', { name: 'Comes out of' })) as HTMLSelectElement;
    expect(account.value).toBe('a2');
    expect((within(dialog).getByRole('textbox', { name: 'Everyday spending' }) as HTMLInputElement).value).toBe('50.00');
    await within(dialog).findByText(/You spent about \$90\.00 a week/);
    await user.click(within(dialog).getByRole('button', { name: 'Save everyday spending' }));
    expect(await within(dialog).findByText('Account must be the id of one of your accounts.')).toBeTruthy();
    expect(account.getAttribute('aria-invalid')).toBe('true');
  });

  it('offers no choice with one account: it comes out of that one', async () => {
    const { dialog } = await openSettings({ getProfile: vi.fn(async () => PROFILE), getEverydaySuggestion: suggestionFor }, SETTINGS, [
      CHECKING,
    ]);
    await within(dialog).findByText(/You spent about \$212\.00 a week/);
    expect(within(dialog).queryByRole('combobox', { name: 'Comes out of' })).toBeNull();
  });

  it('says so and suggests nothing with fewer than 4 weeks of history', async () => {
    const { dialog } = await openSettings({
      getProfile: vi.fn(async () => PROFILE),
      getEverydaySuggestion: vi.fn(async () => ({ accountId: 'a1', weeks: WEEKS.slice(0, 3), suggestion: null })),
    });
    await within(dialog).findByText('Leftover suggests an amount after 4 full weeks of history; this account has 3.');
    expect(within(dialog).queryByRole('button', { name: 'Use it' })).toBeNull();
  });
});
