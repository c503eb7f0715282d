/**
 * What an email address may be sent before it is confirmed (issue 34, decision 0069), counted per
 * mailbox across all users and all server processes, in the notification_addresses table: at most
 * one confirmation mail an hour and 3 in any 24 hours, and none for 30 days after the address used
 * a one-click unsubscribe (nor may anyone add it then). A row is keyed by the SHA-256 of the
 * normalised address, so the table holds no address.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database, OpenDatabase } from '../db/database.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** How long an address that unsubscribed with one click is left alone. */
const QUIET_DAYS = 30;

/**
 * One key per mailbox: case does not matter, nor a "+tag" after the local part (Gmail, Outlook,
 * Fastmail and most others deliver it to the same mailbox), nor dots in a Gmail address; otherwise
 * the limits could be dodged by spelling one stranger's address many ways.
 */
export function addressKey(address: string): string {
  const lowered = address.trim().toLowerCase();
  const at = lowered.lastIndexOf('@');
  let local = lowered.slice(0, at);
  let domain = lowered.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'gmail.com' || domain === 'googlemail.com') {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return createHash('sha256').update(`${local}@${domain}`).digest('hex');
}

/** Until when an address is left alone after a one-click unsubscribe; undefined when it is not (or no longer). */
export async function quietUntil(db: Database, address: string, now: Date): Promise<string | undefined> {
  const row = await db
    .selectFrom('notification_addresses')
    .select('quiet_until')
    .where('address_key', '=', addressKey(address))
    .executeTakeFirst();
  const until = row?.quiet_until ?? null;
  return until !== null && until > now.toISOString() ? until : undefined;
}

/** The address used a one-click unsubscribe: no confirmation mail to it, whoever adds it, for 30 days. */
export async function startQuietPeriod(db: Database, address: string, now: Date): Promise<void> {
  const until = new Date(now.getTime() + QUIET_DAYS * DAY_MS).toISOString();
  await db
    .insertInto('notification_addresses')
    .values({ address_key: addressKey(address), confirm_sent_1: null, confirm_sent_2: null, confirm_sent_3: null, quiet_until: until })
    .onConflict((conflict) => conflict.column('address_key').doUpdateSet({ quiet_until: until }))
    .execute();
}

/** An address in its 30 days of quiet after a one-click unsubscribe, whoever adds it or sends to it (issue 34's words). */
export const ASKED_FOR_QUIET = 'This address asked not to get mail from Leftover. Use another one.';

/** How long until a mail may go again, in the unit a person would say it in. */
export function waitInWords(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 120) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}

export type ConfirmationSlot = { readonly allowed: true } | { readonly allowed: false; readonly quiet: boolean; readonly waitMs: number };

/**
 * Takes one of the address's confirmation mails if its limits allow one now, before the mail is
 * sent (a mail that then fails still counts: it may have arrived). On PostgreSQL an advisory lock
 * on the address makes processes take turns; SQLite runs one transaction at a time.
 */
export async function reserveConfirmation(database: OpenDatabase, address: string, now: Date): Promise<ConfirmationSlot> {
  const key = addressKey(address);
  return database.db.transaction().execute(async (trx) => {
    if (database.kind === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtextextended(${`leftover-address ${key}`}, 0))`.execute(trx);
    const row = await trx.selectFrom('notification_addresses').selectAll().where('address_key', '=', key).executeTakeFirst();
    const at = now.getTime();
    if (row?.quiet_until && row.quiet_until > now.toISOString()) {
      return { allowed: false, quiet: true, waitMs: Date.parse(row.quiet_until) - at };
    }
    const last = row?.confirm_sent_1 ?? null;
    const thirdLast = row?.confirm_sent_3 ?? null;
    const waitMs = Math.max(
      0,
      last === null ? 0 : Date.parse(last) + HOUR_MS - at,
      thirdLast === null ? 0 : Date.parse(thirdLast) + DAY_MS - at,
    );
    if (waitMs > 0) return { allowed: false, quiet: false, waitMs };
    const sent = { confirm_sent_1: now.toISOString(), confirm_sent_2: last, confirm_sent_3: row?.confirm_sent_2 ?? null };
    await trx
      .insertInto('notification_addresses')
      .values({ address_key: key, ...sent, quiet_until: row?.quiet_until ?? null })
      .onConflict((conflict) => conflict.column('address_key').doUpdateSet(sent))
      .execute();
    return { allowed: true };
  });
}
