/**
 * Webhooks and push services must not reach into the server's own network (issues 26 and 34,
 * decisions 0051 and 0067): the notifications' face of the outbound allow-list
 * (src/server/http/outbound-address.ts), with the words a refusal is said in. Checked when a
 * channel is added and again on every send, against the address the request then connects to.
 */
import { checkOutboundHost, type OutboundRules, pinnedLookup as pinnedOutboundLookup } from '../http/outbound-address.js';

export { RefusedAddressError as PrivateAddressError } from '../http/outbound-address.js';

export const PRIVATE_ADDRESS_REFUSED =
  "This address is on a private or local network, or is this server's own, which Leftover does not send to (the operator can allow it with NOTIFY_ALLOW_PRIVATE_URLS=true).";
export const HOST_NOT_FOUND = "Leftover could not find this address's server.";

/** A URL's host as an address to connect to: brackets taken off an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

export type AddressCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly retry: boolean };

/** Every address the host names, each checked; a name that resolves to any refused address is refused whole. */
export async function checkHost(host: string, rules: OutboundRules): Promise<AddressCheck> {
  const check = await checkOutboundHost(host, rules);
  if (check.ok) return check;
  return check.problem === 'refused'
    ? { ok: false, reason: PRIVATE_ADDRESS_REFUSED, retry: false }
    : { ok: false, reason: HOST_NOT_FOUND, retry: true };
}

/** The lookup a webhook's or push service's socket connects with: a refused address fails it with PrivateAddressError. */
export function pinnedLookup(rules: OutboundRules) {
  return pinnedOutboundLookup(rules, PRIVATE_ADDRESS_REFUSED);
}
