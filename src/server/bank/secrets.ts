/**
 * Bank connections' Access URLs at rest (issue 37, decision 0080). An Access URL is a password to
 * someone's bank history: it is stored sealed with AES-256-GCM (node:crypto, never a cipher of our
 * own), a random 96-bit nonce per value, and the place it belongs to (its owner and connection) as
 * additional data, so a sealed value copied into another user's row does not open there.
 *
 * The key is SECRETS_KEY; without it, on SQLite, a key file beside the database, made 0600 the first
 * time a bank is connected and read ever after. PostgreSQL without SECRETS_KEY has no key: its
 * server processes may share no folder, and a key kept in the same database as what it seals would
 * seal nothing, so bank connections are refused there, saying why.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SecretsConfig } from '../config.js';
import { ensurePrivateFolder, PRIVATE_FILE_MODE } from '../db/private-files.js';

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** The sealed value's format, first in its text, so a later format (or key) can be told apart. */
const FORMAT = 'v1';

/** The key file cannot be read as a key, or made. Its message names the file, never its content. */
export class SecretsKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsKeyError';
  }
}

/** A sealed value did not open: another key, another place, or a changed value. Says nothing of either. */
export class SealedSecretError extends Error {
  constructor() {
    super('A sealed secret did not open: it was sealed with another key or for another place, or it was changed.');
    this.name = 'SealedSecretError';
  }
}

export interface SecretBox {
  /** Seals text for one place (`context`, such as an owner and a connection id): a new nonce each time. */
  seal(plain: string, context: string): string;
  /** The text sealed for this place with this key; a SealedSecretError otherwise. */
  open(sealed: string, context: string): string;
}

/** A box that seals and opens with one 32-byte key. */
export function secretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new SecretsKeyError(`A secrets key must be ${KEY_BYTES} bytes.`);
  // A copy: the caller's buffer may be reused or wiped.
  const ownKey = Buffer.from(key);
  const additionalData = (context: string) => {
    if (context === '') throw new RangeError('a secret is sealed for a place: the context must not be empty');
    return Buffer.from(context, 'utf8');
  };
  return {
    seal(plain, context) {
      const nonce = crypto.randomBytes(NONCE_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', ownKey, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(additionalData(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${FORMAT}.${Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')}`;
    },
    open(sealed, context) {
      const aad = additionalData(context);
      const [format, payload, ...rest] = sealed.split('.');
      if (format !== FORMAT || payload === undefined || rest.length > 0) throw new SealedSecretError();
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new SealedSecretError();
      const decipher = crypto.createDecipheriv('aes-256-gcm', ownKey, bytes.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(aad);
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SealedSecretError();
      }
    },
  };
}

/** Whether this server can keep bank connections, and the box it seals them with. */
export type BankSecrets = { readonly available: true; readonly box: SecretBox } | { readonly available: false; readonly reason: string };

/** Why a bank cannot be connected on PostgreSQL without SECRETS_KEY: said to the user, and to the operator in the log. */
export const BANK_SECRETS_UNAVAILABLE =
  'Bank connections are off on this server: on PostgreSQL, Leftover needs a SECRETS_KEY (32 random bytes in base64, from openssl rand -base64 32) to keep bank access secret. The operator can set it and restart the server.';

/** A key as the file or the variable spells it: the one base64 spelling of 32 bytes, nothing else. */
function keyFromText(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text)) return undefined;
  const key = Buffer.from(text, 'base64');
  return key.length === KEY_BYTES && key.toString('base64') === text ? key : undefined;
}

/**
 * Makes the key file once: written whole to a file of its own, then linked to its name, which fails
 * if the name exists. A reader never sees half a key, and of two makers at once, one key wins and
 * both use it.
 */
function makeKeyFile(file: string): void {
  ensurePrivateFolder(path.dirname(file));
  const draft = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    const descriptor = fs.openSync(draft, 'wx', PRIVATE_FILE_MODE);
    try {
      // The mode given to open passes through the umask: set it outright, before the key is in the file.
      fs.fchmodSync(descriptor, PRIVATE_FILE_MODE);
      fs.writeSync(descriptor, `${crypto.randomBytes(KEY_BYTES).toString('base64')}\n`);
      fs.fsyncSync(descriptor);
    } finally {
      fs.closeSync(descriptor);
    }
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

/** The key in the file, the file made first when there is none. */
function keyOfFile(file: string): Buffer {
  try {
    if (!fs.existsSync(file)) makeKeyFile(file);
    const mode = fs.statSync(file).mode & 0o777;
    // A key file others may read (copied in by hand, say) loses those bits, as the database files do.
    if ((mode & 0o077) !== 0) fs.chmodSync(file, mode & 0o700 & ~0o111);
    const key = keyFromText(fs.readFileSync(file, 'utf8').trim());
    if (key) return key;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw new SecretsKeyError(`The secrets key file ${file} could not be read or made (${code}).`);
  }
  throw new SecretsKeyError(
    `The secrets key file ${file} does not hold a key (32 bytes in base64). Put back the file that was there, or set SECRETS_KEY to the key it held; a new key cannot open the bank connections stored so far.`,
  );
}

/**
 * The API layer asks this before it connects a bank or opens a stored Access URL: the box sealed
 * with SECRETS_KEY or the key file (made now if need be; a SecretsKeyError when it is unreadable),
 * or, on PostgreSQL without SECRETS_KEY, the reason banks cannot be connected. Call it once and keep
 * the answer: it reads the file each time.
 */
export function bankSecrets(config: SecretsConfig): BankSecrets {
  if (config.kind === 'none') return { available: false, reason: BANK_SECRETS_UNAVAILABLE };
  return { available: true, box: secretBox(config.kind === 'key' ? config.key : keyOfFile(config.file)) };
}
