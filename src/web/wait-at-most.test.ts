import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitAtMost } from './wait-at-most.js';

afterEach(() => {
  vi.useRealTimers();
});

/** Whether the promise has settled once pending callbacks have run. */
async function settledYet(promise: Promise<void>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await Promise.resolve();
  await Promise.resolve();
  return settled;
}

describe('waitAtMost', () => {
  it('settles when what it waits for does, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    let arrive!: () => void;
    const waited = waitAtMost(new Promise<void>((resolve) => (arrive = resolve)), 300);
    expect(await settledYet(waited)).toBe(false);
    arrive();
    expect(await settledYet(waited)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('settles when what it waits for fails', async () => {
    await expect(waitAtMost(Promise.reject(new Error('gone')), 300)).resolves.toBeUndefined();
  });

  it('settles after the time given when what it waits for never does', async () => {
    vi.useFakeTimers();
    const waited = waitAtMost(new Promise<never>(() => undefined), 300);
    await vi.advanceTimersByTimeAsync(299);
    expect(await settledYet(waited)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settledYet(waited)).toBe(true);
  });
});
