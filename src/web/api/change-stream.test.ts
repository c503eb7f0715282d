/** Reading the stream of changes (decision 0096): frames as they arrive, cut anywhere, and how a stream ends. */
import { describe, expect, it, vi } from 'vitest';
import { followChanges, takeFrames } from './change-stream.js';

describe('the stream of changes', () => {
  it('takes whole frames and keeps a frame the network cut for the next chunk; skips heartbeats', () => {
    const first = takeFrames('event: ready\ndata: {}\n\n: still here\n\nevent: change\ndata: {"by":');
    expect(first.frames).toEqual([{ event: 'ready', data: '{}' }]);
    const second = takeFrames(`${first.rest}"Alex"}\r\n\r\ndata: a\ndata: b\n\n`);
    expect(second).toEqual({
      frames: [
        { event: 'change', data: '{"by":"Alex"}' },
        { event: 'message', data: 'a\nb' },
      ],
      rest: '',
    });
  });

  it('sends the token in the Authorization header and the budget in its header, never in the address; reports changes and a refusal', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const encoder = new TextEncoder();
        controller.enqueue(
          encoder.encode('event: ready\ndata: {}\n\nevent: change\ndata: {"by":"Alex","text":"Alex paid Rent.","you":false}\n\n'),
        );
        controller.enqueue(encoder.encode('event: change\ndata: not json\n\nevent: gone\ndata: {"budget":"Household"}\n\n'));
        controller.close();
      },
    });
    const fetchImpl = vi.fn<typeof fetch>(
      async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    );
    const onOpen = vi.fn();
    const onChange = vi.fn();
    const end = await followChanges({
      accessToken: 'secret-token',
      budget: 'household-id',
      signal: new AbortController().signal,
      onOpen,
      onChange,
      fetchImpl,
    });
    expect(end).toEqual({ kind: 'gone' });
    const [address, init] = fetchImpl.mock.calls[0] ?? [];
    expect(address).toBe('/api/events');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer secret-token');
    expect(new Headers(init?.headers).get('leftover-budget')).toBe('household-id');
    expect(new Headers(init?.headers).get('accept')).toBe('text/event-stream');
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(onChange.mock.calls).toEqual([[{ by: 'Alex', text: 'Alex paid Rent.', you: false }], [{ by: null, text: null, you: false }]]);

    const refused = vi.fn<typeof fetch>(
      async () =>
        new Response(JSON.stringify({ error: { code: 'not_found', message: 'No such budget.' } }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    );
    expect(await followChanges({ accessToken: 't', signal: new AbortController().signal, onOpen, onChange, fetchImpl: refused })).toEqual({
      kind: 'refused',
      status: 404,
      message: 'No such budget.',
    });
  });
});
