/**
 * The page has two routes (the dashboard and the sign-in return), so it keeps the address itself
 * instead of pulling in a router. Every change goes through navigate() so views re-render.
 */
import { useSyncExternalStore } from 'react';

const NAVIGATE_EVENT = 'leftover:navigate';

export function currentAddress(): string {
  return `${window.location.pathname}${window.location.search}${window.location.hash}`;
}

export function navigate(address: string, { replace = false } = {}): void {
  if (replace) window.history.replaceState(null, '', address);
  else window.history.pushState(null, '', address);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** Calls `onChange` on every move of the address (a link, Back, Forward). */
export function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

/** Only same-site paths are followed after sign-in, so a crafted state cannot send people away. */
export function safeReturnAddress(candidate: unknown): string {
  if (typeof candidate !== 'string' || !candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return '/';
  if (candidate.startsWith('/login/callback')) return '/';
  return candidate;
}
