/*
 * Leftover's web push (issue 26, decision 0048), imported by the generated service worker (sw.js,
 * vite.config.ts). Every push is shown: a browser takes away push from a site whose push shows
 * nothing, and the server only sends what the user asked for. The payload is the server's
 * { title, message, url, kind, date }; tapping the notification opens Home, or the payload's
 * page when it is one of ours (a link to another site is never followed).
 * Plain JavaScript, copied as it is: the service worker's own scope, not the page's bundle.
 */

/** The payload as sent, or what can be read of a payload that is not ours. */
function readPush(data) {
  if (!data) return {};
  try {
    const payload = data.json();
    return payload !== null && typeof payload === 'object' ? payload : {};
  } catch {
    return { message: data.text() };
  }
}

/** The payload's address when it is a page of this origin; Home otherwise. */
function pageToOpen(url) {
  const home = new URL('/', self.location.origin).href;
  if (typeof url !== 'string') return home;
  try {
    const page = new URL(url, home);
    return page.origin === self.location.origin ? page.href : home;
  } catch {
    return home;
  }
}

self.addEventListener('push', (event) => {
  const payload = readPush(event.data);
  const title = typeof payload.title === 'string' && payload.title.trim() !== '' ? payload.title : 'Leftover';
  const body = typeof payload.message === 'string' ? payload.message : '';
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      icon: '/icon-192.png',
      lang: 'en-US',
      data: { url: pageToOpen(payload.url), kind: payload.kind, date: payload.date },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = pageToOpen(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      // A Leftover window already open is brought forward and shown the page, rather than opening another.
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        const shown = 'navigate' in open && open.url !== url ? await open.navigate(url).catch(() => null) : open;
        return (shown ?? open).focus();
      }
      return self.clients.openWindow(url);
    }),
  );
});
