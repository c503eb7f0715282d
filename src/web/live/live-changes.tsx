/**
 * Changes seen live (issue 38 point 6, decision 0096): while signed in to a shared budget, the page
 * keeps one stream of it open, and when another member changes it, the views on screen read again
 * what they show through their own reload paths (useLiveChanges), and a quiet status says what
 * happened ("Alex paid Rent."). The page's own changes come back marked `you`, and are ignored: their
 * answers are already shown. The stream's code is a chunk loaded after the first view's requests.
 */
import { type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { FollowOptions, StreamEnd } from '../api/change-stream.js';
import { useSignInSession } from '../auth/sign-in-context.js';
import { useLatestCallback } from '../components/use-latest-callback.js';
import type { LiveChange } from '../../contract/live-changes.js';
import { LiveContext, type LiveState } from './live-context.js';
import { afterStreamEnd, reconnectWait } from './reconnect.js';

export type FollowChanges = (options: FollowOptions) => Promise<StreamEnd>;

const followLazily: FollowChanges = async (options) => {
  try {
    const { followChanges } = await import('../api/change-stream.js');
    return await followChanges(options);
  } catch {
    // The chunk did not load (offline): as a stream that closed, tried again later.
    return { kind: 'closed' };
  }
};

/** After a stream that was open ends (its token expired, the server restarted): a short pause, never a tight loop. */
const AFTER_OPEN_STREAM_MS = 500;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export interface LiveChangesProps {
  readonly children: ReactNode;
  /** The budget in view (its id) when it is not the personal one; undefined for the personal one. */
  readonly budget?: string | undefined;
  /** The user is no longer a member of the budget in view (removed, or it was deleted). */
  readonly onGone?: () => void;
}

/** Follows the signed-in user's budget in view with their session's token. */
export function LiveChangesProvider(props: LiveChangesProps) {
  const session = useSignInSession();
  const accessToken = useCallback(() => session.accessToken(), [session]);
  return <LiveChanges {...props} accessToken={accessToken} />;
}

/** Follows the budget in view with the token `accessToken` answers at each (re)connection; tests hand their own stream. */
export function LiveChanges({
  children,
  budget,
  onGone,
  accessToken: tokenNow,
  follow = followLazily,
}: LiveChangesProps & { readonly accessToken: () => string | undefined; readonly follow?: FollowChanges }) {
  const [listeners] = useState(() => new Set<() => void>());
  const [status, setStatus] = useState<LiveState['status']>(null);
  const gone = useLatestCallback(() => onGone?.());
  const followRef = useRef(follow);
  followRef.current = follow;

  useEffect(() => {
    // Nobody else changes a personal budget (decision 0096): no stream, nothing held open.
    if (budget === undefined) return undefined;
    const abort = new AbortController();
    const { signal } = abort;
    const changed = (change: LiveChange) => {
      if (change.you) return;
      for (const listener of listeners) listener();
      const { text } = change;
      if (text !== null) setStatus((before) => ({ text, count: (before?.count ?? 0) + 1 }));
    };
    void (async () => {
      let wait = 0;
      let failures = 0;
      /** A stream was open before: what changed between it and the next one is read again once that one is open. */
      let followed = false;
      while (!signal.aborted) {
        await sleep(wait, signal);
        const accessToken = tokenNow();
        if (signal.aborted) return;
        let opened = false;
        const end: StreamEnd =
          accessToken === undefined
            ? { kind: 'closed' }
            : await followRef.current({
                accessToken,
                budget,
                signal,
                onOpen: () => {
                  opened = true;
                  if (followed) for (const listener of listeners) listener();
                  followed = true;
                },
                onChange: changed,
              });
        if (signal.aborted) return;
        const next = afterStreamEnd(end);
        if (next === 'gone') {
          gone();
          return;
        }
        if (next === 'stop') return;
        failures = opened ? 0 : failures + 1;
        wait = opened ? AFTER_OPEN_STREAM_MS : reconnectWait(failures);
      }
    })();
    return () => abort.abort();
  }, [budget, tokenNow, listeners, gone]);

  const value = useMemo(() => ({ listeners, status }), [listeners, status]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/** The quiet status line: what the last change by another member was, for eyes and screen readers alike. */
export function LiveStatus() {
  const { status } = useContext(LiveContext);
  return (
    <p className="live-status small text-body-secondary mb-0" role="status" aria-live="polite">
      {status ? <span key={status.count}>{status.text}</span> : null}
    </p>
  );
}
