/**
 * An address Settings adds as a channel (POST /api/notifications/channels, issue 26): an email
 * address or a webhook URL, each the request as the server checks it. The page checks its two
 * address forms with these; the request itself, with a push subscription and the union of the
 * three kinds, is notification-requests.ts', which the page does not load (decision 0062).
 */
import * as z from 'zod/mini';
import { MAX_EMAIL_LENGTH, MAX_WEBHOOK_URL_LENGTH } from './notifications.js';
import { hasControlOrLoneSurrogate, OBJECT_BODY } from './request-fields.js';

const EMAIL_MESSAGE = 'Target must be an email address, like you@example.com.';
const WEBHOOK_MESSAGE = 'Target must be an http:// or https:// address.';

/**
 * An http(s) address with a host and no user name or password in it: where the server may send. It
 * is kept as written, so a control character or a lone surrogate, which the URL parser would drop or
 * escape, is refused rather than stored (PostgreSQL cannot keep U+0000).
 */
export function isWebAddress(value: string, schemes: readonly string[]): boolean {
  if (hasControlOrLoneSurrogate(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return schemes.includes(url.protocol) && url.hostname !== '' && url.username === '' && url.password === '';
}

const emailTarget = z.string({ error: EMAIL_MESSAGE }).check(
  z.trim(),
  z.maxLength(MAX_EMAIL_LENGTH, `Target must be at most ${MAX_EMAIL_LENGTH} characters.`),
  // Checked by zod's address pattern: one @, a dotted domain, nothing a mail header could be split with.
  z.email(EMAIL_MESSAGE),
);

const webhookTarget = z.string({ error: WEBHOOK_MESSAGE }).check(
  z.trim(),
  z.maxLength(MAX_WEBHOOK_URL_LENGTH, `Target must be at most ${MAX_WEBHOOK_URL_LENGTH} characters.`),
  z.refine((value: string) => isWebAddress(value, ['http:', 'https:']), WEBHOOK_MESSAGE),
);

export const emailChannelSchema = z.object({ kind: z.literal('EMAIL'), target: emailTarget }, OBJECT_BODY);
export const webhookChannelSchema = z.object({ kind: z.literal('WEBHOOK'), target: webhookTarget }, OBJECT_BODY);
