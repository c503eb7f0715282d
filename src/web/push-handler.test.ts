/**
 * The service worker's push handler (src/web/public/push-handler.js, decision 0048), run as the
 * worker runs it, in a scope of its own: every push is shown with the payload's title and message
 * (and as Leftover's when the payload is not ours), and tapping it opens the payload's page of this
 * origin, or Home, in the open Leftover window if there is one. The worker's scope (registration,
 * clients) is a stand-in: jsdom has none; tests/e2e/settings.spec.ts shows pushes in Chromium.
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it, vi } from 'vitest';

// Read from the project root: jsdom's import.meta.url is not a file address.
const HANDLER = fs.readFileSync(path.join(process.cwd(), 'src/web/public/push-handler.js'), 'utf8');
const ORIGIN = 'https://leftover.example';

interface WindowClient {
  readonly url: string;
  readonly navigate: (url: string) => Promise<WindowClient | null>;
  readonly focus: () => Promise<WindowClient>;
}

type Listener = (event: { waitUntil(work: Promise<unknown>): void } & Record<string, unknown>) => void;

function workerWith(windows: WindowClient[] = []) {
  const listeners = new Map<string, Listener>();
  const shown: { title: string; options: { body: string; data: { url: string } } }[] = [];
  const openWindow = vi.fn(async (url: string) => ({ url }));
  const scope = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    registration: {
      showNotification: async (title: string, options: { body: string; data: { url: string } }) => void shown.push({ title, options }),
    },
    clients: { matchAll: async () => windows, openWindow },
  };
  vm.runInNewContext(HANDLER, { self: scope, URL });

  async function dispatch(type: string, event: Record<string, unknown>): Promise<void> {
    const work: Promise<unknown>[] = [];
    listeners.get(type)?.({ ...event, waitUntil: (promise) => void work.push(promise) });
    expect(work, `the ${type} handler keeps the worker alive until it is done`).toHaveLength(1);
    await Promise.all(work);
  }
  const push = (data: string | null) =>
    dispatch('push', { data: data === null ? null : { text: () => data, json: () => JSON.parse(data) as unknown } });
  const tap = (url: unknown) => dispatch('notificationclick', { notification: { data: { url }, close: vi.fn() } });
  return { shown, openWindow, push, tap };
}

describe('the push handler', () => {
  it("shows every push: the payload's title and message, else Leftover's with the text", async () => {
    const worker = workerWith();
    const payload = {
      title: 'Leftover: bills due tomorrow',
      message: 'Rent ($1,200.00).',
      url: `${ORIGIN}/ledger`,
      kind: 'BILLS_DUE',
      date: '2027-01-04',
    };
    await worker.push(JSON.stringify(payload));
    await worker.push('plain words');
    await worker.push(null);
    await worker.push(JSON.stringify({ title: '  ', message: 42 }));
    expect(worker.shown.map(({ title, options }) => [title, options.body, options.data.url])).toEqual([
      ['Leftover: bills due tomorrow', 'Rent ($1,200.00).', `${ORIGIN}/ledger`],
      ['Leftover', 'plain words', `${ORIGIN}/`],
      ['Leftover', '', `${ORIGIN}/`],
      ['Leftover', '', `${ORIGIN}/`],
    ]);
  });

  it("opens the payload's page of this origin, and Home for another site's address or none", async () => {
    const worker = workerWith();
    await worker.tap(`${ORIGIN}/ledger`);
    await worker.tap('https://elsewhere.example/phish');
    await worker.tap('javascript:alert(1)');
    await worker.tap(undefined);
    expect(worker.openWindow.mock.calls).toEqual([[`${ORIGIN}/ledger`], [`${ORIGIN}/`], [`${ORIGIN}/`], [`${ORIGIN}/`]]);
  });

  it('brings an open Leftover window forward and shows it the page, rather than opening another', async () => {
    const focus = vi.fn(async () => open);
    const navigate = vi.fn(async (url: string) => ({ ...open, url }));
    const open: WindowClient = { url: `${ORIGIN}/plan`, navigate, focus };
    const other: WindowClient = { url: 'https://elsewhere.example/', navigate: vi.fn(), focus: vi.fn() };
    const worker = workerWith([other, open]);
    await worker.tap(`${ORIGIN}/`);
    expect(navigate).toHaveBeenCalledWith(`${ORIGIN}/`);
    expect(worker.openWindow).not.toHaveBeenCalled();
    expect(other.navigate).not.toHaveBeenCalled();
  });
});
