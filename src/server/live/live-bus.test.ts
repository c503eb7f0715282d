/** The pure parts of changes seen live (decision 0096): the NOTIFY payload, what a member is told, the bus, the stream's frames. */
import { describe, expect, it, vi } from 'vitest';
import { MAX_CHANGE_TEXT_LENGTH } from '../../contract/live-changes.js';
import { type BudgetChange, decodeNotice, encodeNotice, genericChangeText, toMember } from './budget-change.js';
import { changeTextOf, noteChangeText } from './change-text.js';
import { eventFrame, tokenExpiry } from './event-streams.js';
import { LiveBus } from './live-bus.js';

const HOUSEHOLD = { issuer: 'urn:leftover:budget', subject: 'b-1' };
const OTHER = { issuer: 'urn:leftover:budget', subject: 'b-2' };
const ALEX = { issuer: 'https://issuer.test', subject: 'alex' };
const SAM = { issuer: 'https://issuer.test', subject: 'sam' };

describe('a budget change', () => {
  const change: BudgetChange = { owner: HOUSEHOLD, actor: ALEX, by: 'Alex', text: 'Alex paid Rent.' };

  it('travels as a small NOTIFY payload and comes back as it went; anything else on the channel is ignored', () => {
    const payload = encodeNotice({ ...change, text: 'x'.repeat(10_000) }, 'process-1');
    expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
    expect(decodeNotice(payload)).toEqual({
      from: 'process-1',
      change: { ...change, text: 'x'.repeat(MAX_CHANGE_TEXT_LENGTH) },
    });
    expect(decodeNotice(encodeNotice({ ...change, actor: null, by: null, text: null }, 'p'))?.change).toEqual({
      owner: HOUSEHOLD,
      actor: null,
      by: null,
      text: null,
    });
    for (const junk of [undefined, '', 'not json', '{}', '{"from":"p","owner":["a"],"actor":null,"by":null,"text":null}']) {
      expect(decodeNotice(junk), String(junk)).toBeUndefined();
    }
  });

  it('tells a member who and what, marked as their own when they made it, and nothing of whose budget it is', () => {
    expect(toMember(change, SAM)).toEqual({ by: 'Alex', text: 'Alex paid Rent.', you: false });
    expect(toMember(change, ALEX)).toEqual({ by: 'Alex', text: 'Alex paid Rent.', you: true });
    expect(toMember({ ...change, actor: null }, ALEX).you).toBe(false);
    expect(genericChangeText('Alex')).toBe('Alex changed the budget.');
    expect(genericChangeText(null)).toBe('Another member changed the budget.');
  });

  it('takes the words noted for the call acting for the budget (the seam for the activity log)', () => {
    const caller = { ...HOUSEHOLD };
    expect(changeTextOf(caller)).toBeUndefined();
    noteChangeText(caller, 'Alex paid Rent.');
    expect(changeTextOf(caller)).toBe('Alex paid Rent.');
    // Another call's caller object, for the same budget, has its own words.
    expect(changeTextOf({ ...HOUSEHOLD })).toBeUndefined();
  });
});

describe('the bus', () => {
  it('tells only the streams of the budget changed, relays every change, and stops telling one that left', async () => {
    const bus = new LiveBus();
    const sent: BudgetChange[] = [];
    bus.relayThrough({ send: async (change) => void sent.push(change), close: async () => undefined });
    const household = vi.fn();
    const other = vi.fn();
    const stop = bus.subscribe(HOUSEHOLD, household);
    bus.subscribe(OTHER, other);
    const change: BudgetChange = { owner: { ...HOUSEHOLD }, actor: ALEX, by: 'Alex', text: null };
    await bus.publish(change);
    expect(household).toHaveBeenCalledWith(change);
    expect(other).not.toHaveBeenCalled();
    expect(sent).toEqual([change]);
    // From another process: told here only, never relayed again.
    bus.deliver({ ...change, owner: OTHER });
    expect(other).toHaveBeenCalledTimes(1);
    expect(sent).toHaveLength(1);
    stop();
    bus.deliverEverywhere();
    expect(household).toHaveBeenCalledTimes(1);
    expect(other).toHaveBeenCalledTimes(2);
  });
});

describe('a stream', () => {
  it('writes one event a frame, and knows when the token it was opened with expires', () => {
    expect(eventFrame('change', { by: 'Alex' })).toBe('event: change\ndata: {"by":"Alex"}\n\n');
    const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    expect(tokenExpiry(`Bearer ${segment({ alg: 'RS256' })}.${segment({ exp: 1_800_000_000 })}.sig`)).toBe(1_800_000_000_000);
    expect(tokenExpiry(`Bearer ${segment({})}.${segment({ sub: 'x' })}.sig`)).toBeUndefined();
    expect(tokenExpiry('Bearer not-a-token')).toBeUndefined();
    expect(tokenExpiry(undefined)).toBeUndefined();
  });
});
