import type { AdapterPayload } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { createDevProviderStore } from './dev-provider-store.js';

describe('the development provider store', () => {
  it('lets a flood of one kind push out only that kind, never a session', async () => {
    const store = createDevProviderStore(3);
    const sessions = store.adapter('Session');
    const interactions = store.adapter('Interaction');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'alice' } satisfies AdapterPayload, 3600);
    for (let index = 0; index < 2_100; index += 1) await interactions.upsert(`i${index}`, {}, 600);
    expect(await sessions.find('s1')).toMatchObject({ accountId: 'alice' });
    expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'alice' });
    expect(store.size('Interaction')).toBe(3);
    expect(await interactions.find('i2099')).toBeDefined();
  });

  it('forgets an entry when its time to live ends, and revokes what a grant holds', async () => {
    let now = 1_000_000;
    const store = createDevProviderStore(10, () => now);
    const tokens = store.adapter('AccessToken');
    await tokens.upsert('t1', { grantId: 'g1' }, 900);
    await tokens.upsert('t2', { grantId: 'g2' }, 900);
    await tokens.revokeByGrantId('g1');
    expect(await tokens.find('t1')).toBeUndefined();
    expect(await tokens.find('t2')).toBeDefined();
    now += 900_000;
    expect(await tokens.find('t2')).toBeUndefined();
  });
});
