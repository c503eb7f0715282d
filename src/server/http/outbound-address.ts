/**
 * Where the server may connect on a user's behalf (issue 34, decision 0067): webhooks, push
 * services, and next the bank connections. An allow-list, not a deny-list: only globally routable
 * unicast addresses pass. Every IANA special-purpose block is refused (ipaddr.js keeps the
 * registry's ranges), IPv6 outside 2000::/3 too (which takes IPv4-mapped, IPv4-compatible, NAT64
 * and every other form of an IPv4 address with it, and 2002::/16, 6to4, is a special block of its
 * own), and so is every address of the server's own interfaces, read at each check because they
 * change. The operator may open it all (NOTIFY_ALLOW_PRIVATE_URLS=true: a home server sending to
 * its own network).
 *
 * A name is checked by the lookup its socket connects with (pinnedLookup): the address checked is
 * the address connected to, so a name that resolves elsewhere between the check and the
 * connection (DNS rebinding) cannot slip through. An address literal is connected to without a
 * lookup, so a sender checks it itself (isAllowedAddress) before it opens anything.
 */
import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import ipaddr from 'ipaddr.js';

/** The one block IANA allocates IPv6 global unicast addresses from. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Whether an address is globally routable unicast: outside every IANA special-purpose block, and
 * not multicast or broadcast. Anything that is not an address at all is not.
 */
export function isGlobalUnicast(address: string): boolean {
  // net.isIP first: ipaddr.js would also read "127.1" or "0x7f.1", which a socket never receives.
  if (net.isIP(address) === 0) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  return parsed.match(GLOBAL_UNICAST_V6) && parsed.range() === 'unicast';
}

/** Every address of this machine's interfaces, as the system lists them now. */
export function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
}

/** One spelling per address ("2001:DB8::1", "2001:db8:0::1" and "2001:db8::1%eth0" are one). */
function addressKey(address: string): string {
  return net.isIP(address) === 0 ? address : (ipaddr.parse(address).toNormalizedString().split('%')[0] ?? address);
}

export interface OutboundRules {
  /** Everything may be reached, private and own addresses too (NOTIFY_ALLOW_PRIVATE_URLS=true). */
  readonly allowPrivate: boolean;
  /** The server's own addresses; the interfaces' (interfaceAddresses) unless a test names others. */
  readonly ownAddresses?: () => readonly string[];
  /** How a name becomes addresses; the system's resolver (dns.lookup) unless a test answers instead. */
  readonly resolve?: (host: string) => Promise<readonly dns.LookupAddress[]>;
}

/** Whether the rules let a connection go to this address (an IP literal). */
export function isAllowedAddress(address: string, rules: OutboundRules): boolean {
  if (rules.allowPrivate) return true;
  if (!isGlobalUnicast(address)) return false;
  const key = addressKey(address);
  return !(rules.ownAddresses ?? interfaceAddresses)().some((own) => addressKey(own) === key);
}

const systemResolve = (host: string) => dns.promises.lookup(host, { all: true, verbatim: true });

/** Names that are loopback by definition (RFC 6761), answered without asking DNS. */
function isLocalhostName(host: string): boolean {
  const lower = host.toLowerCase().replace(/\.$/, '');
  return lower === 'localhost' || lower.endsWith('.localhost');
}

/** The addresses a name stands for: loopback for localhost names, the resolver's answer otherwise. */
async function addressesOf(host: string, rules: OutboundRules): Promise<readonly dns.LookupAddress[]> {
  if (isLocalhostName(host)) return [{ address: '127.0.0.1', family: 4 }];
  return (rules.resolve ?? systemResolve)(host);
}

export type HostCheck =
  | { readonly ok: true }
  /** refused: an address the rules forbid (for good); not-found: no address now (a later try may find one). */
  | { readonly ok: false; readonly problem: 'refused' | 'not-found' };

const LOOKUP_TIMEOUT_MS = 5_000;

/**
 * A host (a name or an IP literal, brackets off) checked before anything is stored or sent: every
 * address it names must be allowed; one that is not refuses the host whole.
 */
export async function checkOutboundHost(host: string, rules: OutboundRules): Promise<HostCheck> {
  if (rules.allowPrivate) return { ok: true };
  if (net.isIP(host) !== 0) return isAllowedAddress(host, rules) ? { ok: true } : { ok: false, problem: 'refused' };
  let addresses: readonly dns.LookupAddress[];
  let timer: NodeJS.Timeout | undefined;
  try {
    // A resolver that never answers must not hold the request: a few seconds, as a send's.
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
    });
    addresses = await Promise.race([addressesOf(host, rules), timedOut]);
  } catch {
    return { ok: false, problem: 'not-found' };
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) return { ok: false, problem: 'not-found' };
  return addresses.every((entry) => isAllowedAddress(entry.address, rules)) ? { ok: true } : { ok: false, problem: 'refused' };
}

/** Thrown through the pinned lookup: the request fails with it before its socket connects. */
export class RefusedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddressError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * The lookup a socket connects with (http.request's or an Agent's `lookup`): the host's addresses,
 * refused with a RefusedAddressError (carrying `refusal`) when any is not allowed, else the first
 * one handed to the socket, so the address checked is the address connected to.
 */
export function pinnedLookup(rules: OutboundRules, refusal: string) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    addressesOf(hostname, rules).then(
      (addresses) => {
        if (!addresses.every((entry) => isAllowedAddress(entry.address, rules))) {
          callback(new RefusedAddressError(refusal), '');
          return;
        }
        const chosen = addresses[0];
        if (!chosen) {
          callback(Object.assign(new Error(`No address for ${hostname}.`), { code: 'ENOTFOUND' }), '');
          return;
        }
        if (options.all) callback(null, [chosen]);
        else callback(null, chosen.address, chosen.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
