/**
 * The server's one VAPID key pair (issue 26), kept in push_vapid_keys. Made on first start and
 * never replaced: every push subscription a browser made is bound to the public key it was given,
 * so a new pair would silently end them all.
 */
import crypto from 'node:crypto';
import type { Database } from '../db/database.js';

export interface VapidKeyPair {
  /** URL-safe base64 of the uncompressed P-256 point (65 bytes): the page's applicationServerKey. */
  readonly publicKey: string;
  /** URL-safe base64 of the 32-byte private scalar. */
  readonly privateKey: string;
}

/** The row's fixed name: two servers starting at once both insert it, and one of them wins. */
const CURRENT = 'current';

/** A new P-256 pair in the encoding web-push and browsers take (what web-push's generateVAPIDKeys makes). */
export function newVapidKeyPair(): VapidKeyPair {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = privateKey.export({ format: 'jwk' });
  const point = publicKey.export({ format: 'der', type: 'spki' }).subarray(-65);
  if (jwk.d === undefined || point[0] !== 0x04) throw new Error('node:crypto made a P-256 key in an unexpected shape');
  return { publicKey: point.toString('base64url'), privateKey: jwk.d };
}

async function storedPair(database: Database): Promise<VapidKeyPair | undefined> {
  const row = await database
    .selectFrom('push_vapid_keys')
    .select(['public_key', 'private_key'])
    .where('name', '=', CURRENT)
    .executeTakeFirst();
  return row && { publicKey: row.public_key, privateKey: row.private_key };
}

/**
 * The stored pair, made and stored first if there is none. Insert-if-absent, then read back:
 * whichever process inserted first, every process uses that pair.
 */
export async function vapidKeys(database: Database, now: () => Date = () => new Date()): Promise<VapidKeyPair> {
  const stored = await storedPair(database);
  if (stored) return stored;
  const made = newVapidKeyPair();
  await database
    .insertInto('push_vapid_keys')
    .values({ name: CURRENT, public_key: made.publicKey, private_key: made.privateKey, created_at: now().toISOString() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const kept = await storedPair(database);
  if (!kept) throw new Error('The VAPID key pair was stored but cannot be read back');
  return kept;
}
