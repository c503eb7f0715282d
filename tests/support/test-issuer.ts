/**
 * A real OpenID issuer for API tests: an HTTP server on a loopback port with a discovery
 * document and a key set, signing tokens the way a provider does. Tests can rotate its key or
 * mint tokens that a forger would try.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

export interface TestIssuer {
  readonly issuer: string;
  readonly audience: string;
  readonly publicJwk: JWK;
  /** How many times the key set was fetched: a flood of unknown key ids must not raise it much. */
  jwksFetches(): number;
  /** A valid access token for the subject, with optional changes to header or claims. */
  token(subject: string, options?: TokenOptions): Promise<string>;
  /** Replaces the signing key (the old one disappears from the key set). */
  rotateKey(): Promise<void>;
  close(): Promise<void>;
}

export interface TokenOptions {
  readonly claims?: JWTPayload;
  readonly typ?: string;
  readonly kid?: string;
  readonly expiresInSeconds?: number;
  readonly omitExpiry?: boolean;
  readonly issuer?: string;
  readonly audience?: string;
}

type SigningKey = { privateKey: CryptoKey; publicJwk: JWK };

async function newSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(publicKey)), kid: crypto.randomUUID(), alg: 'RS256', use: 'sig' };
  return { privateKey, publicJwk };
}

export async function startTestIssuer(audience = 'https://api.leftover.test'): Promise<TestIssuer> {
  let key = await newSigningKey();
  let fetches = 0;
  const server = http.createServer((request, response) => {
    const { port } = server.address() as AddressInfo;
    const issuer = `http://127.0.0.1:${port}`;
    if (request.url === '/.well-known/openid-configuration') {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token` }),
      );
      return;
    }
    if (request.url === '/jwks') {
      fetches += 1;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ keys: [key.publicJwk] }));
      return;
    }
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  return {
    issuer,
    audience,
    get publicJwk() {
      return key.publicJwk;
    },
    jwksFetches: () => fetches,
    async token(subject, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT({ scope: 'openid profile', ...options.claims })
        .setProtectedHeader({ alg: 'RS256', typ: options.typ ?? 'at+jwt', kid: options.kid ?? (key.publicJwk.kid as string) })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? audience)
        .setSubject(subject)
        .setIssuedAt(now)
        .setJti(crypto.randomUUID());
      if (!options.omitExpiry) jwt.setExpirationTime(now + (options.expiresInSeconds ?? 300));
      return jwt.sign(key.privateKey);
    },
    async rotateKey() {
      key = await newSigningKey();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
