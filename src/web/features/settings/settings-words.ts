/** What Settings says: a channel's kind and last result in words, an hour, and a failed call. */
import { type ChannelInfo, type ChannelKind, DELIVERED, type TestDelivery } from '../../../contract/notifications.js';
import { ApiCallError } from '../../api/api-client.js';

export const KIND_WORDS: Readonly<Record<ChannelKind, string>> = { EMAIL: 'Email', PUSH: 'Push', WEBHOOK: 'Webhook' };

/** 8 is "08:00": the hour of the user's day the day's messages go out. */
export function hourText(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}

/** A test's answer as the server says it: "Delivered" or "Not delivered", never why (decision 0067). */
export function testText(result: TestDelivery): string {
  return result.message;
}

/** The last delivery to a channel, with when (in the user's zone): "Delivered" or the reason, or "Nothing sent yet." */
export function lastResultText(channel: ChannelInfo, timeZone: string): string {
  const last = channel.lastResult;
  if (!last) return 'Nothing sent yet.';
  const when = new Date(last.at);
  const at = Number.isNaN(when.getTime())
    ? ''
    : ` (${new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(when)})`;
  return `${last.delivered ? DELIVERED : last.reason}${at}`;
}

/** A failed call as the user reads it: the catalogue's words, then the server's (field messages go beside their fields). */
export function problemOf(error: unknown): string {
  if (error instanceof ApiCallError) return `${error.message} ${error.detail}`;
  return error instanceof Error ? error.message : String(error);
}
