/*
 * Where the browser sends a request without waking the service worker (decision 0110), imported by
 * the generated worker (sw.js, vite.config.ts) beside the push handler. The worker answers only the
 * page's own files; the API, the sign-in pages and /app-config.json it always passed on to the
 * network, but each such request still went through its fetch handler first, and a worker the browser
 * had stopped (after about 30 s idle) was started again just to pass the call on: 22 ms against 5 for
 * the first call after a pause, here on a desktop. The Service Worker Static Routing API (Chromium 123
 * and later) sends them to the network directly. Browsers without it keep the fetch handler, which
 * passes them on as before. Plain JavaScript, copied as it is: the worker's scope, not the page's bundle.
 */

/** Paths the worker never answers: the same list as its navigation fallback's denylist in vite.config.ts (keep the two alike). */
const NETWORK_ONLY = ['/api/*', '/oidc/*', '/dev-sign-in*', '/login/*', '/app-config.json', '/notify/*'];

self.addEventListener('install', (event) => {
  if (typeof event.addRoutes !== 'function' || typeof URLPattern !== 'function') return;
  const routes = NETWORK_ONLY.map((pathname) => ({ condition: { urlPattern: new URLPattern({ pathname }) }, source: 'network' }));
  // A browser that refuses a route keeps the fetch handler for it: nothing is lost but the shortcut.
  event.waitUntil(event.addRoutes(routes).catch(() => undefined));
});
