/**
 * The undo status (issue 24): after a write that can be undone, a message naming what happened
 * with a button "Undo", for at least 10 seconds, and for as long as it has the pointer or the
 * keyboard focus. It is drawn inside the live region of undo-region.tsx, which is always on the
 * page, so screen readers read each new message once. An undo that can no longer be done says
 * why, in the same place. A chunk of its own: the first view carries only the region.
 */
import { useEffect, useRef, useState } from 'react';
import { ApiCallError } from '../api/api-client.js';
import { useApiClient } from '../api/api-context.js';
import { Button } from '../components/button.js';
import { type UndoOffer, useUndo } from './undo-context.js';

/** How long an offer stays once nothing holds it: at least the 10 seconds. */
export const UNDO_SHOWN_MS = 10_000;
/** How long "Undone." or a refusal stays. */
const RESULT_SHOWN_MS = 6_000;

type Shown =
  { readonly kind: 'offer'; readonly offer: UndoOffer } | { readonly kind: 'result'; readonly text: string; readonly id: number };

export function UndoStatus() {
  const api = useApiClient();
  const { offer, withdraw, undone } = useUndo();
  const [result, setResult] = useState<{ readonly text: string; readonly id: number } | null>(null);
  const [held, setHeld] = useState({ pointer: false, focus: false });
  const [undoing, setUndoing] = useState(false);
  const region = useRef<HTMLDivElement>(null);

  // A new offer replaces an earlier result.
  useEffect(() => {
    if (offer) setResult(null);
  }, [offer]);

  const shown: Shown | null = offer ? { kind: 'offer', offer } : result ? { kind: 'result', ...result } : null;
  const isHeld = held.pointer || held.focus || undoing;
  const shownId = shown?.kind === 'offer' ? shown.offer.id : shown?.id;

  // Counts down only while nothing holds it; the pointer or the focus leaving starts the full time again.
  useEffect(() => {
    if (shownId === undefined || isHeld) return;
    const timer = window.setTimeout(
      () => {
        if (offer?.id === shownId) withdraw(shownId);
        else setResult((current) => (current?.id === shownId ? null : current));
      },
      offer?.id === shownId ? UNDO_SHOWN_MS : RESULT_SHOWN_MS,
    );
    return () => window.clearTimeout(timer);
  }, [shownId, isHeld, offer, withdraw]);

  async function undo(taken: UndoOffer) {
    setUndoing(true);
    try {
      const answer = await api.undo(taken.token);
      undone(answer);
      setResult({ text: `Undone: ${taken.message}`, id: taken.id });
    } catch (error) {
      setResult({ text: error instanceof ApiCallError ? error.detail : 'This could not be undone.', id: taken.id });
    } finally {
      withdraw(taken.id);
      setUndoing(false);
    }
  }

  if (!shown) return null;
  return (
    <div
      ref={region}
      className="undo-status shadow"
      onPointerEnter={() => setHeld((current) => ({ ...current, pointer: true }))}
      onPointerLeave={() => setHeld((current) => ({ ...current, pointer: false }))}
      onFocus={() => setHeld((current) => ({ ...current, focus: true }))}
      onBlur={(event) => {
        if (!region.current?.contains(event.relatedTarget as Node | null)) setHeld((current) => ({ ...current, focus: false }));
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && shown.kind === 'offer') withdraw(shown.offer.id);
      }}
    >
      {shown.kind === 'offer' ? (
        <>
          <span className="undo-status__text">{shown.offer.message}</span>
          <Button variant="light" size="sm" disabled={undoing} onClick={() => void undo(shown.offer)}>
            Undo
          </Button>
        </>
      ) : (
        <span className="undo-status__text">{shown.text}</span>
      )}
    </div>
  );
}
