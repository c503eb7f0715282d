/**
 * Webhooks must not reach into the server's own network (issue 26, decision 0051): a URL whose host
 * is, or resolves to, a loopback, private, link-local, shared (CGNAT), multicast, reserved or cloud
 * metadata address is refused unless the operator allows it (NOTIFY_ALLOW_PRIVATE_URLS=true). The
 * check runs when the webhook is added and again on every send, against the address the request
 * then connects to: the lookup that checks is the lookup the socket uses, so a name that resolves
 * elsewhere between the check and the connection (DNS rebinding) cannot slip through.
 */
import dns from 'node:dns';
import net from 'node:net';

/** Ranges no webhook may reach (IPv4-mapped IPv6 addresses are checked against the IPv4 ones by BlockList). */
const BLOCKED = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGNAT); 100.100.100.200 is a cloud metadata address
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local; 169.254.169.254 is the cloud metadata address
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: an IPv4 address in disguise
  ['100::', 64], // discard
  ['fc00::', 7], // unique local; fd00:ec2::254 is a cloud metadata address
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export const PRIVATE_ADDRESS_REFUSED =
  'This address is on a private or local network, which Leftover does not send to (the operator can allow it with NOTIFY_ALLOW_PRIVATE_URLS=true).';
export const HOST_NOT_FOUND = "Leftover could not find this address's server.";
const LOOKUP_TIMEOUT_MS = 5_000;

/** A URL's host as an address to connect to: brackets taken off an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Names that are loopback by definition (RFC 6761), answered without asking DNS. */
function isLocalhostName(host: string): boolean {
  const lower = host.toLowerCase().replace(/\.$/, '');
  return lower === 'localhost' || lower.endsWith('.localhost');
}

export type AddressCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly retry: boolean };

/** Every address the host names, each checked; a name that resolves to any private address is refused whole. */
export async function checkHost(host: string, allowPrivate: boolean): Promise<AddressCheck> {
  if (allowPrivate) return { ok: true };
  if (net.isIP(host) !== 0) return isPrivateAddress(host) ? { ok: false, reason: PRIVATE_ADDRESS_REFUSED, retry: false } : { ok: true };
  if (isLocalhostName(host)) return { ok: false, reason: PRIVATE_ADDRESS_REFUSED, retry: false };
  let addresses: dns.LookupAddress[];
  let timer: NodeJS.Timeout | undefined;
  try {
    // A resolver that never answers must not hold the request: a few seconds, as a send's.
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
    });
    addresses = await Promise.race([dns.promises.lookup(host, { all: true, verbatim: true }), timedOut]);
  } catch {
    return { ok: false, reason: HOST_NOT_FOUND, retry: true };
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) return { ok: false, reason: HOST_NOT_FOUND, retry: true };
  if (addresses.some((entry) => isPrivateAddress(entry.address))) return { ok: false, reason: PRIVATE_ADDRESS_REFUSED, retry: false };
  return { ok: true };
}

/** Thrown by the pinned lookup: the request fails with it, and the sender reads it as a refusal. */
export class PrivateAddressError extends Error {
  constructor() {
    super(PRIVATE_ADDRESS_REFUSED);
    this.name = 'PrivateAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * The lookup a webhook's socket connects with: the host's addresses, refused when any is private
 * (unless allowed), and the first one handed to the socket, so the address checked is the address
 * connected to. `localhost` names resolve to loopback here, as RFC 6761 says they do.
 */
export function pinnedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    const answer = (addresses: dns.LookupAddress[]) => {
      if (!allowPrivate && addresses.some((entry) => isPrivateAddress(entry.address))) {
        callback(new PrivateAddressError(), '');
        return;
      }
      const chosen = addresses[0];
      if (!chosen) {
        callback(Object.assign(new Error(HOST_NOT_FOUND), { code: 'ENOTFOUND' }), '');
        return;
      }
      if (options.all) callback(null, [chosen]);
      else callback(null, chosen.address, chosen.family);
    };
    if (isLocalhostName(hostname)) {
      answer([{ address: '127.0.0.1', family: 4 }]);
      return;
    }
    dns.lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) callback(error, '');
      else answer(addresses);
    });
  };
}
