import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer, type TestIssuer } from '../../../tests/support/test-issuer.js';
import { type AccessTokenVerifier, createAccessTokenVerifier, createDiscoveredKeySet, InvalidTokenError } from './access-token.js';

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

  it('refuses a missing or malformed header', async () => {
    await refused(undefined);
    await refused('');
    await refused('Bearer');
    await refused('Basic YWxpY2U6c2VjcmV0');
    await refused('Bearer not-a-jwt');
    await refused(`bearer ${await issuer.token('alice')}`);
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
    const secrets = [JSON.stringify(issuer.publicJwk), crypto.createPublicKey({ key: issuer.publicJwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' })];
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
