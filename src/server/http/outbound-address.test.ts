/**
 * The outbound allow-list (issue 34, decision 0067): only globally routable unicast addresses, never
 * one of the server's own. Nothing here connects anywhere: addresses are classified, names are
 * answered by a resolver the test hands in, and the interfaces are read, never dialled.
 */
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  checkOutboundHost,
  interfaceAddresses,
  isAllowedAddress,
  isGlobalUnicast,
  pinnedLookup,
  RefusedAddressError,
} from './outbound-address.js';

/** Every IANA special-purpose block (IPv4 and IPv6 registries), multicast and broadcast, in its several spellings. */
const REFUSED: readonly (readonly [string, string])[] = [
  ['0.0.0.0', '"this network", unspecified'],
  ['0.1.2.3', '"this network"'],
  ['10.1.2.3', 'private'],
  ['100.64.0.1', 'shared address space (CGNAT)'],
  ['100.100.100.200', 'CGNAT, a cloud metadata address'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local, the cloud metadata address'],
  ['172.16.0.9', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.9', 'IETF protocol assignments'],
  ['192.0.0.170', 'NAT64 discovery'],
  ['192.0.2.2', 'TEST-NET-1'],
  ['192.31.196.1', 'AS112'],
  ['192.52.193.1', 'AMT'],
  ['192.88.99.1', 'deprecated 6to4 relay anycast'],
  ['192.168.1.20', 'private'],
  ['192.175.48.1', 'AS112'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.254', 'benchmarking'],
  ['198.51.100.7', 'TEST-NET-2'],
  ['203.0.113.9', 'TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast (SSDP)'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'limited broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::10.0.0.1', 'IPv4-compatible private'],
  ['::ffff:0:7f00:1', 'IPv4-translated (RFC 6145)'],
  ['64:ff9b::7f00:1', 'NAT64 form of loopback'],
  ['64:ff9b::a00:1', 'NAT64 form of a private address'],
  ['64:ff9b::c0a8:114', 'NAT64 form of 192.168.1.20'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['100::1', 'discard-only'],
  ['2001::1', 'Teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:db8::1', 'documentation'],
  ['2001:10::1', 'ORCHID'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2002:7f00:1::', '6to4 form of loopback'],
  ['2002:a00:1::1', '6to4 form of 10.0.0.1'],
  ['2002:a9fe:a9fe::', '6to4 form of the metadata address'],
  ['2620:4f:8000::1', 'AS112 v6'],
  ['3fff::1', 'documentation (RFC 9637)'],
  ['5f00::1', 'segment routing'],
  ['fc00::1', 'unique local'],
  ['fd00:ec2::254', 'unique local, a cloud metadata address'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['fec0::1', 'deprecated site-local'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'global multicast'],
  ['not-an-address', 'not an address at all'],
  ['127.1', 'a shorthand no socket receives'],
];

/** Globally routable: classified only, never connected to. */
const ALLOWED = ['8.8.8.8', '1.1.1.1', '93.184.215.14', '2001:4860:4860::8888', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'];

/** The rules with no interfaces of this machine in them: each test names the own addresses it means. */
const noOwn = { allowPrivate: false, ownAddresses: () => [] };

describe('globally routable unicast only', () => {
  it.each(REFUSED)('refuses %s (%s)', (address) => {
    expect(isGlobalUnicast(address)).toBe(false);
    expect(isAllowedAddress(address, noOwn)).toBe(false);
  });

  it.each(ALLOWED)('allows %s', (address) => {
    expect(isGlobalUnicast(address)).toBe(true);
    expect(isAllowedAddress(address, noOwn)).toBe(true);
  });

  it('allows everything when the operator opens private ranges (NOTIFY_ALLOW_PRIVATE_URLS=true)', () => {
    for (const address of ['127.0.0.1', '192.168.1.20', '::1', '8.8.8.8']) {
      expect(isAllowedAddress(address, { allowPrivate: true, ownAddresses: () => [address] })).toBe(true);
    }
  });
});

describe("the server's own addresses", () => {
  it('refuses every address of this machine’s interfaces, as os.networkInterfaces() lists them', () => {
    const listed = Object.values(os.networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
    expect(listed.length).toBeGreaterThan(0);
    expect(interfaceAddresses()).toEqual(listed);
    for (const address of listed) expect(isAllowedAddress(address, { allowPrivate: false }), address).toBe(false);
  });

  it('refuses an own address even when it is globally routable, in any spelling', () => {
    const own = { allowPrivate: false, ownAddresses: () => ['8.8.4.4', '2001:4860:4860::8844'] };
    for (const address of ['8.8.4.4', '2001:4860:4860::8844', '2001:4860:4860:0:0:0:0:8844', '2001:4860:4860::8844%eth0']) {
      expect(isAllowedAddress(address, own), address).toBe(false);
    }
    expect(isAllowedAddress('8.8.8.8', own)).toBe(true);
  });
});

describe('names, checked and pinned through the resolver', () => {
  const resolving =
    (answers: Record<string, readonly string[]>) =>
    async (host: string): Promise<{ address: string; family: number }[]> =>
      (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const rules = {
    allowPrivate: false,
    ownAddresses: () => ['9.9.9.9'],
    resolve: resolving({
      'hooks.example': ['8.8.8.8', '2001:4860:4860::8888'],
      'rebound.example': ['8.8.8.8', '10.0.0.1'],
      'own.example': ['9.9.9.9'],
      'nat64.example': ['64:ff9b::a00:1'],
    }),
  };

  it('allows a name only when every address it names is allowed', async () => {
    expect(await checkOutboundHost('hooks.example', rules)).toEqual({ ok: true });
    expect(await checkOutboundHost('rebound.example', rules)).toEqual({ ok: false, problem: 'refused' });
    expect(await checkOutboundHost('own.example', rules)).toEqual({ ok: false, problem: 'refused' });
    expect(await checkOutboundHost('nat64.example', rules)).toEqual({ ok: false, problem: 'refused' });
    expect(await checkOutboundHost('localhost', rules)).toEqual({ ok: false, problem: 'refused' });
    expect(await checkOutboundHost('ntfy.localhost', rules)).toEqual({ ok: false, problem: 'refused' });
    expect(await checkOutboundHost('nowhere.example', rules)).toEqual({ ok: false, problem: 'not-found' });
    expect(await checkOutboundHost('9.9.9.9', rules)).toEqual({ ok: false, problem: 'refused' });
  });

  it('hands the socket the address it checked, or fails the lookup before any connection', async () => {
    const lookup = pinnedLookup(rules, 'refused here');
    const looked = (host: string, all: boolean) =>
      new Promise<{ error: Error | null; address: unknown; family?: number | undefined }>((resolve) =>
        lookup(host, { all }, (error, address, family) => resolve({ error, address, family })),
      );
    expect(await looked('hooks.example', false)).toEqual({ error: null, address: '8.8.8.8', family: 4 });
    expect(await looked('hooks.example', true)).toEqual({ error: null, address: [{ address: '8.8.8.8', family: 4 }], family: undefined });
    for (const host of ['rebound.example', 'own.example', 'localhost']) {
      const { error } = await looked(host, true);
      expect(error).toBeInstanceOf(RefusedAddressError);
      expect(error?.message).toBe('refused here');
    }
  });
});
