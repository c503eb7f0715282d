/**
 * One message to one channel, whatever its kind (decision 0051): email through the operator's SMTP
 * server, push through the server's VAPID keys, a webhook by HTTP. Knows the links messages carry
 * (PUBLIC_URL + Home, an address's confirm and unsubscribe pages). Records nothing but the new
 * unsubscribe link each mail carries (decision 0069): how it went is its callers' to record.
 */
import type { ChannelKind } from '../../contract/notifications.js';
import type { NotificationConfig } from '../config.js';
import type { LinkPurpose } from './channel-links.js';
import type { StoredChannel } from './channel-store.js';
import type { DeliveryResult, OutgoingMessage, PushSender } from './delivery.js';
import type { EmailSender } from './email-sender.js';
import { sendWebhook } from './webhook-sender.js';

/** The pages an address's links open, outside /api: no sign-in needed, the secret in the path is the proof. */
export const CONFIRM_PATH = '/notify/confirm';
export const UNSUBSCRIBE_PATH = '/notify/unsubscribe';

export const EMAIL_NOT_OFFERED = 'Email is not offered on this server: its operator has not set up SMTP_URL.';
export const PUSH_NOT_OFFERED = 'Push notifications are not offered on this server.';
export const NOT_CONFIRMED = 'This address is not confirmed yet: nothing but its confirmation link is sent to it.';

/** Makes a new link of a channel and answers its token (channel-links.ts' issueLink, on the app's database and clock). */
export type IssueLink = (channelId: string, purpose: LinkPurpose) => Promise<string>;

export class ChannelDelivery {
  constructor(
    private readonly config: NotificationConfig,
    private readonly email: EmailSender | null,
    readonly push: PushSender | null,
    private readonly webhookTimeoutMs: number | undefined,
    private readonly issueLink: IssueLink,
  ) {}

  /** The kinds this server offers: email only with SMTP_URL, push only with its keys; webhooks always. */
  available(): ChannelKind[] {
    return [...(this.email ? (['EMAIL'] as const) : []), ...(this.push ? (['PUSH'] as const) : []), 'WEBHOOK'];
  }

  /** Home, where every message leads. */
  homeUrl(): string {
    return `${this.config.publicUrl}/`;
  }

  /** A new confirm link of an address, for its confirmation mail. */
  async confirmUrl(channel: Pick<StoredChannel, 'id'>): Promise<string> {
    return `${this.config.publicUrl}${CONFIRM_PATH}/${await this.issueLink(channel.id, 'CONFIRM')}`;
  }

  /** A new unsubscribe link: every mail carries its own, working for a year from that mail. */
  private async unsubscribeUrl(channel: Pick<StoredChannel, 'id'>): Promise<string> {
    return `${this.config.publicUrl}${UNSUBSCRIBE_PATH}/${await this.issueLink(channel.id, 'UNSUBSCRIBE')}`;
  }

  /** Whether webhooks may reach private addresses (NOTIFY_ALLOW_PRIVATE_URLS). */
  get allowPrivateUrls(): boolean {
    return this.config.allowPrivateUrls;
  }

  async deliver(channel: StoredChannel, message: OutgoingMessage): Promise<DeliveryResult> {
    switch (channel.kind) {
      case 'EMAIL':
        if (!this.email) return { delivered: false, reason: EMAIL_NOT_OFFERED, retry: false };
        // Before its owner clicks the link, an address gets the link and nothing else.
        if (!channel.confirmed && message.kind !== 'CONFIRM') return { delivered: false, reason: NOT_CONFIRMED, retry: false };
        return this.email.send(channel.target, message, await this.unsubscribeUrl(channel));
      case 'PUSH':
        if (!this.push || !channel.push) return { delivered: false, reason: PUSH_NOT_OFFERED, retry: false };
        return this.push.send({ endpoint: channel.target, keys: channel.push }, message);
      case 'WEBHOOK':
        return sendWebhook(channel.target, message, {
          allowPrivate: this.config.allowPrivateUrls,
          ...(this.webhookTimeoutMs !== undefined && { timeoutMs: this.webhookTimeoutMs }),
        });
    }
  }

  close(): void {
    this.email?.close();
  }
}
