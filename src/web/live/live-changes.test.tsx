/**
 * Changes seen live on the page (decision 0096): another member's change makes the views read again
 * and says its words in the quiet status; the page's own are ignored; a stream that ends is opened
 * again; a budget the user is no longer a member of stops it and is reported. The stream is handed in.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FollowOptions, StreamEnd } from '../api/change-stream.js';
import { LiveChanges, LiveStatus } from './live-changes.js';
import { useLiveChanges } from './live-context.js';
import { afterStreamEnd, reconnectWait } from './reconnect.js';

/** A stream the test drives: each call of `follow` is one connection, ended when the test says. */
function fakeStreams() {
  const connections: { readonly options: FollowOptions; readonly end: (how: StreamEnd) => void }[] = [];
  const follow = vi.fn(
    (options: FollowOptions) =>
      new Promise<StreamEnd>((resolve) => {
        connections.push({ options, end: resolve });
        options.signal.addEventListener('abort', () => resolve({ kind: 'closed' }));
      }),
  );
  return { follow, connections };
}

function View({ onReload }: { onReload: () => void }) {
  useLiveChanges(onReload);
  return <LiveStatus />;
}

function renderLive(budget?: string) {
  const streams = fakeStreams();
  const onReload = vi.fn();
  const onGone = vi.fn();
  const view = render(
    <LiveChanges budget={budget} onGone={onGone} accessToken={() => 'token'} follow={streams.follow}>
      <View onReload={onReload} />
    </LiveChanges>,
  );
  return { ...streams, onReload, onGone, view };
}

describe('changes seen live on the page', () => {
  it("reads again and says another member's change quietly, ignores the page's own, and names the budget in view", async () => {
    const { connections, onReload } = renderLive('household-id');
    await waitFor(() => expect(connections).toHaveLength(1));
    const [first] = connections;
    expect(first?.options).toMatchObject({ accessToken: 'token', budget: 'household-id' });
    const status = screen.getByRole('status');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(status).toHaveTextContent('');

    act(() => first?.options.onOpen());
    act(() => first?.options.onChange({ by: 'Alex', text: 'Alex paid Rent.', you: true }));
    expect(onReload).not.toHaveBeenCalled();
    expect(status).toHaveTextContent('');

    act(() => first?.options.onChange({ by: 'Alex', text: 'Alex paid Rent.', you: false }));
    expect(onReload).toHaveBeenCalledTimes(1);
    expect(status).toHaveTextContent('Alex paid Rent.');
    // A change with nothing to say (a bank sync) reads again and keeps the last words.
    act(() => first?.options.onChange({ by: null, text: null, you: false }));
    expect(onReload).toHaveBeenCalledTimes(2);
    expect(status).toHaveTextContent('Alex paid Rent.');
    // No error dialog, ever: the stream says nothing but the status.
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens the stream again when it ends, reading again what changed meanwhile; stops and reports a budget it is no longer in', async () => {
    const { connections, onReload, onGone, follow } = renderLive('household-id');
    await waitFor(() => expect(connections).toHaveLength(1));
    act(() => connections[0]?.options.onOpen());
    act(() => connections[0]?.end({ kind: 'closed' }));
    await waitFor(() => expect(connections).toHaveLength(2));
    act(() => connections[1]?.options.onOpen());
    expect(onReload).toHaveBeenCalledTimes(1);

    act(() => connections[1]?.end({ kind: 'refused', status: 404, message: 'No such budget.' }));
    await waitFor(() => expect(onGone).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(follow).toHaveBeenCalledTimes(2);
  });

  it('closes the stream when the page stops following (signed out), and opens none for the personal budget', async () => {
    const { connections, view } = renderLive('household-id');
    await waitFor(() => expect(connections).toHaveLength(1));
    view.unmount();
    expect(connections[0]?.options.signal.aborted).toBe(true);

    const personal = renderLive();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(personal.follow).not.toHaveBeenCalled();
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('waits longer after each try that did not open, up to 30 s; stops for good only when gone or refused as bad', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 40].map(reconnectWait)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(afterStreamEnd({ kind: 'gone' })).toBe('gone');
    expect(afterStreamEnd({ kind: 'refused', status: 404, message: 'No such budget.' })).toBe('gone');
    expect(afterStreamEnd({ kind: 'refused', status: 400, message: '' })).toBe('stop');
    for (const status of [401, 429, 500, 503]) expect(afterStreamEnd({ kind: 'refused', status, message: '' })).toBe('again');
    expect(afterStreamEnd({ kind: 'closed' })).toBe('again');
  });
});
