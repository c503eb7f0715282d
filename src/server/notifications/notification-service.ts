/**
 * What Leftover tells you, as the API sees it (issue 26, decision 0051): the settings (hour and
 * rules, the time zone they are read in), the channels, a test send, and the two links an email
 * carries (confirm, unsubscribe), which need no sign-in. Writes run under the owner's lock, so two
 * adds of one address at once make one channel. No mail to strangers (issue 34, decision 0069): an
 * address gets its confirmation mail only when added, within limits counted across all users, and
 * nothing else until it is confirmed.
 */
import type { NewChannel, NotificationPreferences } from '../../contract/notification-requests.js';
import { type ChannelInfo, MAX_CHANNELS, NOT_DELIVERED, type NotificationSettings } from '../../contract/notifications.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../domain/errors.js';
import { todayInZone } from '../../domain/time-zones.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { withOwnerLock } from '../db/owner-lock.js';
import { keepUserSettings, readUserSettings, storeNotificationRules } from '../profile/user-settings-store.js';
import { checkHost, hostOf } from './address-guard.js';
import { type ChannelDelivery, EMAIL_NOT_OFFERED, PUSH_NOT_OFFERED } from './channel-delivery.js';
import { findLink, type LinkPurpose } from './channel-links.js';
import { ASKED_FOR_QUIET, quietUntil, reserveConfirmation, startQuietPeriod, waitInWords } from './channel-mail-limits.js';
import {
  confirmChannel,
  countChannels,
  deleteChannel,
  findChannel,
  findChannelByTarget,
  findLinkedChannel,
  insertChannel,
  listChannels,
  recordDelivery,
  type StoredChannel,
  updatePushKeys,
} from './channel-store.js';
import type { DeliveryResult, OutgoingMessage } from './delivery.js';
import { dropChannelMessages } from './outbox-store.js';

export const NO_CHANNEL = 'No such channel.';
const ALREADY_A_CHANNEL = 'This is already one of your channels.';

/** Why an address added again within the limits got no second confirmation mail: the channel's lastResult says so. */
function heldBack(waitMs: number): string {
  return `No confirmation mail was sent: an address gets at most one an hour and 3 a day. Remove it and add it again in ${waitInWords(waitMs)} for a new link.`;
}

/**
 * Why a delivery failed, as the owner may read it. A webhook's URL and a push endpoint are the
 * user's to choose, so their reasons (refused, timed out, unreachable, answered 503) would map
 * which ports of which hosts answer: only "Not delivered" (decision 0067). An email's reason comes
 * from the operator's own SMTP server and is kept.
 */
function shownReason(kind: StoredChannel['kind'], reason: string | null): string {
  return kind === 'EMAIL' && reason !== null ? reason : NOT_DELIVERED;
}

function channelAnswer(channel: StoredChannel): ChannelInfo {
  const { last, delivery } = channel;
  const failing = delivery.failingSince !== null;
  return {
    id: channel.id,
    kind: channel.kind,
    target: channel.target,
    confirmed: channel.confirmed,
    lastResult:
      last === null
        ? null
        : last.delivered
          ? { delivered: true, at: last.at }
          : { delivered: false, reason: shownReason(channel.kind, last.reason), at: last.at },
    state: delivery.needsAttentionAt !== null ? 'NEEDS_ATTENTION' : failing ? 'FAILING' : 'OK',
    failingSince: delivery.failingSince,
    retryAt: failing && delivery.needsAttentionAt === null ? delivery.retryAt : null,
  };
}

/** What a test send did: whether it arrived, and why not, for the server's log only (the answer says "Not delivered"). */
export type TestOutcome = { readonly delivered: true } | { readonly delivered: false; readonly reason: string };

/** What a channel's link shows before it is used: its kind and target, whether confirmed. */
export interface LinkedChannel {
  readonly kind: StoredChannel['kind'];
  readonly target: string;
  readonly confirmed: boolean;
}

/** What a link finds: its channel, or that it has expired; undefined for a link that never worked or no longer does. */
export type LinkAnswer = LinkedChannel | 'expired' | undefined;

const linkedOf = (channel: StoredChannel): LinkedChannel => ({ kind: channel.kind, target: channel.target, confirmed: channel.confirmed });

export class NotificationService {
  constructor(
    private readonly database: OpenDatabase,
    private readonly now: () => Date,
    private readonly defaultZone: string,
    private readonly delivery: ChannelDelivery,
  ) {}

  async settings(owner: Caller): Promise<NotificationSettings> {
    const { db } = this.database;
    const settings = await readUserSettings(db, owner);
    return {
      timeZone: settings.timeZone ?? this.defaultZone,
      hour: settings.hour,
      belowZero: settings.belowZero,
      billsDue: settings.billsDue,
      channels: (await listChannels(db, owner)).map(channelAnswer),
      available: this.delivery.available(),
    };
  }

  async updateRules(owner: Caller, rules: NotificationPreferences): Promise<NotificationSettings> {
    await withOwnerLock(this.database, owner, (trx) => storeNotificationRules(trx, owner, rules, this.now()));
    return this.settings(owner);
  }

  /**
   * Adds an email address (sent its confirmation link at once, within its limits; refused in its
   * quiet days after a one-click unsubscribe), a push subscription (the same endpoint again renews
   * its keys) or a webhook (refused when it reaches a private address).
   */
  async addChannel(owner: Caller, request: NewChannel): Promise<NotificationSettings> {
    const offered = this.delivery.available();
    if (!offered.includes(request.kind)) {
      const message = request.kind === 'EMAIL' ? EMAIL_NOT_OFFERED : PUSH_NOT_OFFERED;
      throw new InvalidInputError(message, { kind: message });
    }
    // A webhook's URL and a push subscription's endpoint are where the server will send: never a private address.
    if (request.kind === 'WEBHOOK' || request.kind === 'PUSH') {
      const url = request.kind === 'PUSH' ? request.target.endpoint : request.target;
      const field = request.kind === 'PUSH' ? 'target.endpoint' : 'target';
      const check = await checkHost(hostOf(new URL(url)), { allowPrivate: this.delivery.allowPrivateUrls });
      // A push service the server cannot look up now may be reachable at the first send (the send's own
      // lookup refuses a private address then); a private address is refused at once.
      if (!check.ok && (request.kind === 'WEBHOOK' || !check.retry)) throw new InvalidInputError(check.reason, { [field]: check.reason });
    }
    const target = request.kind === 'PUSH' ? request.target.endpoint : request.target;
    const push = request.kind === 'PUSH' ? { p256dh: request.target.keys.p256dh, auth: request.target.keys.auth } : null;
    const added = await withOwnerLock(this.database, owner, async (trx) => {
      const existing = await findChannelByTarget(trx, owner, request.kind, target);
      if (existing) {
        if (!push) throw new InvalidInputError(ALREADY_A_CHANNEL, { target: ALREADY_A_CHANNEL });
        await updatePushKeys(trx, existing.id, push);
        return undefined;
      }
      if (request.kind === 'EMAIL' && (await quietUntil(trx, target, this.now())) !== undefined) {
        throw new InvalidInputError(ASKED_FOR_QUIET, { target: ASKED_FOR_QUIET });
      }
      if ((await countChannels(trx, owner)) >= MAX_CHANNELS) {
        throw new ConflictError(`You can have at most ${MAX_CHANNELS} channels: remove one first.`);
      }
      await keepUserSettings(trx, owner, this.now());
      return insertChannel(trx, owner, { kind: request.kind, target, push, confirmed: request.kind !== 'EMAIL' }, this.now());
    });
    if (added?.kind === 'EMAIL') await this.sendConfirmation(added);
    return this.settings(owner);
  }

  async removeChannel(owner: Caller, id: string): Promise<NotificationSettings> {
    await withOwnerLock(this.database, owner, async (trx) => {
      const channel = await findChannel(trx, owner, id);
      if (!channel) throw new NotFoundError(NO_CHANNEL);
      await dropChannelMessages(trx, channel.id);
      await deleteChannel(trx, channel.id);
    });
    return this.settings(owner);
  }

  /**
   * Sends the test message now and answers what happened. An address not yet confirmed is sent
   * nothing (409): its confirmation mail went when it was added, and a test may not send it again.
   */
  async testChannel(owner: Caller, id: string): Promise<TestOutcome> {
    const channel = await findChannel(this.database.db, owner, id);
    if (!channel) throw new NotFoundError(NO_CHANNEL);
    if (channel.kind === 'EMAIL' && !channel.confirmed) {
      throw new ConflictError(`Confirm this address first: we sent a link to ${channel.target}.`);
    }
    const zone = (await readUserSettings(this.database.db, owner)).timeZone ?? this.defaultZone;
    const message: OutgoingMessage = {
      kind: 'TEST',
      title: 'Leftover test',
      message: 'This is a test from Leftover: notifications reach you here.',
      url: this.delivery.homeUrl(),
      date: todayInZone(this.now(), zone),
    };
    const result = await this.deliverAndRecord(channel, message);
    return result.delivered ? { delivered: true } : { delivered: false, reason: result.reason };
  }

  /** The channel a link of this purpose names, 'expired' past its time, undefined for a link that never worked or no longer does. */
  async linkedChannel(token: string, purpose: LinkPurpose): Promise<LinkAnswer> {
    const found = await this.channelOfLink(token, purpose);
    return found === 'expired' || found === undefined ? found : linkedOf(found);
  }

  /** Confirms the address the confirm link was sent to. */
  async confirm(token: string): Promise<LinkAnswer> {
    const found = await this.channelOfLink(token, 'CONFIRM');
    if (found === 'expired' || found === undefined) return found;
    await confirmChannel(this.database.db, found.id);
    return { ...linkedOf(found), confirmed: true };
  }

  /**
   * Removes the one channel the unsubscribe link belongs to, and what it was still to be sent; an
   * email address is then left alone for 30 days, whoever adds it.
   */
  async unsubscribe(token: string): Promise<LinkAnswer> {
    const found = await this.channelOfLink(token, 'UNSUBSCRIBE');
    if (found === 'expired' || found === undefined) return found;
    await withOwnerLock(this.database, found.owner, async (trx) => {
      await dropChannelMessages(trx, found.id);
      await deleteChannel(trx, found.id);
      if (found.kind === 'EMAIL') await startQuietPeriod(trx, found.target, this.now());
    });
    return linkedOf(found);
  }

  private async channelOfLink(token: string, purpose: LinkPurpose): Promise<StoredChannel | 'expired' | undefined> {
    const link = await findLink(this.database.db, token, purpose, this.now());
    if (!link) return undefined;
    if (link.expired) return 'expired';
    return findLinkedChannel(this.database.db, link.channelId);
  }

  /**
   * The confirmation mail, when the address's limits allow one now (at most one an hour and 3 a
   * day, across all users); otherwise nothing is sent and the channel's lastResult says why.
   */
  private async sendConfirmation(channel: StoredChannel): Promise<void> {
    const now = this.now();
    const slot = await reserveConfirmation(this.database, channel.target, now);
    if (!slot.allowed) {
      await recordDelivery(this.database.db, channel.id, now, false, slot.quiet ? ASKED_FOR_QUIET : heldBack(slot.waitMs));
      return;
    }
    const message: OutgoingMessage = {
      kind: 'CONFIRM',
      title: 'Confirm your address for Leftover',
      message:
        'Leftover was asked to send notifications to this address. Confirm it with the link below; if it was not you, ignore this mail and nothing more will be sent.',
      url: await this.delivery.confirmUrl(channel),
      date: todayInZone(now, this.defaultZone),
    };
    await this.deliverAndRecord(channel, message);
  }

  /** Delivers and keeps the outcome as the channel's lastResult; a push subscription that is gone is removed. */
  private async deliverAndRecord(channel: StoredChannel, message: OutgoingMessage): Promise<DeliveryResult> {
    const result = await this.delivery.deliver(channel, message);
    const { db } = this.database;
    if (!result.delivered && result.gone) {
      await dropChannelMessages(db, channel.id);
      await deleteChannel(db, channel.id);
      return { ...result, reason: `${result.reason} This device's subscription was removed.` };
    }
    await recordDelivery(db, channel.id, this.now(), result.delivered, result.delivered ? null : result.reason);
    return result;
  }
}
