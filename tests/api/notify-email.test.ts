/**
 * The email channel (issue 26 item 3, decision 0051) against a real SMTP server (smtp-server) whose
 * mail mailparser reads, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: the confirmation link
 * before anything else, the pages its links open without signing in, the RFC 8058 headers and the
 * one-click unsubscribe that turns off that address only, and a planned message's exact text.
 */
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { NOTIFICATIONS_PATHS, type NotificationSettings, notificationSettingsSchema } from '../../src/contract/notifications.js';
import { runNotifications } from '../../src/server/app.js';
import { newSubject } from '../support/api-expectations.js';
import { rawHeader, recipientsOf, type SmtpReceiver, startSmtpReceiver } from '../support/notify-receivers.js';
import { expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

/** The test-send call of a channel (its path names the channel's id before /test). */
const testPath = (id: string) => NOTIFICATIONS_PATHS.test.replace(':id', encodeURIComponent(id));

const PUBLIC_URL = 'https://leftover.example.com';
/** Sat, Nov 21, 2026, 16:00 on a UTC server: past the default hour (08:00) for a user in UTC. */
const NOW = new Date('2026-11-21T16:00:00Z');

function linkIn(text: string | undefined, kind: 'confirm' | 'unsubscribe'): string {
  const match = new RegExp(`${PUBLIC_URL}/notify/${kind}/[A-Za-z0-9_-]{43}`).exec(text ?? '');
  if (!match) throw new Error(`no ${kind} link in ${text}`);
  return match[0];
}

/** The path of a link, as a request to the app names it. */
const pathOf = (link: string) => link.slice(PUBLIC_URL.length);

describe.each(databaseKinds())('email on %s', (kind) => {
  let smtp: SmtpReceiver;
  let test: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    test = await startTestApp(kind, {
      now: () => NOW,
      env: { TZ: 'UTC', PUBLIC_URL, SMTP_URL: smtp.url, MAIL_FROM: 'Leftover <leftover@example.com>' },
    });
  });
  afterAll(async () => {
    await test?.close();
    await smtp?.close();
  });

  const settingsOf = async (user: UserClient): Promise<NotificationSettings> =>
    notificationSettingsSchema.parse(okJson(await user.get(NOTIFICATIONS_PATHS.settings)));

  async function addEmail(user: UserClient, address: string): Promise<string> {
    const settings = notificationSettingsSchema.parse(
      okJson(await user.post(NOTIFICATIONS_PATHS.channels, { kind: 'EMAIL', target: address })),
    );
    const channel = settings.channels.find((candidate) => candidate.target === address);
    if (!channel) throw new Error(`no channel for ${address}`);
    return channel.id;
  }

  /** A link page, as a mail reader opens it: no token, no session. */
  const openLink = (method: 'GET' | 'POST', link: string, payload?: string) =>
    test.app.inject({
      method,
      url: pathOf(link),
      ...(payload === undefined ? {} : { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload }),
    });

  function expectUnsubscribeHeaders(mail: ParsedMail | undefined): string {
    const header = rawHeader(mail as ParsedMail, 'List-Unsubscribe') ?? '';
    expect(header).toMatch(new RegExp(`^<${PUBLIC_URL}/notify/unsubscribe/[A-Za-z0-9_-]{43}>$`));
    expect(rawHeader(mail as ParsedMail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    return header.slice(1, -1);
  }

  it('confirms an address by its link before sending it anything else, and then sends the day’s message', async () => {
    const user = test.as(newSubject('email'));
    // Wed, Nov 25: the car loan takes $100 to -$210.44; Sat, Nov 28: the phone to -$267.96.
    for (const expense of [
      { name: 'Car loan', amount: 310.44, day: 25 },
      { name: 'Phone', amount: 57.52, day: 28 },
    ]) {
      okJson(await user.post(EXPENSES_PATHS.add, expenseInput(expense)));
    }
    ledgerOf(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2026-11-30', currentBalance: 100 } }));

    const id = await addEmail(user, 'Ann@Example.com');
    const [confirmation] = await smtp.waitFor(1, 'ann@example.com');
    expect(confirmation?.subject).toBe('Confirm your address for Leftover');
    expect(confirmation?.from?.text).toBe('"Leftover" <leftover@example.com>');
    const confirmLink = linkIn(confirmation?.text, 'confirm');
    const unsubscribeLink = expectUnsubscribeHeaders(confirmation);
    expect(confirmation?.text).toContain(unsubscribeLink);
    expect((await settingsOf(user)).channels).toEqual([
      { id, kind: 'EMAIL', target: 'Ann@Example.com', confirmed: false, lastResult: { delivered: true, at: NOW.toISOString() } },
    ]);

    // Unconfirmed: a test sends the link again and nothing else (the test itself is "Not delivered", decision 0067),
    // and the day's messages are not planned for it.
    expect(okJson(await user.post(testPath(id)))).toEqual({ delivered: false, message: 'Not delivered' });
    const twice = await smtp.waitFor(2, 'ann@example.com');
    expect(linkIn(twice[1]?.text, 'confirm')).toBe(confirmLink);
    expect(await runNotifications(test.app)).toMatchObject({ planned: 0, sent: 0 });

    // The link's page asks; only its button (a POST) confirms, without signing in.
    const page = await openLink('GET', confirmLink);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('Send Leftover&#39;s notifications to Ann@Example.com?');
    expect(page.body).toContain('<form method="post"><button type="submit">Confirm this address</button></form>');
    expect((await settingsOf(user)).channels[0]?.confirmed).toBe(false);
    const confirmed = await openLink('POST', confirmLink);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('Leftover will send notifications to Ann@Example.com.');
    expect((await settingsOf(user)).channels[0]?.confirmed).toBe(true);

    expect(await runNotifications(test.app)).toMatchObject({ planned: 1, sent: 1 });
    const [, , heads] = await smtp.waitFor(3, 'ann@example.com');
    expect(heads?.subject).toBe('Checking goes below $0 on Wed, Nov 25, 2026');
    expect(heads?.text?.split('\n')[0]).toBe(
      'Heads up: your Checking balance goes below $0 on Wed, Nov 25, 2026, when Car loan ($310.44) is due. Lowest ahead: -$267.96 on Sat, Nov 28, 2026.',
    );
    expect(heads?.text).toContain(`Open Leftover: ${PUBLIC_URL}/`);
    expect(expectUnsubscribeHeaders(heads)).toBe(unsubscribeLink);
    expect(await runNotifications(test.app)).toMatchObject({ planned: 0, sent: 0 });

    expect(okJson(await user.post(testPath(id)))).toEqual({ delivered: true, message: 'Delivered' });
    const [, , , testMail] = await smtp.waitFor(4, 'ann@example.com');
    expect(testMail?.subject).toBe('Leftover test');
    expectUnsubscribeHeaders(testMail);
    expect(smtp.messages.filter((mail) => recipientsOf(mail).includes('ann@example.com'))).toHaveLength(4);
  });

  it('unsubscribes one address with one click, without signing in, and leaves the user’s other addresses', async () => {
    const user = test.as(newSubject('unsubscribe'));
    const links = new Map<string, string>();
    for (const address of ['carol@example.com', 'dave@example.com']) {
      await addEmail(user, address);
      const [mail] = await smtp.waitFor(1, address);
      links.set(address, expectUnsubscribeHeaders(mail));
      expect((await openLink('POST', linkIn(mail?.text, 'confirm'))).statusCode).toBe(200);
    }
    const carol = links.get('carol@example.com') ?? '';
    // A person who opens the link sees what it does and a button; nothing changes until they press it.
    const page = await openLink('GET', carol);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<button type="submit">Unsubscribe</button>');
    expect((await settingsOf(user)).channels.map((channel) => channel.target)).toEqual(['carol@example.com', 'dave@example.com']);

    // RFC 8058: the mail reader POSTs "List-Unsubscribe=One-Click" to the header's address.
    const oneClick = await openLink('POST', carol, 'List-Unsubscribe=One-Click');
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('Leftover sends nothing more to carol@example.com.');
    expect((await settingsOf(user)).channels.map((channel) => [channel.target, channel.confirmed])).toEqual([['dave@example.com', true]]);
    expect((await openLink('POST', carol, 'List-Unsubscribe=One-Click')).statusCode).toBe(404);
    expect((await openLink('GET', carol)).statusCode).toBe(404);
    // A made-up link is as dead as a used one.
    expect((await openLink('POST', `${PUBLIC_URL}/notify/unsubscribe/${'A'.repeat(43)}`)).statusCode).toBe(404);
    expect((await openLink('GET', `${PUBLIC_URL}/notify/confirm/not-a-token`)).statusCode).toBe(404);
  });

  it('says when the mail server refuses an address', async () => {
    const user = test.as(newSubject('refused'));
    await addEmail(user, 'refuse-me@example.com');
    const [channel] = (await settingsOf(user)).channels;
    expect(channel?.confirmed).toBe(false);
    expect(channel?.lastResult).toMatchObject({ delivered: false });
    expect(channel?.lastResult?.delivered === false && channel.lastResult.reason).toMatch(/^The mail server refused it: 550/);
  });
});
