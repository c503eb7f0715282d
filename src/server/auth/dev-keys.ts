/**
 * The development provider's keys: a signing key pair and cookie keys, made when first needed and
 * kept in the data folder so tokens and sessions stay valid across restarts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { JWK } from 'jose';
import { z } from 'zod';

export interface DevProviderKeys {
  signingKeys: JWK[];
  cookieKeys: string[];
}

const keysFileSchema = z.object({
  signingKeys: z.array(z.record(z.string(), z.unknown())).min(1),
  cookieKeys: z.array(z.string().min(16)).min(1),
});

function readDevKeys(file: string): DevProviderKeys {
  const parsed = keysFileSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  return { signingKeys: parsed.signingKeys as JWK[], cookieKeys: parsed.cookieKeys };
}

export async function loadOrCreateDevKeys(file: string): Promise<DevProviderKeys> {
  if (fs.existsSync(file)) return readDevKeys(file);
  const { exportJWK, generateKeyPair } = await import('jose');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const keys: DevProviderKeys = {
    signingKeys: [{ ...jwk, kid: crypto.randomUUID(), alg: 'RS256', use: 'sig' }],
    cookieKeys: [crypto.randomBytes(32).toString('base64url')],
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(keys, null, 2), { mode: 0o600 });
  fs.renameSync(temporary, file);
  return keys;
}

/** The public half of the signing keys: what the API checks tokens against. */
export function publicJwks(keys: DevProviderKeys): { keys: JWK[] } {
  return {
    keys: keys.signingKeys.map(({ kty, n, e, crv, x, y, kid, alg, use }) => ({ kty, n, e, crv, x, y, kid, alg, use })),
  };
}

/**
 * The keys, read from the file now when it exists (a damaged file stops the start, as before), but
 * made only when first asked for: a new RSA key pair costs 50 to 400 ms of CPU, and a fresh start
 * has no token to check until someone signs in (docs/decisions/0041-start-fast-idle-light.md).
 */
export function devKeysOnDemand(file: string): () => Promise<DevProviderKeys> {
  let keys: Promise<DevProviderKeys> | undefined = fs.existsSync(file) ? Promise.resolve(readDevKeys(file)) : undefined;
  return () => {
    keys ??= loadOrCreateDevKeys(file).catch((error: unknown) => {
      // A failed write (a full disk, say) is tried again by the next request, not remembered.
      keys = undefined;
      throw error;
    });
    return keys;
  };
}
