import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../contract/app-config.js';
import { rememberAppConfig, rememberedAppConfig } from './app-config-note.js';

const CONFIG: AppConfig = {
  oidc: { issuer: 'https://id.example/realm', clientId: 'leftover', audience: 'leftover-api' },
  developmentSignIn: false,
};

/** A storage whose setItem can be made to refuse, as a full or blocked one does. */
function memoryStorage(refuseWrites = false): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => {
      if (refuseWrites) throw new DOMException('full', 'QuotaExceededError');
      items.set(key, value);
    },
  };
}

describe('the remembered sign-in settings', () => {
  it('has none at first, keeps what the server answered, and says when new settings replace them', () => {
    const storage = memoryStorage();
    expect(rememberedAppConfig(() => storage)).toBeUndefined();
    expect(rememberAppConfig(CONFIG, () => storage)).toBe(true);
    expect(rememberedAppConfig(() => storage)).toEqual(CONFIG);
    // The same answer on the next start: nothing to start again for.
    expect(rememberAppConfig(CONFIG, () => storage)).toBe(false);
    const moved = { ...CONFIG, oidc: { ...CONFIG.oidc, issuer: 'https://other.example/realm' } };
    expect(rememberAppConfig(moved, () => storage)).toBe(true);
    expect(rememberedAppConfig(() => storage)).toEqual(moved);
  });

  it('ignores a note that is not valid settings', () => {
    const storage = memoryStorage();
    storage.setItem('leftover.appConfig', '{"oidc":{"issuer":"not a url"}}');
    expect(rememberedAppConfig(() => storage)).toBeUndefined();
    storage.setItem('leftover.appConfig', '{not json');
    expect(rememberedAppConfig(() => storage)).toBeUndefined();
  });

  it('where storage refuses to keep them, drops the note and never asks for a restart', () => {
    const storage = memoryStorage(true);
    expect(rememberAppConfig(CONFIG, () => storage)).toBe(false);
    expect(rememberedAppConfig(() => storage)).toBeUndefined();
    const blocked = () => {
      throw new DOMException('blocked', 'SecurityError');
    };
    expect(rememberAppConfig(CONFIG, blocked)).toBe(false);
    expect(rememberedAppConfig(blocked)).toBeUndefined();
  });
});
