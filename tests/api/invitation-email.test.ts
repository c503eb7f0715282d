/**
 * An invitation mailed (issue 38 point 3, decision 0105), against a real SMTP server on loopback
 * (smtp-server, read by mailparser), on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: the mail
 * names the budget, the inviter and the role and carries the link, and nothing else of the budget;
 * only an owner sends, only a pending invitation of that budget with its own token; and no mail to
 * strangers (issue 34): the address shares the confirmation mail's one an hour and 3 a day across
 * all users, one that used a one-click unsubscribe is refused, and one person mails at most 10 a day.
 */
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATIONS_PATHS } from '../../src/contract/notifications.js';
import { expectBadRequest } from '../support/api-expectations.js';
import { memberCalls, person, type Person } from '../support/budget-members.js';
import { rawHeader, recipientsOf, type SmtpReceiver, startSmtpReceiver } from '../support/notify-receivers.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PUBLIC_URL = 'https://leftover.example.com';
const NOW = new Date('2026-11-29T10:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ASKED_FOR_QUIET = 'This address asked not to get mail from Leftover. Use another one.';

interface Made {
  readonly invitation: { readonly id: string };
  readonly token: string;
  readonly link: string;
  readonly emailOffered: boolean;
}

describe.each(databaseKinds())('invitations by email on %s', (kind) => {
  let smtp: SmtpReceiver;
  let test: TestApp;
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

  const { call, ok, refused } = memberCalls(() => test);
  const mailsTo = (address: string) => smtp.messages.filter((mail) => recipientsOf(mail).includes(address));

  async function household(owner: Person, name = 'Household'): Promise<string> {
    return (await ok<{ id: string }>(call(owner, 'POST', '/api/budgets', { body: { name } }))).id;
  }
  const invite = (owner: Person, budget: string, role = 'EDITOR') =>
    ok<Made>(call(owner, 'POST', `/api/budgets/${budget}/invitations`, { body: { role } }));
  const send = (who: Person, budget: string, made: Made, email: string, token = made.token) =>
    call(who, 'POST', `/api/budgets/${budget}/invitations/${made.invitation.id}/send`, { body: { email, token } });

  it('mails the budget, the inviter, the role and the link, nothing else of the budget, and notes it in the activity', async () => {
    const alex = person('alex', { name: 'Alex' });
    const id = await household(alex);
    // Data of the budget the mail must not carry.
    await ok(call(alex, 'POST', '/api/accounts', { body: { name: 'Joint-5e2b', kind: 'CHECKING' }, budget: id }));
    const made = await invite(alex, id);
    expect(made.emailOffered).toBe(true);

    expect(await ok(send(alex, id, made, ' Sam@Example.com '))).toEqual({ sentTo: 'Sam@Example.com' });
    const [mail] = await smtp.waitFor(1, 'sam@example.com');
    expect(mail?.subject).toBe('Alex invited you to Household on Leftover');
    expect(mail?.from?.value[0]?.address).toBe('leftover@example.com');
    expect(mail?.text).toBe(
      'Alex invited you to join Household on Leftover as an editor.\n\n' +
        `Open the invitation: ${PUBLIC_URL}/join#${made.token}\n\n` +
        "The link works once, until Sun, Dec 6, 2026. It shows the budget's name, who invited you and the role before you choose to join.\n\n" +
        'You get this because Alex asked Leftover to send it to this address. If you do not know them, ignore this mail: nothing more will be sent.\n',
    );
    expect(mail?.html).toContain(`<a href="${PUBLIC_URL}/join#${made.token}">Open the invitation</a>`);
    for (const secret of ['Joint-5e2b', id]) {
      expect(mail?.text).not.toContain(secret);
      expect(String(mail?.html)).not.toContain(secret);
    }
    // Not a channel's message: no unsubscribe link to a channel there is not.
    expect(rawHeader(mail as ParsedMail, 'List-Unsubscribe')).toBeUndefined();
    expect(rawHeader(mail as ParsedMail, 'Auto-Submitted')).toBe('auto-generated');

    // The mailed link opens the invitation.
    const sam = person('sam', { name: 'Sam' });
    expect(await ok(call(sam, 'POST', '/api/invitations/view', { body: { token: made.token } }))).toMatchObject({
      budget: { name: 'Household' },
      invitedBy: 'Alex',
      role: 'EDITOR',
    });
    const activity = await ok<{ entries: { text: string }[] }>(call(alex, 'GET', `/api/budgets/${id}/activity`));
    // Never the address: the budget's members see its activity, and the address is a stranger's.
    expect(activity.entries.map((entry) => entry.text).slice(0, 2)).toEqual([
      'Alex emailed an invitation to join as an editor',
      'Alex invited someone as an editor',
    ]);
  });

  it('refuses a bad address, a non-owner, an invitation of another budget or with another token, and one no longer pending', async () => {
    const alex = person('alex', { name: 'Alex' });
    const sam = person('sam', { name: 'Sam' });
    const id = await household(alex);
    const other = await household(alex, 'Cabin');
    const made = await invite(alex, id);
    await ok(call(sam, 'POST', '/api/invitations/accept', { body: { token: (await invite(alex, id)).token } }));

    expectBadRequest(await send(alex, id, made, 'not an address'), { email: 'Email must be an email address, like sam@example.com.' });
    expectBadRequest(await send(alex, id, made, 'sam@example.com', 'short'), { token: 'Token must be the token of an invitation.' });
    refused(await send(sam, id, made, 'pat@example.com'), 403);
    refused(await send(alex, other, made, 'pat@example.com'), 404, 'No such invitation.');
    refused(await send(alex, id, made, 'pat@example.com', 'C'.repeat(32)), 404, 'No such invitation.');

    const revoked = await invite(alex, id, 'VIEWER');
    await ok(call(alex, 'DELETE', `/api/budgets/${id}/invitations/${revoked.invitation.id}`));
    refused(await send(alex, id, revoked, 'pat@example.com'), 410, 'This invitation was revoked: create a new one to send.');
    const used = await invite(alex, id, 'VIEWER');
    await ok(call(person('kim'), 'POST', '/api/invitations/decline', { body: { token: used.token } }));
    refused(await send(alex, id, used, 'pat@example.com'), 410, 'This invitation has already been used: create a new one to send.');
    clock = new Date(NOW.getTime() + 7 * DAY);
    refused(await send(alex, id, made, 'pat@example.com'), 410, 'This invitation has expired: create a new one to send.');
    expect(mailsTo('pat@example.com')).toHaveLength(0);

    // The operator's mail server said no: nothing is said to have been sent.
    clock = NOW;
    const refusedByServer = await send(alex, id, made, 'refuse-me@example.com');
    expect(refusedByServer.statusCode, refusedByServer.body).toBe(409);
    expect(refusedByServer.json<{ error: { message: string } }>().error.message).toMatch(/^Not sent: The mail server refused it: 550/);
  });

  it('sends an address at most one mail an hour and 3 a day across all users, counted with its confirmation mails', async () => {
    const alex = person('alex', { name: 'Alex' });
    const bo = person('bo', { name: 'Bo' });
    const alexes = await household(alex);
    const bos = await household(bo);
    const address = 'lee@example.com';

    await ok(send(alex, alexes, await invite(alex, alexes), address));
    // Another user, the same mailbox spelt another way, minutes later: refused, with when to try again.
    clock = new Date(NOW.getTime() + 15 * MINUTE);
    const again = await send(bo, bos, await invite(bo, bos), 'Lee+household@example.com');
    refused(
      again,
      429,
      'This address was sent mail from Leftover lately: an address gets at most one an hour and 3 a day. Try again in 45 minutes.',
    );
    expect(again.headers['retry-after']).toBe(String(45 * 60));

    // An address added as a channel takes from the same count: its confirmation is the second mail of the day.
    clock = new Date(NOW.getTime() + HOUR);
    await ok(call(bo, 'POST', NOTIFICATIONS_PATHS.channels, { body: { kind: 'EMAIL', target: address } }));
    clock = new Date(NOW.getTime() + 2 * HOUR);
    await ok(send(bo, bos, await invite(bo, bos), address));
    clock = new Date(NOW.getTime() + 3 * HOUR);
    const fourth = await send(alex, alexes, await invite(alex, alexes), address);
    refused(
      fourth,
      429,
      'This address was sent mail from Leftover lately: an address gets at most one an hour and 3 a day. Try again in 21 hours.',
    );
    clock = new Date(NOW.getTime() + DAY);
    await ok(send(alex, alexes, await invite(alex, alexes), address));
    await smtp.waitFor(4, address);
    expect(mailsTo(address)).toHaveLength(4);
  });

  it('lets one person mail at most 10 invitations a day, whatever budgets they make and delete', async () => {
    const alex = person('alex', { name: 'Alex' });
    const first = await household(alex);
    for (const n of [1, 2, 3, 4, 5]) await ok(send(alex, first, await invite(alex, first), `inv-${n}@example.com`));
    await ok(call(alex, 'DELETE', `/api/budgets/${first}`, { body: { confirm: 'Household' } }));

    const second = await household(alex);
    // An address past its own limit is sent nothing, and the sender keeps that mail for another address.
    const again = await invite(alex, second);
    refused(await send(alex, second, again, 'inv-1@example.com'), 429);
    await ok(send(alex, second, again, 'inv-6@example.com'));
    for (const n of [7, 8, 9, 10]) await ok(send(alex, second, await invite(alex, second), `inv-${n}@example.com`));

    const third = await household(alex, 'Cabin');
    const eleventh = await invite(alex, third);
    const refusal = await send(alex, third, eleventh, 'inv-11@example.com');
    refused(
      refusal,
      429,
      'You have mailed 10 invitations in the last 24 hours, the most a day: copy the link instead, or send it in 24 hours.',
    );
    expect(refusal.headers['retry-after']).toBe(String(24 * 60 * 60));
    expect(mailsTo('inv-11@example.com')).toHaveLength(0);
    clock = new Date(NOW.getTime() + DAY);
    await ok(send(alex, third, eleventh, 'inv-11@example.com'));
    await smtp.waitFor(1, 'inv-11@example.com');
  });

  it('refuses an address that used a one-click unsubscribe, whoever sends', async () => {
    const alex = person('alex', { name: 'Alex' });
    const pat = person('pat', { name: 'Pat' });
    const address = 'quiet-one@example.com';
    await ok(call(pat, 'POST', NOTIFICATIONS_PATHS.channels, { body: { kind: 'EMAIL', target: address } }));
    const [confirmation] = await smtp.waitFor(1, address);
    const unsubscribe = (rawHeader(confirmation as ParsedMail, 'List-Unsubscribe') ?? '').slice(1, -1);
    const oneClick = await test.app.inject({
      method: 'POST',
      url: unsubscribe.slice(PUBLIC_URL.length),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);

    const id = await household(alex);
    clock = new Date(NOW.getTime() + 2 * HOUR);
    expectBadRequest(await send(alex, id, await invite(alex, id), 'Quiet-One@example.com'), { email: ASKED_FOR_QUIET }, ASKED_FOR_QUIET);
    expect(mailsTo(address)).toHaveLength(1);
  });
});
