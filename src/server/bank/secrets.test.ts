import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { bankSecrets, SealedSecretError, secretBox, SecretsKeyError } from './secrets.js';

const ACCESS_URL = 'https://user123:pass-4567-secret@bridge.example/simplefin';
const folders: string[] = [];

function freshFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-secrets-'));
  folders.push(folder);
  return folder;
}

afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

describe('secretBox (AES-256-GCM)', () => {
  const box = secretBox(crypto.randomBytes(32));

  it('opens what it sealed, for the same place, and seals the same text differently each time (a new nonce)', () => {
    const sealed = box.seal(ACCESS_URL, 'owner-a/connection-1');
    expect(box.open(sealed, 'owner-a/connection-1')).toBe(ACCESS_URL);
    expect(sealed).not.toContain('pass-4567-secret');
    expect(sealed.startsWith('v1.')).toBe(true);
    const again = box.seal(ACCESS_URL, 'owner-a/connection-1');
    expect(again).not.toBe(sealed);
    expect(Buffer.from(again.slice(3), 'base64url').subarray(0, 12)).not.toEqual(Buffer.from(sealed.slice(3), 'base64url').subarray(0, 12));
  });

  it('refuses another key, another place and a changed value, saying nothing of the secret', () => {
    const sealed = box.seal(ACCESS_URL, 'owner-a/connection-1');
    const other = secretBox(crypto.randomBytes(32));
    // The second-to-last character always carries bits of the sealed bytes; it is changed to another
    // one (choosing by the last character instead left it as it was about once in 64 runs).
    const tampered = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(tampered).not.toBe(sealed);
    for (const attempt of [
      () => other.open(sealed, 'owner-a/connection-1'),
      () => box.open(sealed, 'owner-b/connection-1'),
      () => box.open(tampered, 'owner-a/connection-1'),
      () => box.open('v1.', 'owner-a/connection-1'),
      () => box.open(ACCESS_URL, 'owner-a/connection-1'),
    ]) {
      let thrown: unknown;
      try {
        attempt();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(SealedSecretError);
      expect(String((thrown as Error).message)).not.toContain('pass-4567-secret');
    }
  });

  it('takes only a 32-byte key and a named place', () => {
    expect(() => secretBox(crypto.randomBytes(16))).toThrow(SecretsKeyError);
    expect(() => box.seal(ACCESS_URL, '')).toThrow(RangeError);
  });
});

describe('bankSecrets: where the key comes from', () => {
  it('uses SECRETS_KEY when it is set', () => {
    const key = crypto.randomBytes(32);
    const config = loadConfig({ SECRETS_KEY: key.toString('base64'), DATABASE_URL: 'postgres://u:p@db/leftover' }, '/srv/leftover');
    const secrets = bankSecrets(config.secrets);
    if (!secrets.available) throw new Error('SECRETS_KEY should make the secrets available');
    expect(secretBox(key).open(secrets.box.seal(ACCESS_URL, 'here'), 'here')).toBe(ACCESS_URL);
  });

  it('on SQLite without SECRETS_KEY, makes a 0600 key file beside the database once and reads it ever after', () => {
    const folder = freshFolder();
    const config = loadConfig({ DATABASE_URL: `sqlite:${path.join(folder, 'data', 'leftover.sqlite')}` }, folder);
    expect(config.secrets).toEqual({ kind: 'key-file', file: path.join(folder, 'data', 'leftover.sqlite.secrets-key') });
    if (config.secrets.kind !== 'key-file') throw new Error('a key file was expected');
    const first = bankSecrets(config.secrets);
    if (!first.available) throw new Error('a key file should make the secrets available');
    expect(fs.statSync(config.secrets.file).mode & 0o777).toBe(0o600);
    const written = fs.readFileSync(config.secrets.file, 'utf8');
    expect(Buffer.from(written.trim(), 'base64')).toHaveLength(32);
    const sealed = first.box.seal(ACCESS_URL, 'owner-a/connection-1');

    const second = bankSecrets(config.secrets);
    if (!second.available) throw new Error('the key file should be read again');
    expect(second.box.open(sealed, 'owner-a/connection-1')).toBe(ACCESS_URL);
    expect(fs.readFileSync(config.secrets.file, 'utf8')).toBe(written);
    // No draft left behind.
    expect(fs.readdirSync(path.dirname(config.secrets.file)).sort()).toEqual(['leftover.sqlite.secrets-key']);
  });

  it('takes group and other permissions off a key file put there by hand', () => {
    const file = path.join(freshFolder(), 'leftover.sqlite.secrets-key');
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64')}\n`, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect(bankSecrets({ kind: 'key-file', file }).available).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('stops on a key file that holds no key, naming the file and not what it holds', () => {
    const file = path.join(freshFolder(), 'leftover.sqlite.secrets-key');
    fs.writeFileSync(file, 'not-a-key-but-maybe-a-secret\n', { mode: 0o600 });
    let thrown: unknown;
    try {
      bankSecrets({ kind: 'key-file', file });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SecretsKeyError);
    expect((thrown as Error).message).toContain(file);
    expect((thrown as Error).message).not.toContain('not-a-key-but-maybe-a-secret');
  });

  it('on PostgreSQL without SECRETS_KEY, refuses bank connections and says why', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u:p@db/leftover' }, '/srv/leftover');
    expect(config.secrets).toEqual({ kind: 'none' });
    const secrets = bankSecrets(config.secrets);
    expect(secrets.available).toBe(false);
    if (secrets.available) return;
    expect(secrets.reason).toContain('SECRETS_KEY');
    expect(secrets.reason).toContain('PostgreSQL');
  });
});
