import crypto from 'node:crypto';
import type { JWTVerifyGetKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer, type TestIssuer } from '../../../tests/support/test-issuer.js';
import {
  type AccessTokenVerifier,
  CLOCK_TOLERANCE_SECONDS,
  createAccessTokenVerifier,
  createDiscoveredKeySet,
  InvalidTokenError,
} from './access-token.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('access token check', () => {
  let issuer: TestIssuer;
  let verify: AccessTokenVerifier;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    verify = createAccessTokenVerifier({ issuer: issuer.issuer, audience: issuer.audience, keySet: createDiscoveredKeySet(issuer.issuer) });
  });
  afterAll(() => issuer.close());

  const refused = async (authorization: string | undefined) => {
    await expect(verify(authorization)).rejects.toBeInstanceOf(InvalidTokenError);
  };

  it('accepts a valid token and names the caller by issuer and subject', async () => {
    await expect(verify(`Bearer ${await issuer.token('alice')}`)).resolves.toEqual({ issuer: issuer.issuer, subject: 'alice' });
  });

  it('reads the scheme in any case, as RFC 9110 says auth schemes are (issue 34)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      await expect(verify(`${scheme} ${await issuer.token('alice')}`), scheme).resolves.toEqual({
        issuer: issuer.issuer,
        subject: 'alice',
      });
    }
  });

  it('refuses a missing or malformed header', async () => {
    await refused(undefined);
    await refused('');
    await refused('Bearer');
    await refused('Basic YWxpY2U6c2VjcmV0');
    await refused('Bearer not-a-jwt');
    await refused(`Bearerx ${await issuer.token('alice')}`);
    await refused(`Bearer\t${await issuer.token('alice')}`);
  });

  it('refuses alg none', async () => {
    const valid = await issuer.token('alice');
    const [, payload] = valid.split('.');
    await refused(`Bearer ${base64url({ alg: 'none', typ: 'at+jwt' })}.${payload}.`);
    await refused(`Bearer ${base64url({ alg: 'none', typ: 'at+jwt' })}.${payload}.c2ln`);
  });

  it('refuses HS256 signed with the provider public key as the secret', async () => {
    const valid = await issuer.token('alice');
    const [, payload] = valid.split('.');
    const header = base64url({ alg: 'HS256', typ: 'at+jwt', kid: issuer.publicJwk.kid });
    const secrets = [
      JSON.stringify(issuer.publicJwk),
      crypto.createPublicKey({ key: issuer.publicJwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' }),
    ];
    for (const secret of secrets) {
      const signature = crypto.createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
      await refused(`Bearer ${header}.${payload}.${signature}`);
    }
  });

  it('refuses a payload changed under a kept signature', async () => {
    const [header, payload, signature] = (await issuer.token('alice')).split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString()) as Record<string, unknown>;
    await refused(`Bearer ${header}.${base64url({ ...claims, sub: 'mallory' })}.${signature}`);
  });

  it('refuses an expired token, beyond the small clock tolerance', async () => {
    await refused(`Bearer ${await issuer.token('alice', { expiresInSeconds: -120 })}`);
    // Within the 30 s tolerance a just-expired token still passes: clocks drift.
    await expect(verify(`Bearer ${await issuer.token('alice', { expiresInSeconds: -5 })}`)).resolves.toMatchObject({ subject: 'alice' });
  });

  it('refuses a token that is not valid yet', async () => {
    await refused(`Bearer ${await issuer.token('alice', { claims: { nbf: Math.floor(Date.now() / 1000) + 120 } })}`);
  });

  it('refuses a token without an expiry', async () => {
    await refused(`Bearer ${await issuer.token('alice', { omitExpiry: true })}`);
  });

  it('refuses the wrong issuer, audience or type', async () => {
    await refused(`Bearer ${await issuer.token('alice', { issuer: 'https://evil.example' })}`);
    await refused(`Bearer ${await issuer.token('alice', { audience: 'https://other-api.example' })}`);
    await refused(`Bearer ${await issuer.token('alice', { typ: 'JWT' })}`);
  });

  it('refuses an unknown key id without hammering the provider', async () => {
    const before = issuer.jwksFetches();
    for (let attempt = 0; attempt < 20; attempt += 1) {
      await refused(`Bearer ${await issuer.token('alice', { kid: `unknown-${attempt}` })}`);
    }
    // At most one refetch inside the cooldown, whatever the number of made-up key ids.
    expect(issuer.jwksFetches() - before).toBeLessThanOrEqual(1);
  });

  it('picks up a rotated signing key without a restart', async () => {
    const rotating = await startTestIssuer();
    try {
      const check = createAccessTokenVerifier({
        issuer: rotating.issuer,
        audience: rotating.audience,
        keySet: createDiscoveredKeySet(rotating.issuer, { refetchCooldownMs: 100 }),
      });
      await expect(check(`Bearer ${await rotating.token('alice')}`)).resolves.toMatchObject({ subject: 'alice' });
      await rotating.rotateKey();
      await new Promise((resolve) => setTimeout(resolve, 150));
      await expect(check(`Bearer ${await rotating.token('alice')}`)).resolves.toMatchObject({ subject: 'alice' });
    } finally {
      await rotating.close();
    }
  });
});

describe('verified token cache', () => {
  let issuer: TestIssuer;
  /** Every full check asks the key set for the key, so counting asks counts signature checks. */
  let keyLookups = 0;
  let countedKeySet: JWTVerifyGetKey;
  let nowMs = Date.now();

  beforeAll(async () => {
    issuer = await startTestIssuer();
    const keySet = createDiscoveredKeySet(issuer.issuer);
    countedKeySet = (header, token) => {
      keyLookups += 1;
      return keySet(header, token);
    };
  });
  afterAll(() => issuer.close());

  function verifier(maxEntries?: number): AccessTokenVerifier {
    return createAccessTokenVerifier({
      issuer: issuer.issuer,
      audience: issuer.audience,
      keySet: countedKeySet,
      now: () => new Date(nowMs),
      cache: maxEntries === undefined ? {} : { maxEntries },
    });
  }

  const expOf = (token: string): number => {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()) as { exp: number };
    return claims.exp;
  };

  it('checks a token once, then answers from the cache', async () => {
    nowMs = Date.now();
    const verify = verifier();
    const token = await issuer.token('alice');
    const before = keyLookups;
    for (let call = 0; call < 5; call += 1) {
      await expect(verify(`Bearer ${token}`)).resolves.toEqual({ issuer: issuer.issuer, subject: 'alice' });
    }
    expect(keyLookups - before).toBe(1);
  });

  it('stops answering from the cache at the token expiry, and refuses it past the clock tolerance', async () => {
    nowMs = Date.now();
    const verify = verifier();
    const token = await issuer.token('alice', { expiresInSeconds: 60 });
    const expMs = expOf(token) * 1000;
    await verify(`Bearer ${token}`);
    const cachedLookups = keyLookups;

    nowMs = expMs - 1;
    await expect(verify(`Bearer ${token}`)).resolves.toMatchObject({ subject: 'alice' });
    expect(keyLookups).toBe(cachedLookups);

    // At exp the cache has let go: the full check runs again (and still allows its clock tolerance).
    nowMs = expMs;
    await expect(verify(`Bearer ${token}`)).resolves.toMatchObject({ subject: 'alice' });
    expect(keyLookups).toBe(cachedLookups + 1);

    nowMs = expMs + (CLOCK_TOLERANCE_SECONDS + 1) * 1000;
    await expect(verify(`Bearer ${token}`)).rejects.toBeInstanceOf(InvalidTokenError);
  });

  it('never caches a refused token, so a forgery is checked and refused every time', async () => {
    nowMs = Date.now();
    const verify = verifier();
    const genuine = await issuer.token('alice');
    await verify(`Bearer ${genuine}`);
    const [header, payload, signature] = genuine.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forgeries = [
      // The genuine signature under changed claims.
      `${header}.${base64url({ ...claims, sub: 'mallory' })}.${signature}`,
      // The genuine claims with one character of the signature changed.
      `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
      // Signed, but for another API.
      await issuer.token('alice', { audience: 'https://other-api.example' }),
    ];
    for (const forgery of forgeries) {
      const before = keyLookups;
      for (let attempt = 0; attempt < 3; attempt += 1) {
        await expect(verify(`Bearer ${forgery}`)).rejects.toBeInstanceOf(InvalidTokenError);
      }
      expect(keyLookups - before).toBe(3);
    }
    await expect(verify(`Bearer ${genuine}`)).resolves.toMatchObject({ subject: 'alice' });
  });

  it('keeps at most maxEntries tokens, letting go of the least recently used', async () => {
    nowMs = Date.now();
    const verify = verifier(2);
    const [first, second, third] = await Promise.all([issuer.token('a'), issuer.token('b'), issuer.token('c')]);
    await verify(`Bearer ${first}`);
    await verify(`Bearer ${second}`);
    await verify(`Bearer ${first}`); // first is now the most recently used
    await verify(`Bearer ${third}`); // evicts second
    const before = keyLookups;
    await verify(`Bearer ${first}`);
    await verify(`Bearer ${third}`);
    expect(keyLookups - before).toBe(0);
    await verify(`Bearer ${second}`);
    expect(keyLookups - before).toBe(1);
  });

  it('stays bounded however many tokens it sees', () => {
    const cache = new VerifiedTokenCache<string>({ maxEntries: 1000 });
    const now = Date.now();
    const exp = Math.floor(now / 1000) + 3600;
    for (let index = 0; index < 5000; index += 1) cache.set(`token-${index}`, `caller-${index}`, exp, now);
    expect(cache.size).toBe(1000);
    expect(cache.get('token-0', now)).toBeUndefined();
    expect(cache.get('token-4999', now)).toBe('caller-4999');
  });

  it('never keeps an entry past exp, nor one already expired', () => {
    const cache = new VerifiedTokenCache<string>({ maxEntryAgeMs: 60 * 60_000 });
    const now = 1_800_000_000_000;
    cache.set('expired', 'x', now / 1000 - 1, now);
    cache.set('at-exp', 'y', now / 1000, now);
    expect(cache.size).toBe(0);
    cache.set('live', 'z', now / 1000 + 10, now);
    expect(cache.get('live', now + 9_999)).toBe('z');
    expect(cache.get('live', now + 10_000)).toBeUndefined();
    // An expired entry is dropped when found, not kept around.
    expect(cache.size).toBe(0);
  });

  it('trusts an entry no longer than its maximum age, even if the token lives longer', () => {
    const cache = new VerifiedTokenCache<string>({ maxEntryAgeMs: 1000 });
    const now = 1_800_000_000_000;
    cache.set('long-lived', 'x', now / 1000 + 3600, now);
    expect(cache.get('long-lived', now + 999)).toBe('x');
    expect(cache.get('long-lived', now + 1000)).toBeUndefined();
  });
});
