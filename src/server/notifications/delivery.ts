/**
 * What every channel's sender takes and answers (issue 26, decision 0051): one message, and whether
 * it arrived. A sender never throws for a failed delivery; it answers why, whether trying again may
 * help, and whether the channel is gone for good (a push service's 404 or 410).
 */
export interface OutgoingMessage {
  readonly title: string;
  readonly message: string;
  /** Where the message leads: Home, or an email address's confirmation page. */
  readonly url: string;
  readonly kind: 'BELOW_ZERO' | 'BILLS_DUE' | 'TEST' | 'CONFIRM';
  /** The date the message is about ('YYYY-MM-DD'): the shortfall's, tomorrow for bills, today for a test. */
  readonly date: string;
}

export type DeliveryResult =
  | { readonly delivered: true }
  | {
      readonly delivered: false;
      readonly reason: string;
      /** The channel must be deleted: the push service says the subscription no longer exists (404, 410). */
      readonly gone?: boolean;
      /** Whether another attempt later may succeed (a timeout, a 5xx), as opposed to a refusal. */
      readonly retry: boolean;
    };

/** A browser's push subscription, as stored for a PUSH channel. */
export interface PushSubscription {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

/** Web push with the server's VAPID keys (push-sender.ts makes one; buildApp is handed it). */
export interface PushSender {
  /** The VAPID public key, base64url: the page's applicationServerKey. */
  readonly publicKey: string;
  send(subscription: PushSubscription, message: OutgoingMessage): Promise<DeliveryResult>;
}

/** A reason short enough to store and show: the first line, at most 300 characters. */
export function shortReason(text: string): string {
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
