/**
 * The webhook channel (issue 26, decision 0051): a JSON POST of { title, message, url, kind, date }
 * to the user's URL; an ntfy topic gets ntfy's own JSON publish instead, so the phone shows a title,
 * the text and a tap that opens Leftover. Only globally routable addresses that are not the
 * server's own are reached (address-guard.ts, decision 0067), a redirect is an answer, never
 * followed, and the whole exchange has WEBHOOK_TIMEOUT_MS.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isAllowedAddress, type OutboundRules } from '../http/outbound-address.js';
import { type DeliveryResult, type OutgoingMessage, shortReason } from './delivery.js';
import { HOST_NOT_FOUND, hostOf, pinnedLookup, PRIVATE_ADDRESS_REFUSED, PrivateAddressError } from './address-guard.js';

export const WEBHOOK_TIMEOUT_MS = 5_000;

/** An ntfy topic's name, as ntfy allows it. */
const NTFY_TOPIC = /^[-_A-Za-z0-9]{1,64}$/;

/**
 * The topic, when the URL is an ntfy topic: on ntfy.sh, or on a server whose name starts with
 * "ntfy." (how self-hosted ntfy is usually named), with the topic as the whole path. Null otherwise:
 * any other URL gets the plain JSON POST.
 */
export function ntfyTopicOf(url: URL): string | null {
  const host = url.hostname.toLowerCase();
  if (host !== 'ntfy.sh' && !host.startsWith('ntfy.')) return null;
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  const topic = segments[0];
  return segments.length === 1 && topic !== undefined && NTFY_TOPIC.test(topic) ? topic : null;
}

/** The request a URL gets: ntfy's JSON publish to the server's root (its query kept: ntfy's ?auth=), or the plain JSON. */
function requestFor(url: URL, message: OutgoingMessage): { target: URL; body: string } {
  const topic = ntfyTopicOf(url);
  if (topic !== null) {
    const target = new URL(`/${url.search}`, url);
    const tags = message.kind === 'BELOW_ZERO' ? ['warning'] : [];
    return { target, body: JSON.stringify({ topic, title: message.title, message: message.message, click: message.url, tags }) };
  }
  const { title, message: text, url: link, kind, date } = message;
  return { target: url, body: JSON.stringify({ title, message: text, url: link, kind, date }) };
}

function answerOf(status: number): DeliveryResult {
  if (status >= 200 && status < 300) return { delivered: true };
  if (status >= 300 && status < 400) {
    return { delivered: false, reason: `The webhook answered ${status}, a redirect, which Leftover does not follow.`, retry: false };
  }
  // A refusal of this message is not retried; a server that is busy or broken may answer later.
  const retry = status === 408 || status === 429 || status >= 500;
  return { delivered: false, reason: `The webhook answered ${status}.`, retry };
}

function failureOf(error: unknown, timeoutMs: number, timedOut: boolean): DeliveryResult {
  if (timedOut) return { delivered: false, reason: `The webhook did not answer within ${timeoutMs / 1000} seconds.`, retry: true };
  if (error instanceof PrivateAddressError) return { delivered: false, reason: PRIVATE_ADDRESS_REFUSED, retry: false };
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { delivered: false, reason: HOST_NOT_FOUND, retry: true };
  return { delivered: false, reason: shortReason(`Could not reach the webhook${code ? ` (${code})` : ''}.`), retry: true };
}

/** NOTIFY_ALLOW_PRIVATE_URLS as allowPrivate, and the time a send may take. */
export interface WebhookOptions extends OutboundRules {
  readonly timeoutMs?: number;
}

/** POSTs the message; answers whether it arrived (a 2xx), never throws. */
export async function sendWebhook(address: string, message: OutgoingMessage, options: WebhookOptions): Promise<DeliveryResult> {
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  if (!URL.canParse(address)) return { delivered: false, reason: 'The webhook address is not a URL.', retry: false };
  const { target, body } = requestFor(new URL(address), message);
  const host = hostOf(target);
  // An address literal is connected to without a lookup: it is checked here instead, before any socket opens.
  if (net.isIP(host) !== 0 && !isAllowedAddress(host, options)) {
    return { delivered: false, reason: PRIVATE_ADDRESS_REFUSED, retry: false };
  }
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<DeliveryResult>((resolve) => {
    let timedOut = false;
    let settled = false;
    const settle = (result: DeliveryResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Leftover',
        },
        lookup: pinnedLookup(options),
        // No pooling: each send checks its own address.
        agent: false,
      },
      (response) => {
        // The answer's body is not read: only its status counts.
        response.resume();
        settle(answerOf(response.statusCode ?? 0));
        response.destroy();
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error('timeout'));
    }, timeoutMs);
    timer.unref();
    request.on('error', (error) => settle(failureOf(error, timeoutMs, timedOut)));
    request.end(body);
  });
}
