/**
 * The email channel (issue 26, decision 0051): through the operator's SMTP server (SMTP_URL, as
 * MAIL_FROM), with nodemailer. Every mail carries a one-click unsubscribe link (RFC 8058:
 * List-Unsubscribe with an https or http URL, and List-Unsubscribe-Post) that turns off this address
 * only, without signing in; the same link is in the text, for people.
 */
import type { Transporter } from 'nodemailer';
import { type DeliveryResult, type OutgoingMessage, shortReason } from './delivery.js';

/** A stuck SMTP server fails a send within these, well inside an outbox lease. */
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;

/** A mail that is no channel's message (an invitation, decision 0105): its own subject and bodies. */
export interface Letter {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface EmailSender {
  send(to: string, message: OutgoingMessage, unsubscribeUrl: string): Promise<DeliveryResult>;
  /** One mail to an address that is nobody's channel: no unsubscribe link, since there is no channel to turn off. */
  sendLetter(to: string, letter: Letter): Promise<DeliveryResult>;
  close(): void;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const LINK_TEXT: Record<OutgoingMessage['kind'], string> = {
  BELOW_ZERO: 'Open Leftover',
  BILLS_DUE: 'Open Leftover',
  TEST: 'Open Leftover',
  CONFIRM: 'Confirm this address',
};

/** The mail's text and HTML: the message, its link, and why it came with how to stop it. */
export function mailBodies(message: OutgoingMessage, unsubscribeUrl: string): { text: string; html: string } {
  const why = 'You get this because this address is one of your channels in Leftover’s notification settings.';
  const text = `${message.message}\n\n${LINK_TEXT[message.kind]}: ${message.url}\n\n${why}\nTo get no more mail at this address: ${unsubscribeUrl}\n`;
  const html =
    `<!doctype html><html><body>` +
    `<p>${escapeHtml(message.message)}</p>` +
    `<p><a href="${escapeHtml(message.url)}">${LINK_TEXT[message.kind]}</a></p>` +
    `<p style="color:#555;font-size:small">${escapeHtml(why)} <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe this address</a>.</p>` +
    `</body></html>`;
  return { text, html };
}

function failureOf(error: unknown): DeliveryResult {
  const responseCode = typeof error === 'object' && error !== null && 'responseCode' in error ? Number(error.responseCode) : NaN;
  const response = typeof error === 'object' && error !== null && 'response' in error ? String(error.response) : '';
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  if (Number.isInteger(responseCode)) {
    // 5xx is the mail server's final no (no such mailbox, say); 4xx asks to come back later.
    return { delivered: false, reason: shortReason(`The mail server refused it: ${response || responseCode}`), retry: responseCode < 500 };
  }
  return { delivered: false, reason: shortReason(`Could not reach the mail server${code ? ` (${code})` : ''}.`), retry: true };
}

export function createEmailSender(smtpUrl: string, from: string): EmailSender {
  // nodemailer (about 40 modules) loads with the first mail, not at start (decision 0041).
  let transport: Promise<Transporter> | undefined;
  const transportOnce = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: CONNECTION_TIMEOUT_MS,
        greetingTimeout: CONNECTION_TIMEOUT_MS,
        socketTimeout: SOCKET_TIMEOUT_MS,
      }),
    ));
  async function mail(to: string, letter: Letter, headers: Readonly<Record<string, string>>): Promise<DeliveryResult> {
    try {
      await (
        await transportOnce()
      ).sendMail({
        from,
        to,
        subject: letter.subject,
        text: letter.text,
        html: letter.html,
        // Automated mail: no out-of-office answers back.
        headers: { ...headers, 'Auto-Submitted': 'auto-generated' },
      });
      return { delivered: true };
    } catch (error) {
      return failureOf(error);
    }
  }
  return {
    send(to, message, unsubscribeUrl) {
      return mail(
        to,
        { subject: message.title, ...mailBodies(message, unsubscribeUrl) },
        { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      );
    },
    sendLetter(to, letter) {
      return mail(to, letter, {});
    },
    close() {
      void transport?.then((opened) => opened.close());
    },
  };
}
