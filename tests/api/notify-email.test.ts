/**
 * The email channel (issue 26 item 3, decision 0051) against a real SMTP server (smtp-server) whose
 * mail mailparser reads, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: the confirmation link
 * before anything else, the pages its links open without signing in, the RFC 8058 headers and the
 * one-click unsubscribe that turns off that address only, and a planned message's exact text.
 * No mail to strangers (issue 34, decision 0069): "Send a test" sends an unconfirmed address
 * nothing, confirmation mails are limited per address across users, an address that unsubscribed
 * is left alone for 30 days, and links have tokens of their own, kept hashed, that expire; links
 * mailed before then keep working.
 */
import type { ParsedMail } from 'mailparser';
import { type Kysely, Migrator, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import {
  type ChannelInfo,
  NOTIFICATIONS_PATHS,
  type NotificationSettings,
  notificationSettingsSchema,
} from '../../src/contract/notifications.js';
import { runNotifications } from '../../src/server/app.js';
import { migrations } from '../../src/server/db/migrations.js';
import { newSubject } from '../support/api-expectations.js';
import { rawHeader, recipientsOf, type SmtpReceiver, startSmtpReceiver } from '../support/notify-receivers.js';
import { expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { openRawDatabase } from '../support/raw-database.js';
import { createTestDatabase, databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

/** The test-send call of a channel (its path names the channel's id before /test). */
const testPath = (id: string) => NOTIFICATIONS_PATHS.test.replace(':id', encodeURIComponent(id));
const channelPath = (id: string) => NOTIFICATIONS_PATHS.channel.replace(':id', encodeURIComponent(id));

const PUBLIC_URL = 'https://leftover.example.com';
/** Sat, Nov 21, 2026, 16:00 on a UTC server: past the default hour (08:00) for a user in UTC. */
const NOW = new Date('2026-11-21T16:00:00Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** NOW moved by `ms`. */
const later = (ms: number) => new Date(NOW.getTime() + ms);
const ASKED_FOR_QUIET = 'This address asked not to get mail from Leftover. Use another one.';

function linkIn(text: string | undefined, kind: 'confirm' | 'unsubscribe'): string {
  const match = new RegExp(`${PUBLIC_URL}/notify/${kind}/[A-Za-z0-9_-]{43}`).exec(text ?? '');
  if (!match) throw new Error(`no ${kind} link in ${text}`);
  return match[0];
}

/** The path of a link, as a request to the app names it. */
const pathOf = (link: string) => link.slice(PUBLIC_URL.length);
/** The token a link carries. */
const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1);

describe.each(databaseKinds())('email on %s', (kind) => {
  let smtp: SmtpReceiver;
  let test: TestApp;
  /** The app's clock: NOW unless a test moves it. */
  let clock = NOW;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    test = await startTestApp(kind, {
      now: () => clock,
      env: { TZ: 'UTC', PUBLIC_URL, SMTP_URL: smtp.url, MAIL_FROM: 'Leftover <leftover@example.com>' },
    });
  });
  afterEach(() => {
    clock = NOW;
  });
  afterAll(async () => {
    await test?.close();
    await smtp?.close();
  });

  const mailsTo = (address: string) => smtp.messages.filter((mail) => recipientsOf(mail).includes(address)).length;

  const settingsOf = async (user: UserClient): Promise<NotificationSettings> =>
    notificationSettingsSchema.parse(okJson(await user.get(NOTIFICATIONS_PATHS.settings)));

  /** The channel an address was added as, from the add's answer. */
  async function addedChannel(user: UserClient, address: string): Promise<ChannelInfo> {
    const settings = notificationSettingsSchema.parse(
      okJson(await user.post(NOTIFICATIONS_PATHS.channels, { kind: 'EMAIL', target: address })),
    );
    const channel = settings.channels.find((candidate) => candidate.target === address);
    if (!channel) throw new Error(`no channel for ${address}`);
    return channel;
  }

  const addEmail = async (user: UserClient, address: string): Promise<string> => (await addedChannel(user, address)).id;

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
      {
        id,
        kind: 'EMAIL',
        target: 'Ann@Example.com',
        confirmed: false,
        lastResult: { delivered: true, at: NOW.toISOString() },
        state: 'OK',
        failingSince: null,
        retryAt: null,
      },
    ]);

    // Unconfirmed: a test sends nothing (decision 0069), and the day's messages are not planned for it.
    const refused = await user.post(testPath(id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: { code: 'conflict', message: 'Confirm this address first: we sent a link to Ann@Example.com.' },
    });
    expect(await runNotifications(test.app)).toMatchObject({ planned: 0, sent: 0 });
    expect(mailsTo('ann@example.com')).toBe(1);

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
    const [, heads] = await smtp.waitFor(2, 'ann@example.com');
    expect(heads?.subject).toBe('Checking goes below $0 on Wed, Nov 25, 2026');
    expect(heads?.text?.split('\n')[0]).toBe(
      'Heads up: your Checking balance goes below $0 on Wed, Nov 25, 2026, when Car loan ($310.44) is due. Lowest ahead: -$267.96 on Sat, Nov 28, 2026.',
    );
    expect(heads?.text).toContain(`Open Leftover: ${PUBLIC_URL}/`);
    // Every mail carries its own unsubscribe link (only hashes are kept, so one cannot be put in two mails); each works.
    const headsUnsubscribe = expectUnsubscribeHeaders(heads);
    expect(headsUnsubscribe).not.toBe(unsubscribeLink);
    for (const link of [unsubscribeLink, headsUnsubscribe]) {
      expect((await openLink('GET', link)).body).toContain('Stop all of Leftover&#39;s notifications to Ann@Example.com?');
    }
    expect(await runNotifications(test.app)).toMatchObject({ planned: 0, sent: 0 });

    expect(okJson(await user.post(testPath(id)))).toEqual({ delivered: true, message: 'Delivered' });
    const [, , testMail] = await smtp.waitFor(3, 'ann@example.com');
    expect(testMail?.subject).toBe('Leftover test');
    expectUnsubscribeHeaders(testMail);
    expect(mailsTo('ann@example.com')).toBe(3);
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

  it('sends an unconfirmed address nothing on "Send a test": one mail to a stranger however often it is pressed', async () => {
    const user = test.as(newSubject('stranger'));
    const id = await addEmail(user, "o'neil@b.co");
    await smtp.waitFor(1, "o'neil@b.co");
    for (let press = 0; press < 5; press += 1) {
      const answer = await user.post(testPath(id));
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toEqual({ error: { code: 'conflict', message: "Confirm this address first: we sent a link to o'neil@b.co." } });
    }
    expect(mailsTo("o'neil@b.co")).toBe(1);
  });

  it('sends an address at most one confirmation mail an hour and 3 in a day, whoever adds it', async () => {
    const [ann, bob, cat] = ['cap-ann', 'cap-bob', 'cap-cat'].map((name) => test.as(newSubject(name))) as [
      UserClient,
      UserClient,
      UserClient,
    ];
    const held = (wait: string) =>
      `No confirmation mail was sent: an address gets at most one an hour and 3 a day. Remove it and add it again in ${wait} for a new link.`;

    const first = await addedChannel(ann, 'cap@example.com');
    expect(first.lastResult).toEqual({ delivered: true, at: NOW.toISOString() });
    expect(mailsTo('cap@example.com')).toBe(1);

    // Another user, a minute later, with the address spelt another way: stored, no mail, and the answer says why.
    clock = later(MINUTE);
    const bobs = await addedChannel(bob, 'Cap+bills@Example.com');
    expect(bobs).toMatchObject({ confirmed: false, lastResult: { delivered: false, reason: held('59 minutes'), at: clock.toISOString() } });
    expect(mailsTo('cap@example.com') + mailsTo('cap+bills@example.com')).toBe(1);
    // Removed and added again within the hour: the same.
    expect((await ann.delete(channelPath(first.id))).statusCode).toBe(200);
    clock = later(2 * MINUTE);
    expect((await addedChannel(ann, 'cap@example.com')).lastResult).toMatchObject({ delivered: false, reason: held('58 minutes') });
    expect(mailsTo('cap@example.com')).toBe(1);

    // An hour after the first: the second mail, whose link confirms the channel of the user who added it then.
    expect((await bob.delete(channelPath(bobs.id))).statusCode).toBe(200);
    clock = later(61 * MINUTE);
    expect((await addedChannel(bob, 'cap@example.com')).lastResult).toEqual({ delivered: true, at: clock.toISOString() });
    const [, second] = await smtp.waitFor(2, 'cap@example.com');
    expect((await openLink('POST', linkIn(second?.text, 'confirm'))).statusCode).toBe(200);
    expect((await settingsOf(bob)).channels.map((channel) => channel.confirmed)).toEqual([true]);
    expect((await settingsOf(ann)).channels.map((channel) => channel.confirmed)).toEqual([false]);

    // The third within the day, then none until a day after the first.
    clock = later(122 * MINUTE);
    expect((await cat.post(NOTIFICATIONS_PATHS.channels, { kind: 'EMAIL', target: 'cap@example.com' })).statusCode).toBe(200);
    expect(mailsTo('cap@example.com')).toBe(3);
    const cats = (await settingsOf(cat)).channels[0];
    expect((await cat.delete(channelPath(cats?.id ?? ''))).statusCode).toBe(200);
    clock = later(183 * MINUTE);
    expect((await addedChannel(cat, 'cap@example.com')).lastResult).toMatchObject({ delivered: false, reason: held('21 hours') });
    expect(mailsTo('cap@example.com')).toBe(3);
    const again = (await settingsOf(cat)).channels[0];
    expect((await cat.delete(channelPath(again?.id ?? ''))).statusCode).toBe(200);
    clock = later(DAY);
    expect((await addedChannel(cat, 'cap@example.com')).lastResult).toEqual({ delivered: true, at: clock.toISOString() });
    expect(mailsTo('cap@example.com')).toBe(4);
  });

  it('leaves an address that unsubscribed with one click alone for 30 days, whoever adds it', async () => {
    const [ann, bob] = ['quiet-ann', 'quiet-bob'].map((name) => test.as(newSubject(name))) as [UserClient, UserClient];
    await addEmail(ann, 'quiet@example.com');
    const [mail] = await smtp.waitFor(1, 'quiet@example.com');
    expect((await openLink('POST', expectUnsubscribeHeaders(mail), 'List-Unsubscribe=One-Click')).statusCode).toBe(200);

    const refused = { error: { code: 'bad_request', message: ASKED_FOR_QUIET, fields: { target: ASKED_FOR_QUIET } } };
    for (const [user, address, at] of [
      [bob, 'Quiet@Example.com', later(MINUTE)],
      [ann, 'quiet@example.com', later(2 * MINUTE)],
      [bob, 'quiet+leftover@example.com', later(30 * DAY - MINUTE)],
    ] as const) {
      clock = at;
      const answer = await user.post(NOTIFICATIONS_PATHS.channels, { kind: 'EMAIL', target: address });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual(refused);
      expect((await settingsOf(user)).channels).toEqual([]);
    }
    expect(mailsTo('quiet@example.com')).toBe(1);

    clock = later(30 * DAY);
    expect((await addedChannel(bob, 'quiet@example.com')).lastResult).toEqual({ delivered: true, at: clock.toISOString() });
    expect(mailsTo('quiet@example.com')).toBe(2);
  });

  it('gives confirm and unsubscribe links tokens of their own, stores neither, and ends them after 7 days and a year', async () => {
    const user = test.as(newSubject('tokens'));
    await addEmail(user, 'tokens@example.com');
    const [mail] = await smtp.waitFor(1, 'tokens@example.com');
    const confirmLink = linkIn(mail?.text, 'confirm');
    const unsubscribeLink = expectUnsubscribeHeaders(mail);
    const [confirmToken, unsubscribeToken] = [tokenOf(confirmLink), tokenOf(unsubscribeLink)];
    expect(confirmToken).not.toBe(unsubscribeToken);
    // Neither token is anywhere in the database, in any table.
    const stored = await test.snapshot();
    expect(stored).not.toContain(confirmToken);
    expect(stored).not.toContain(unsubscribeToken);
    // One link's token does not do the other's work.
    expect((await openLink('GET', `${PUBLIC_URL}/notify/unsubscribe/${confirmToken}`)).statusCode).toBe(404);
    expect((await openLink('POST', `${PUBLIC_URL}/notify/confirm/${unsubscribeToken}`)).statusCode).toBe(404);

    clock = later(7 * DAY - MINUTE);
    expect((await openLink('GET', confirmLink)).statusCode).toBe(200);
    clock = later(7 * DAY);
    for (const method of ['GET', 'POST'] as const) {
      const expired = await openLink(method, confirmLink);
      expect(expired.statusCode).toBe(410);
      expect(expired.body).toContain('This confirmation link has expired: a confirmation link works for 7 days.');
      expect(expired.body).toContain(
        'To get a new one, remove this address from your channels in Leftover&#39;s Settings and add it again.',
      );
    }
    expect((await settingsOf(user)).channels.map((channel) => channel.confirmed)).toEqual([false]);

    clock = later(365 * DAY - MINUTE);
    expect((await openLink('GET', unsubscribeLink)).statusCode).toBe(200);
    clock = later(365 * DAY);
    for (const method of ['GET', 'POST'] as const) {
      const expired = await openLink(method, unsubscribeLink);
      expect(expired.statusCode).toBe(410);
      expect(expired.body).toContain('This unsubscribe link has expired: an unsubscribe link works for a year.');
    }
    expect((await settingsOf(user)).channels.map((channel) => channel.target)).toEqual(['tokens@example.com']);
  });
});

describe.each(databaseKinds())('links mailed before their tokens were kept hashed, on %s', (kind) => {
  /** Addresses as the code before decision 0069 stored them: one plain token for both links. */
  const LEGACY = {
    unconfirmed: { id: 'legacy-unconfirmed', token: 'U'.repeat(43), confirmed: 0, mailed: later(-6 * DAY) },
    confirmed: { id: 'legacy-confirmed', token: 'C'.repeat(43), confirmed: 1, mailed: later(-2 * DAY) },
  };
  let test: TestApp;
  let clock = NOW;

  beforeAll(async () => {
    const database = await createTestDatabase(kind);
    const raw: Kysely<unknown> = openRawDatabase(kind, database.url);
    try {
      const schema =
        kind === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(raw)).rows[0]?.schema : undefined;
      const migrator = new Migrator({
        db: raw,
        provider: { getMigrations: async () => migrations },
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      const { error } = await migrator.migrateTo('0016_ledger_month_totals');
      if (error) throw new Error('migrating to 0016 failed', { cause: error });
      for (const [name, channel] of Object.entries(LEGACY)) {
        const mailed = channel.mailed.toISOString();
        await sql`insert into notification_channels (id, owner_iss, owner_sub, kind, target, target_key, push_p256dh, push_auth, confirmed, link_token, last_at, last_delivered, last_reason, created_at)
          values (${channel.id}, 'https://issuer.example', ${name}, 'EMAIL', ${`${name}@example.com`}, ${name}, null, null, ${channel.confirmed}, ${channel.token}, ${mailed}, 1, null, ${mailed})`.execute(
          raw,
        );
      }
    } catch (error) {
      await database.drop();
      throw error;
    } finally {
      await raw.destroy();
    }
    test = await startTestApp(kind, { database, now: () => clock, env: { TZ: 'UTC', PUBLIC_URL } });
  });
  afterAll(() => test?.close());

  const open = (method: 'GET' | 'POST', path: string) => test.app.inject({ method, url: path });

  it('keeps them working for their time as hashes, and stores no plain token', async () => {
    const stored = await test.snapshot();
    expect(stored).not.toContain(LEGACY.unconfirmed.token);
    expect(stored).not.toContain(LEGACY.confirmed.token);

    // A confirm link mailed 6 days ago works for one more day; a confirmed address's link only unsubscribes.
    expect((await open('GET', `/notify/confirm/${LEGACY.unconfirmed.token}`)).body).toContain(
      'Send Leftover&#39;s notifications to unconfirmed@example.com?',
    );
    expect((await open('GET', `/notify/confirm/${LEGACY.confirmed.token}`)).statusCode).toBe(404);
    clock = later(DAY);
    expect((await open('POST', `/notify/confirm/${LEGACY.unconfirmed.token}`)).statusCode).toBe(410);

    // The unsubscribe link works for a year from the last mail that carried it.
    clock = later(365 * DAY - 2 * DAY - MINUTE);
    const unsubscribed = await open('POST', `/notify/unsubscribe/${LEGACY.confirmed.token}`);
    expect(unsubscribed.statusCode).toBe(200);
    expect(unsubscribed.body).toContain('Leftover sends nothing more to confirmed@example.com.');
    clock = later(365 * DAY - 6 * DAY);
    expect((await open('GET', `/notify/unsubscribe/${LEGACY.unconfirmed.token}`)).statusCode).toBe(410);
  });
});
