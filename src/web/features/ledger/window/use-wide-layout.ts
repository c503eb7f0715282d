/**
 * True while the window is at least 1100 px wide: the ledger shows its table there and compact
 * rows below (SPEC.md section 2).
 */
import { useSyncExternalStore } from 'react';

const WIDE_LAYOUT_MIN_WIDTH = 1100;
const WIDE_QUERY = `(min-width: ${WIDE_LAYOUT_MIN_WIDTH}px)`;

/** jsdom and some embedded browsers have no matchMedia; the window's width answers the same question. */
function hasMatchMedia(): boolean {
  return typeof window.matchMedia === 'function';
}

function isWideNow(): boolean {
  return hasMatchMedia() ? window.matchMedia(WIDE_QUERY).matches : window.innerWidth >= WIDE_LAYOUT_MIN_WIDTH;
}

function subscribe(onLayoutChange: () => void): () => void {
  const query = hasMatchMedia() ? window.matchMedia(WIDE_QUERY) : null;
  query?.addEventListener('change', onLayoutChange);
  // Resize as well: it is the only signal without matchMedia, and harmless with it.
  window.addEventListener('resize', onLayoutChange);
  return () => {
    query?.removeEventListener('change', onLayoutChange);
    window.removeEventListener('resize', onLayoutChange);
  };
}

/** Rendering on a server has no window: assume the desktop table. */
function isWideOnServer(): boolean {
  return true;
}

export function useWideLayout(): boolean {
  return useSyncExternalStore(subscribe, isWideNow, isWideOnServer);
}
