/**
 * "Push to this device" (issue 26): this browser's push subscription, made with the server's VAPID
 * public key through the service worker that shows the pushes (src/web/public/push-handler.js).
 */
import type { PushSubscriptionTarget } from '../../../contract/notification-requests.js';

/** Whether this browser can receive web push at all (no service worker or PushManager: no). */
export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && typeof window.PushManager === 'function' && typeof window.Notification === 'function';
}

export class PushRefused extends Error {}

/** The page's service worker; registered by main.tsx after load, or here if that has not happened yet. */
async function serviceWorker(): Promise<ServiceWorkerRegistration> {
  const registration = (await navigator.serviceWorker.getRegistration('/')) ?? (await navigator.serviceWorker.register('/sw.js'));
  // A registration whose worker is still installing cannot subscribe yet.
  return registration.active ? registration : navigator.serviceWorker.ready;
}

/** The browser's own subscription, if it has one: its endpoint names this device among the channels. */
export async function thisDeviceEndpoint(): Promise<string | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  return subscription?.endpoint ?? null;
}

function sameKey(given: ArrayBuffer | null | undefined, key: Uint8Array): boolean {
  if (!given) return false;
  const bytes = new Uint8Array(given);
  return bytes.length === key.length && bytes.every((byte, index) => byte === key[index]);
}

/**
 * Asks for permission and subscribes this device with the server's key (base64url), answering
 * the subscription as the server takes it. A subscription made with another key (another server,
 * or before a reinstall) is replaced: the push service would refuse this server's messages to it.
 */
export async function subscribeThisDevice(publicKey: string): Promise<PushSubscriptionTarget> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new PushRefused(
      "Notifications are blocked for Leftover in this browser. Allow them in the browser's site settings, then try again.",
    );
  }
  const key = Uint8Array.from(atob(publicKey.replace(/-/g, '+').replace(/_/g, '/')), (character) => character.charCodeAt(0));
  const registration = await serviceWorker();
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const { endpoint, expirationTime, keys } = subscription.toJSON();
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new PushRefused('This browser made a push subscription without its keys.');
  return { endpoint, expirationTime: expirationTime ?? null, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/** When this device's channel is removed, the browser lets go of its subscription too. */
export async function unsubscribeThisDevice(endpoint: string): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription?.endpoint === endpoint) await subscription.unsubscribe();
}
