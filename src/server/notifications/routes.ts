/**
 * Notifications (issue 26, decision 0051): the settings and channels under /api/notifications, and
 * the two pages an email's links open (confirm, unsubscribe), which sit outside /api and its token
 * check: the secret in the path is the proof, each address has its own, and they are rate-limited
 * per network address. Only a POST changes anything (RFC 8058's one-click unsubscribe is a POST).
 * A link past its time (7 days to confirm, a year to unsubscribe; decision 0069) shows a page that
 * says so and what to do instead.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DELIVERED, NOT_DELIVERED } from '../../contract/notifications.js';
import { NotFoundError } from '../../domain/errors.js';
import { callerOf } from '../http/api-scope.js';
import { registerEndpoint } from '../http/endpoint-route.js';
import { TooManyRequestsError } from '../../domain/errors.js';
import { CONFIRM_PATH, type ChannelDelivery, UNSUBSCRIBE_PATH } from './channel-delivery.js';
import { askPage, CONFIRM_LINK_EXPIRED_PAGE, donePage, EXPIRED_LINK_PAGE, UNSUBSCRIBE_LINK_EXPIRED_PAGE } from './link-pages.js';
import type { LinkAnswer, LinkedChannel, NotificationService } from './notification-service.js';

export interface NotificationRoutesOptions {
  readonly notifications: NotificationService;
  readonly delivery: ChannelDelivery;
}

export const notificationRoutes: FastifyPluginAsyncZod<NotificationRoutesOptions> = async (api, { notifications, delivery }) => {
  registerEndpoint(api, 'getNotifications', async (request) => notifications.settings(callerOf(request)));
  registerEndpoint(api, 'updateNotifications', async (request) => notifications.updateRules(callerOf(request), request.body));
  registerEndpoint(api, 'addNotificationChannel', async (request) => notifications.addChannel(callerOf(request), request.body));
  registerEndpoint(api, 'removeNotificationChannel', async (request) => notifications.removeChannel(callerOf(request), request.params.id));
  registerEndpoint(api, 'testNotificationChannel', async (request) => {
    const outcome = await notifications.testChannel(callerOf(request), request.params.id);
    if (outcome.delivered) return { delivered: true, message: DELIVERED } as const;
    // Why goes to the log, never to the caller: it would tell which ports of which hosts answer (decision 0067).
    request.log.warn({ channelId: request.params.id, reason: outcome.reason }, 'a test notification was not delivered');
    return { delivered: false, message: NOT_DELIVERED } as const;
  });
  registerEndpoint(api, 'getPushKey', async () => {
    if (!delivery.push) throw new NotFoundError('Push notifications are not offered on this server.');
    return { publicKey: delivery.push.publicKey };
  });
};

/** Requests to the link pages a minute from one address: people click a link or two; a scanner or a guesser gets 429. */
export const LINK_PAGES_PER_MINUTE = 60;

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  // The page names an address: never kept by a cache; and not framed.
  return reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
}

function addressOf(channel: LinkedChannel): string {
  return channel.kind === 'EMAIL' ? channel.target : 'this channel';
}

export async function notificationLinkRoutes(scope: FastifyInstance, { notifications }: Pick<NotificationRoutesOptions, 'notifications'>) {
  await scope.register(rateLimit, { global: false });
  const limit = scope.createRateLimit({ max: LINK_PAGES_PER_MINUTE, timeWindow: 60_000, keyGenerator: (request) => request.ip });
  scope.addHook('onRequest', async (request) => {
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new TooManyRequestsError(
        `Too many requests from your address. Try again in ${result.ttlInSeconds} seconds.`,
        result.ttlInSeconds,
      );
    }
  });
  // The body of a POST here says nothing the path does not (RFC 8058 sends "List-Unsubscribe=One-Click"): read and ignored.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_request, _body, done) => done(null, undefined));

  type WithToken = { Params: { token: string } };

  /** A link that never worked or no longer does is 404; one past its time is 410, with what to do instead. */
  const deadLink = (reply: FastifyReply, answer: Exclude<LinkAnswer, LinkedChannel>, expiredPage: string) =>
    answer === 'expired' ? sendPage(reply, 410, expiredPage) : sendPage(reply, 404, EXPIRED_LINK_PAGE);

  scope.get<WithToken>(`${CONFIRM_PATH}/:token`, async (request, reply) => {
    const channel = await notifications.linkedChannel(request.params.token, 'CONFIRM');
    if (channel === 'expired' || channel === undefined) return deadLink(reply, channel, CONFIRM_LINK_EXPIRED_PAGE);
    if (channel.confirmed)
      return sendPage(reply, 200, donePage('Already confirmed', `Leftover sends notifications to ${addressOf(channel)}.`));
    return sendPage(
      reply,
      200,
      askPage('Confirm your address', `Send Leftover's notifications to ${addressOf(channel)}?`, 'Confirm this address'),
    );
  });

  scope.post<WithToken>(`${CONFIRM_PATH}/:token`, async (request, reply) => {
    const channel = await notifications.confirm(request.params.token);
    if (channel === 'expired' || channel === undefined) return deadLink(reply, channel, CONFIRM_LINK_EXPIRED_PAGE);
    return sendPage(reply, 200, donePage('Address confirmed', `Leftover will send notifications to ${addressOf(channel)}.`));
  });

  scope.get<WithToken>(`${UNSUBSCRIBE_PATH}/:token`, async (request, reply) => {
    const channel = await notifications.linkedChannel(request.params.token, 'UNSUBSCRIBE');
    if (channel === 'expired' || channel === undefined) return deadLink(reply, channel, UNSUBSCRIBE_LINK_EXPIRED_PAGE);
    return sendPage(
      reply,
      200,
      askPage(
        'Unsubscribe',
        `Stop all of Leftover's notifications to ${addressOf(channel)}? Your other channels stay as they are.`,
        'Unsubscribe',
      ),
    );
  });

  scope.post<WithToken>(`${UNSUBSCRIBE_PATH}/:token`, async (request, reply) => {
    const channel = await notifications.unsubscribe(request.params.token);
    if (channel === 'expired' || channel === undefined) return deadLink(reply, channel, UNSUBSCRIBE_LINK_EXPIRED_PAGE);
    return sendPage(reply, 200, donePage('Unsubscribed', `Leftover sends nothing more to ${addressOf(channel)}.`));
  });
}
