/**
 * Settings' calls (issue 26): the user's time zone and what Leftover tells them. Built on the api
 * client's own `request`, in a lazy chunk: only Settings and the sign-in's time zone load it, so
 * the page's first view carries none of it (benchmark 4a, decision 0048).
 */
import { createContext, useContext, useMemo } from 'react';
import { type Profile, profileSchema } from '../../contract/app-config.js';
import {
  type NotificationSettings,
  notificationSettingsSchema,
  type PushKey,
  pushKeySchema,
  type TestDelivery,
  testDeliverySchema,
} from '../../contract/notifications.js';
import type { NewChannel, NotificationPreferences } from '../../contract/notification-requests.js';
import type { ProfileUpdate } from '../../contract/settings-requests.js';
import { type EverydaySuggestion, everydaySuggestionSchema } from '../../contract/what-if.js';
import { useApiClient } from './api-context.js';
import { type ApiClient, endpoint } from './api-client.js';

/**
 * PATCH /api/me sets the time zone (its row's words, "Failed to save your time zone!"), "Keep at
 * least" and everyday spending: each save names its own setting when it fails.
 */
const BUFFER_FAILURE = 'Failed to save Keep at least!';
const EVERYDAY_FAILURE = 'Failed to save everyday spending!';

export interface SettingsApi {
  /** `onlyIfUnset`: the browser's zone at sign-in, kept only by a user who has none yet (decision 0047). */
  readonly updateTimeZone: (timeZone: string, onlyIfUnset?: boolean) => Promise<Profile>;
  readonly getNotifications: () => Promise<NotificationSettings>;
  readonly updateNotifications: (preferences: NotificationPreferences) => Promise<NotificationSettings>;
  readonly addChannel: (channel: NewChannel) => Promise<NotificationSettings>;
  readonly removeChannel: (id: string) => Promise<NotificationSettings>;
  readonly testChannel: (id: string) => Promise<TestDelivery>;
  readonly getPushKey: () => Promise<PushKey>;
  /** "Keep at least" and everyday spending (issue 36) are part of the profile. */
  readonly getProfile: () => Promise<Profile>;
  readonly updateBuffer: (buffer: NonNullable<ProfileUpdate['buffer']>) => Promise<Profile>;
  /** null turns everyday spending off. */
  readonly updateEveryday: (everydaySpending: NonNullable<ProfileUpdate['everydaySpending']> | null) => Promise<Profile>;
  readonly getEverydaySuggestion: (accountId?: string) => Promise<EverydaySuggestion>;
}

export function settingsApi(api: ApiClient): SettingsApi {
  return {
    // The browser's zone at sign-in is the person's, for their personal budget: sent without the
    // budget header whatever budget is in view (decision 0088). A zone chosen in Settings is the budget's.
    updateTimeZone: (timeZone, onlyIfUnset) =>
      api.request({
        ...endpoint('updateProfile'),
        answer: profileSchema,
        body: onlyIfUnset ? { timeZone, onlyIfUnset } : { timeZone },
        personal: onlyIfUnset === true,
      }),
    getNotifications: () => api.request({ ...endpoint('getNotifications'), answer: notificationSettingsSchema }),
    updateNotifications: (preferences) =>
      api.request({ ...endpoint('updateNotifications'), answer: notificationSettingsSchema, body: preferences }),
    addChannel: (channel) => api.request({ ...endpoint('addNotificationChannel'), answer: notificationSettingsSchema, body: channel }),
    removeChannel: (id) => api.request({ ...endpoint('removeNotificationChannel', id), answer: notificationSettingsSchema }),
    testChannel: (id) => {
      // The id sits inside the path (`/channels/:id/test`), which endpoint() fills only at its end.
      const { path, ...call } = endpoint('testNotificationChannel');
      return api.request({ ...call, path: path.replace(':id', encodeURIComponent(id)), answer: testDeliverySchema });
    },
    getPushKey: () => api.request({ ...endpoint('getPushKey'), answer: pushKeySchema }),
    getProfile: () => api.request({ ...endpoint('getProfile'), answer: profileSchema }),
    updateBuffer: (buffer) =>
      api.request({ ...endpoint('updateProfile'), failure: BUFFER_FAILURE, answer: profileSchema, body: { buffer } }),
    updateEveryday: (everydaySpending) =>
      api.request({ ...endpoint('updateProfile'), failure: EVERYDAY_FAILURE, answer: profileSchema, body: { everydaySpending } }),
    getEverydaySuggestion: (accountId) => {
      const { path, ...call } = endpoint('getEverydaySuggestion');
      const query = accountId === undefined ? '' : `?accountId=${encodeURIComponent(accountId)}`;
      return api.request({ ...call, path: `${path}${query}`, answer: everydaySuggestionSchema });
    },
  };
}

/** The browser's IANA zone, as the page sends it at sign-in; undefined when the browser names none. */
export function browserTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return typeof zone === 'string' && zone !== '' ? zone : undefined;
}

/** Where a tab notes which zone it sent for whom: a reload in the same tab sends nothing again. */
const SENT_ZONE_KEY = 'leftover.timeZoneSent';

/**
 * At sign-in: the browser's zone, stored only for a user who has none (decision 0047). Once per tab
 * and user, not on every load: a PATCH on each load reached the server with the first Pay after it
 * and slowed that Pay on a phone (benchmark 7). A failure is left alone and not noted: the server's
 * zone serves meanwhile, and the next load sends it again.
 */
export async function sendBrowserTimeZone(
  api: SettingsApi,
  who: string | undefined,
  storage: () => Storage = () => window.sessionStorage,
): Promise<void> {
  const zone = browserTimeZone();
  if (zone === undefined) return;
  const note = JSON.stringify({ who: who ?? null, zone });
  if (storedNote(storage) === note) return;
  try {
    await api.updateTimeZone(zone, true);
  } catch {
    return;
  }
  try {
    storage().setItem(SENT_ZONE_KEY, note);
  } catch {
    // Storage refused (full, or blocked): the zone goes again with the next load, as before.
  }
}

function storedNote(storage: () => Storage): string | null {
  try {
    return storage().getItem(SENT_ZONE_KEY);
  } catch {
    return null;
  }
}

const SettingsApiContext = createContext<SettingsApi | null>(null);

/** Component tests hand Settings their own calls; the page builds them from the api client. */
export const SettingsApiProvider = SettingsApiContext.Provider;

export function useSettingsApi(): SettingsApi {
  const api = useApiClient();
  const given = useContext(SettingsApiContext);
  return useMemo(() => given ?? settingsApi(api), [given, api]);
}
