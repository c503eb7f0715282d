/**
 * The SimpleFIN v2 protocol's two calls (issue 37, decision 0079): claim a Setup Token for its
 * Access URL, and read `/accounts` into the bridge's accounts and transactions (BridgeAccount) the
 * sync plan works on. Plain node:http with Basic auth, as ENGINEERING.md has it (no client package):
 * node:http rather than fetch because the socket must connect through the outbound allow-list's
 * pinned lookup (decision 0067), the address checked being the address connected to.
 *
 * Every exchange has a whole-exchange timeout (30 s), a size cap counted while the answer streams
 * in (10 MB), follows no redirect and reads JSON only. Nothing here throws for anything the network
 * or the bridge does: each failure is a typed outcome with a reason a user can read, the bridge's
 * own words kept as plain text (whoever shows them escapes them). The Access URL and its password
 * are in no reason, warning or thrown error: they are taken off the URL before any request is made,
 * and redacted from anything the bridge says.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import secureJson from 'secure-json-parse';
import { z } from 'zod';
import { type BridgeAccount, type BridgeTransaction, decimalCents } from '../../domain/bank-sync/bridge.js';
import type { IsoDate } from '../../domain/calendar-date.js';
import { dateRangeWindows, type TimeWindow } from '../../domain/date-windows.js';
import { todayInZone } from '../../domain/time-zones.js';
import { checkOutboundHost, isAllowedAddress, type OutboundRules, pinnedLookup, RefusedAddressError } from '../http/outbound-address.js';
import { hostOf } from '../notifications/address-guard.js';

/** The protocol's limits as the bridge keeps them, and ours (issue 37). */
const BRIDGE_TIMEOUT_MS = 30_000;
const BRIDGE_MAX_BYTES = 10 * 1024 * 1024;
/** The bridge caps a request at 90 days of `end-date - start-date` and says so in `errlist`. */
const BRIDGE_WINDOW_DAYS = 90;
/** A claim answers one URL: a few hundred bytes. */
const CLAIM_MAX_BYTES = 4096;
/** How much of one thing the bridge says is kept for a user to read. */
const BRIDGE_TEXT_LENGTH = 300;

export type BridgeFailureKind =
  /** The pasted text is not base64 of a URL. */
  | 'not-a-token'
  /** A plain-http address, where private addresses are not allowed (only loopback tests and home set-ups use http). */
  | 'insecure-address'
  /** A private, local or own address, refused by the outbound allow-list. */
  | 'refused-address'
  | 'not-found'
  | 'unreachable'
  | 'too-slow'
  | 'too-big'
  | 'redirect'
  /** An answer that is not JSON: an HTML error page, most often. */
  | 'not-json'
  | 'invalid-json'
  /** JSON, but not an account set (or, for a claim, not an Access URL). */
  | 'bad-answer'
  | 'http-error'
  /** A claim answered 403: the token was used before, perhaps by someone else. */
  | 'already-claimed'
  | 'payment-required'
  /** `/accounts` answered 403: access revoked or disabled (too many requests, for one). */
  | 'revoked'
  /** `con.auth`: the bank wants the user to sign in again at the bridge. */
  | 'bank-login'
  /** A `gen.auth` error entry: the bridge refused the request whole. */
  | 'bridge-error';

export interface BridgeFailure {
  readonly kind: BridgeFailureKind;
  /** For the user, in plain text: the bridge's words in it are not escaped. Never holds the Access URL. */
  readonly reason: string;
  /** Scheduled requests stop until the user reconnects: 402 and 403 (asking again would not help, and counts). */
  readonly stopSchedule: boolean;
}

/** Where the bridge may be reached and how long and how much an answer may be (tests shorten them). */
export interface BridgeOptions extends OutboundRules {
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  /**
   * Reads one answer of `/accounts` (decoding, parsing and checking up to 10 MB of the bridge's
   * JSON): `readAccountsAnswer` in this thread unless the server hands a thread of its own
   * (bank-sync-runner.ts, decision 0098), so a large answer never stalls other users' requests.
   */
  readonly readAnswer?: AccountsAnswerReader;
}

/** What reading one answer of `/accounts` needs: its type and bytes, what was asked, and what to keep out of every text. */
export interface AccountsAnswer {
  readonly contentType: string;
  readonly body: Uint8Array;
  readonly request: AccountsRequest;
  readonly secrets: readonly string[];
}

export type AccountsAnswerReader = (answer: AccountsAnswer) => Promise<ReadAnswer | BridgeFailure>;

export type ClaimOutcome = { readonly ok: true; readonly accessUrl: string } | { readonly ok: false; readonly failure: BridgeFailure };

export interface AccountsRequest {
  /** The first day wanted (`start-date`), in `timeZone`; with `end`, or neither (the bridge's own default). */
  readonly start?: IsoDate;
  /** The first day not wanted (`end-date`, exclusive). A range longer than 90 days is asked in 90-day windows. */
  readonly end?: IsoDate;
  /** The user's IANA zone: the days above start at its midnight, and the bridge's timestamps become its dates. */
  readonly timeZone: string;
  /** Ask for pending transactions too (`pending=1`). */
  readonly pending?: boolean;
  /** Only these accounts (`account`, repeated); every account when absent. */
  readonly accountIds?: readonly string[];
  /** Balances without transactions (`balances-only=1`). */
  readonly balancesOnly?: boolean;
}

/** An account the answer did not give whole, left out of `accounts` so nothing of it is half-written. */
export interface SkippedAccount {
  readonly id: string;
  /** Its name when the bridge listed it, else empty. */
  readonly name: string;
  readonly code: 'act.failed' | 'act.missingdata' | 'act.' | 'con.auth' | 'unreadable';
  readonly reason: string;
}

export type AccountsOutcome =
  | {
      readonly ok: true;
      readonly accounts: readonly BridgeAccount[];
      readonly skipped: readonly SkippedAccount[];
      /** What the bridge warned of (quota, a capped range, a transaction refused), in plain text, each once. */
      readonly warnings: readonly string[];
      /** A bank of the connection wants its user to sign in again (`con.auth`): its accounts are skipped. */
      readonly attention: BridgeFailure | null;
      /** HTTP requests made: one per 90-day window, each counted against the bridge's daily quota. */
      readonly requests: number;
    }
  | { readonly ok: false; readonly failure: BridgeFailure; readonly requests: number };

function failure(kind: BridgeFailureKind, reason: string, stopSchedule = false): BridgeFailure {
  return { kind, reason, stopSchedule };
}

const ALREADY_CLAIMED =
  'This Setup Token was already used. If you did not use it, someone else may have: make a new one at your bridge and disconnect the old one.';
export const NOT_A_TOKEN =
  'This is not a SimpleFIN Setup Token: paste the whole token your bridge showed you, a long line of letters and digits.';
export const REFUSED_ADDRESS =
  "The bridge's address is on a private or local network, or is this server's own, which Leftover does not connect to (the operator can allow it with NOTIFY_ALLOW_PRIVATE_URLS=true).";
export const INSECURE_ADDRESS = "The bridge's address is not https: Leftover sends bank access over https only.";

/** Text the bridge sent, as a user may read it: one line, control characters out, the secret redacted, cut short. */
function bridgeText(text: string, secrets: readonly string[]): string {
  let line = text.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ');
  for (const secret of secrets) if (secret.length >= 4) line = line.split(secret).join('[hidden]');
  line = line.replace(/\s+/g, ' ').trim();
  return line.length > BRIDGE_TEXT_LENGTH ? `${line.slice(0, BRIDGE_TEXT_LENGTH - 1)}…` : line;
}

/** The Access URL's credentials and where it points, apart: the credentials go in a header, never in a URL that is passed on. */
interface BridgeAddress {
  /** The root without credentials or query: https://bridge.example/simplefin */
  readonly root: URL;
  readonly authorization: string;
  /** The credentials as they may appear in text, raw and percent-encoded, to redact them. */
  readonly secrets: readonly string[];
}

function isAllowedScheme(url: URL, options: BridgeOptions): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && options.allowPrivate);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The Access URL read apart, or why not. Its text is in no reason. */
function bridgeAddressOf(accessUrl: string, options: BridgeOptions): BridgeAddress | BridgeFailure {
  const notAccessUrl = failure(
    'bad-answer',
    'The stored bank access is not a SimpleFIN Access URL: reconnect with a new Setup Token.',
    true,
  );
  if (!URL.canParse(accessUrl)) return notAccessUrl;
  const url = new URL(accessUrl);
  if (url.username === '' || url.password === '' || url.search !== '' || url.hash !== '') return notAccessUrl;
  if (!isAllowedScheme(url, options)) return failure('insecure-address', INSECURE_ADDRESS, true);
  const user = safeDecode(url.username);
  const password = safeDecode(url.password);
  const root = new URL(url.href);
  root.username = '';
  root.password = '';
  return {
    root,
    authorization: `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`,
    secrets: [...new Set([password, url.password, user, url.username])],
  };
}

type Answer = { readonly status: number; readonly contentType: string; readonly body: Buffer };

interface ExchangeSettings {
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

function networkFailure(error: unknown): BridgeFailure {
  if (error instanceof RefusedAddressError) return failure('refused-address', REFUSED_ADDRESS, true);
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return failure('not-found', "Leftover could not find the bridge's server.");
  if (/CERT|SELF_SIGNED|TLS|SSL/.test(code)) {
    return failure('unreachable', "The bridge's https certificate could not be verified, so Leftover did not send it anything.");
  }
  // Only a known code, never the error's message: a message may quote the address it was opening.
  return failure('unreachable', `Leftover could not reach the bridge${/^[A-Z0-9_]{2,40}$/.test(code) ? ` (${code})` : ''}.`);
}

function megabytes(bytes: number): string {
  const value = bytes / (1024 * 1024);
  return value >= 1 ? `${Math.round(value * 10) / 10} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * One request and its whole answer, within the time and size given; a redirect is an answer like
 * any other (its body unread). Never rejects.
 */
function exchange(target: URL, settings: ExchangeSettings, options: BridgeOptions): Promise<Answer | BridgeFailure> {
  const host = hostOf(target);
  // An address literal is connected to without a lookup: checked here, before any socket opens.
  if (net.isIP(host) !== 0 && !isAllowedAddress(host, options)) return Promise.resolve(failure('refused-address', REFUSED_ADDRESS, true));
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: Answer | BridgeFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const tooBig = failure(
      'too-big',
      `The bridge's answer was larger than ${megabytes(settings.maxBytes)}, more than Leftover reads at once.`,
    );
    const request = client.request(
      target,
      {
        method: settings.method,
        headers: { ...settings.headers, 'user-agent': 'Leftover', accept: 'application/json' },
        lookup: pinnedLookup(options, REFUSED_ADDRESS),
        // No pooling: each request checks its own address.
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const contentType = String(response.headers['content-type'] ?? '').toLowerCase();
        if (status >= 300 && status < 400) {
          settle({ status, contentType, body: Buffer.alloc(0) });
          response.destroy();
          return;
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > settings.maxBytes) {
          settle(tooBig);
          response.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > settings.maxBytes) {
            settle(tooBig);
            response.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => settle({ status, contentType, body: Buffer.concat(chunks) }));
        response.on('error', (error) => settle(networkFailure(error)));
        response.on('close', () => settle(failure('unreachable', 'The bridge closed the connection before its answer was whole.')));
      },
    );
    const timer = setTimeout(() => {
      settle(failure('too-slow', `The bridge did not answer within ${Math.round(settings.timeoutMs / 100) / 10} seconds.`));
      request.destroy();
    }, settings.timeoutMs);
    timer.unref();
    request.on('error', (error) => settle(networkFailure(error)));
    request.end();
  });
}

function isFailure<T extends object>(value: T | BridgeFailure): value is BridgeFailure {
  return 'kind' in value && 'stopSchedule' in value;
}

const HTML = /^\s*(<!doctype|<html|<head|<body)/i;

/** The failure an answer that is not what was asked for stands for, or null for a 2xx. */
function statusFailure(answer: Answer, during: 'claim' | 'accounts'): BridgeFailure | null {
  const { status } = answer;
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) {
    return failure(
      'redirect',
      `The bridge answered ${status}, a redirect, which Leftover does not follow. Check the connection at your bridge.`,
    );
  }
  if (during === 'claim' && status === 403) return failure('already-claimed', ALREADY_CLAIMED, true);
  if (during === 'accounts' && status === 402) {
    return failure(
      'payment-required',
      'The bridge says payment is required (402): renew your SimpleFIN Bridge subscription, then reconnect.',
      true,
    );
  }
  if (during === 'accounts' && status === 403) {
    return failure(
      'revoked',
      'The bridge refused this connection (403): its access was revoked or disabled, perhaps after too many requests. Make a new Setup Token at your bridge and reconnect.',
      true,
    );
  }
  if (answer.contentType.includes('html') || HTML.test(answer.body.subarray(0, 512).toString('latin1'))) {
    return failure('not-json', `The bridge answered ${status} with a web page instead of data; it may be down for a while.`);
  }
  return failure('http-error', `The bridge answered ${status}.`);
}

/** Base64 (standard or URL-safe, line breaks and spaces from a paste ignored) of a URL, or undefined. */
function claimUrlOf(setupToken: string): URL | undefined {
  const compact = setupToken.replace(/\s+/g, '');
  if (compact === '' || compact.length > 4096 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) return undefined;
  // Trimmed: a token made with `echo <url> | base64` holds the line's end too.
  const text = Buffer.from(compact.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8').trim();
  if (!/^https?:\/\/[\x21-\x7e]+$/.test(text) || !URL.canParse(text)) return undefined;
  return new URL(text);
}

/** A host checked by the allow-list before anything is sent to it. */
async function hostFailure(url: URL, options: BridgeOptions): Promise<BridgeFailure | null> {
  const check = await checkOutboundHost(hostOf(url), options);
  if (check.ok) return null;
  return check.problem === 'refused'
    ? failure('refused-address', REFUSED_ADDRESS, true)
    : failure('not-found', "Leftover could not find the bridge's server.");
}

/**
 * Claims a Setup Token: one POST to the URL it holds, answered with the Access URL. A second claim
 * of the same token answers 403 at the bridge ('already-claimed', with the warning the protocol
 * asks for). The claim URL and the Access URL it answers both pass the outbound allow-list.
 */
export async function claim(setupToken: string, options: BridgeOptions): Promise<ClaimOutcome> {
  const claimUrl = claimUrlOf(setupToken);
  if (!claimUrl || claimUrl.username !== '' || claimUrl.password !== '') return { ok: false, failure: failure('not-a-token', NOT_A_TOKEN) };
  if (!isAllowedScheme(claimUrl, options)) return { ok: false, failure: failure('insecure-address', INSECURE_ADDRESS) };
  const refused = await hostFailure(claimUrl, options);
  if (refused) return { ok: false, failure: refused };
  const answer = await exchange(
    claimUrl,
    {
      method: 'POST',
      headers: { 'content-length': '0' },
      maxBytes: Math.min(options.maxBytes ?? CLAIM_MAX_BYTES, CLAIM_MAX_BYTES),
      timeoutMs: options.timeoutMs ?? BRIDGE_TIMEOUT_MS,
    },
    options,
  );
  if (isFailure(answer)) return { ok: false, failure: answer };
  const refusedAnswer = statusFailure(answer, 'claim');
  if (refusedAnswer) return { ok: false, failure: refusedAnswer };
  const accessUrl = answer.body.toString('utf8').trim();
  const address = bridgeAddressOf(accessUrl, options);
  if (isFailure(address)) {
    const reason =
      address.kind === 'insecure-address'
        ? INSECURE_ADDRESS
        : "The bridge's answer to the claim was not an Access URL; make a new Setup Token and try again.";
    return { ok: false, failure: failure(address.kind === 'insecure-address' ? 'insecure-address' : 'bad-answer', reason) };
  }
  const refusedAccess = await hostFailure(address.root, options);
  if (refusedAccess) return { ok: false, failure: refusedAccess };
  return { ok: true, accessUrl };
}

// --- The account set (protocol-v2 "Account Set"), read leniently: one bad part is left out with a warning.

/** Unix seconds; a fraction (some servers send one) is cut off. */
const unixSeconds = z
  .number()
  .finite()
  .min(0)
  .max(253_402_300_799)
  .transform((value) => Math.floor(value));
const idText = z.string().min(1).max(255);

const accountSetSchema = z.object({
  errlist: z.array(z.unknown()).optional(),
  /** Deprecated strings for users; the Bridge still puts its quota warnings here. */
  errors: z.array(z.unknown()).optional(),
  'x-api-message': z.array(z.unknown()).optional(),
  connections: z.array(z.unknown()).optional(),
  accounts: z.array(z.unknown()),
});

const errorEntrySchema = z.object({
  code: z.string().max(100),
  msg: z.string().optional(),
  // The protocol's quick start spells it `message`.
  message: z.string().optional(),
  conn_id: z.string().optional(),
  account_id: z.string().optional(),
});

const connectionSchema = z.object({ conn_id: z.string(), name: z.string().optional(), org_name: z.string().optional() });

const accountSchema = z.object({
  id: idText,
  name: z.string().max(1000),
  conn_id: z.string().optional(),
  conn_name: z.string().optional(),
  /** Protocol v1's organization, which some servers still send. */
  org: z.object({ name: z.string().optional(), domain: z.string().optional() }).optional(),
  currency: z.string().min(1).max(500),
  balance: z.string().max(100),
  'balance-date': unixSeconds,
  transactions: z.array(z.unknown()).optional(),
});

const transactionSchema = z.object({
  id: idText,
  posted: unixSeconds,
  amount: z.string().max(100),
  description: z.string().max(10_000),
  transacted_at: unixSeconds.nullish(),
  pending: z.boolean().optional(),
});

/** From 1980 on, every zone's offset is a whole number of quarter hours and changes on a quarter hour. */
const QUARTER_HOURS_FROM = 315_532_800;
const QUARTER_HOUR = 900;

/**
 * Unix seconds as dates in one zone, remembered by quarter hour of UTC: a date cannot change inside
 * one (see above), and Intl's formatting was most of the time a large answer took to read (about
 * 9 µs a date: 45,000 transactions held the event loop for 0.8 s before this, 0.3 s after).
 */
function datesIn(timeZone: string): (seconds: number) => IsoDate {
  const known = new Map<number, IsoDate>();
  return (seconds) => {
    if (seconds < QUARTER_HOURS_FROM) return todayInZone(new Date(seconds * 1000), timeZone);
    const quarter = Math.floor(seconds / QUARTER_HOUR);
    let date = known.get(quarter);
    if (date === undefined) {
      date = todayInZone(new Date(quarter * QUARTER_HOUR * 1000), timeZone);
      known.set(quarter, date);
    }
    return date;
  };
}

/** One answer read: accounts whole, the ones to skip, and what to warn of. */
export interface ReadAnswer {
  readonly accounts: BridgeAccount[];
  readonly skipped: SkippedAccount[];
  readonly warnings: string[];
  readonly attention: BridgeFailure | null;
}

function readTransaction(
  raw: unknown,
  account: { readonly name: string; readonly balanceDate: number },
  dateOf: (seconds: number) => IsoDate,
  say: (text: string) => string,
): BridgeTransaction | string {
  const parsed = transactionSchema.safeParse(raw);
  if (!parsed.success) return `A transaction of ${say(account.name)} was left out: the bridge sent it incomplete.`;
  const { id, posted, amount: amountText, description, transacted_at: transactedAt, pending: pendingFlag } = parsed.data;
  const amount = decimalCents(amountText);
  if (amount === undefined) {
    return `A transaction of ${say(account.name)} (${say(description)}) was left out: its amount "${say(amountText)}" is not an amount Leftover reads.`;
  }
  const pending = pendingFlag === true || posted === 0;
  // A pending transaction without a date of its own is dated by the balance it was listed with.
  const happened =
    transactedAt !== null && transactedAt !== undefined && transactedAt > 0 ? transactedAt : posted > 0 ? posted : account.balanceDate;
  return {
    id,
    posted: pending ? null : dateOf(posted),
    transactedOn: dateOf(happened),
    amount,
    description,
    pending,
  };
}

function readAccountSet(json: unknown, request: AccountsRequest, secrets: readonly string[]): ReadAnswer | BridgeFailure {
  const set = accountSetSchema.safeParse(json);
  if (!set.success) return failure('bad-answer', "The bridge's answer did not list accounts as SimpleFIN does.");
  const say = (text: string) => bridgeText(text, secrets);
  const dateOf = datesIn(request.timeZone);
  const warnings: string[] = [];
  const skipped: SkippedAccount[] = [];
  const skippedIds = new Set<string>();
  const loginConnections = new Set<string>();
  let attention: BridgeFailure | null = null;

  for (const text of [...(set.data.errors ?? []), ...(set.data['x-api-message'] ?? [])]) {
    if (typeof text === 'string' && say(text) !== '') warnings.push(`The bridge says: ${say(text)}`);
  }
  const accountErrors: { id: string; code: SkippedAccount['code']; text: string }[] = [];
  for (const raw of set.data.errlist ?? []) {
    const entry = errorEntrySchema.safeParse(raw);
    if (!entry.success) continue;
    const { code, conn_id: connectionId, account_id: accountId } = entry.data;
    const text = say(entry.data.msg ?? entry.data.message ?? code);
    if (code === 'gen.auth') return failure('bridge-error', `The bridge refused the request: ${text}`);
    if (code === 'con.auth') {
      if (connectionId === undefined) return failure('bank-login', `Your bank wants you to sign in again at the bridge: ${text}`);
      loginConnections.add(connectionId);
      attention = failure('bank-login', `A bank of this connection wants you to sign in again at the bridge: ${text}`);
      continue;
    }
    if (code.startsWith('act.') && accountId !== undefined) {
      const known = code === 'act.failed' || code === 'act.missingdata' ? code : 'act.';
      accountErrors.push({ id: accountId, code: known, text });
      continue;
    }
    warnings.push(`The bridge says: ${text}`);
  }

  const institutions = new Map<string, string>();
  for (const raw of set.data.connections ?? []) {
    const connection = connectionSchema.safeParse(raw);
    if (connection.success) institutions.set(connection.data.conn_id, connection.data.org_name ?? connection.data.name ?? '');
  }

  const accounts: BridgeAccount[] = [];
  const names = new Map<string, string>();
  for (const raw of set.data.accounts) {
    const parsed = accountSchema.safeParse(raw);
    if (!parsed.success) {
      warnings.push('An account the bridge listed was left out: the bridge sent it incomplete.');
      continue;
    }
    const account = parsed.data;
    names.set(account.id, account.name);
    if (account.conn_id !== undefined && loginConnections.has(account.conn_id)) {
      skipped.push({ id: account.id, name: account.name, code: 'con.auth', reason: attention?.reason ?? '' });
      skippedIds.add(account.id);
      continue;
    }
    const balance = decimalCents(account.balance);
    if (balance === undefined) {
      skipped.push({
        id: account.id,
        name: account.name,
        code: 'unreadable',
        reason: `${say(account.name)} was left out: its balance "${say(account.balance)}" is not an amount Leftover reads.`,
      });
      skippedIds.add(account.id);
      continue;
    }
    const balanceDate = account['balance-date'];
    const transactions = new Map<string, BridgeTransaction>();
    if (!request.balancesOnly) {
      for (const rawTransaction of account.transactions ?? []) {
        const transaction = readTransaction(rawTransaction, { name: account.name, balanceDate }, dateOf, say);
        if (typeof transaction === 'string') warnings.push(transaction);
        // An id listed twice is one transaction: the later listing is the newer word on it.
        else transactions.set(transaction.id, transaction);
      }
    }
    accounts.push({
      id: account.id,
      institution:
        account.conn_id === undefined
          ? (account.org?.name ?? account.conn_name ?? '')
          : (institutions.get(account.conn_id) ?? account.conn_name ?? ''),
      name: account.name,
      currency: account.currency,
      balance,
      balanceDate: dateOf(balanceDate),
      transactions: [...transactions.values()],
    });
  }

  for (const { id, code, text } of accountErrors) {
    if (skippedIds.has(id)) continue;
    const name = names.get(id) ?? '';
    const which = name === '' ? 'An account' : say(name);
    const reason =
      code === 'act.missingdata'
        ? `${which} was not synced: the bridge's list of its transactions was incomplete (${text}).`
        : `${which} was not synced: the bridge could not get it (${text}).`;
    skipped.push({ id, name, code, reason });
    skippedIds.add(id);
  }
  // The Bridge says its quota warning twice (errlist and errors): once is enough.
  return { accounts: accounts.filter((account) => !skippedIds.has(account.id)), skipped, warnings: [...new Set(warnings)], attention };
}

/** One answer of `/accounts` read: its JSON parsed and every account and transaction checked. */
export function readAccountsAnswer(answer: AccountsAnswer): ReadAnswer | BridgeFailure {
  const json = readJson(answer);
  if (isFailure(json)) return json;
  return readAccountSet(json.json, answer.request, answer.secrets);
}

function readJson(answer: Pick<Answer, 'contentType'> & { readonly body: Uint8Array }): { readonly json: unknown } | BridgeFailure {
  // A view, not a copy: the bytes may have crossed a thread as a plain Uint8Array.
  const start = Buffer.from(answer.body.buffer, answer.body.byteOffset, Math.min(512, answer.body.byteLength));
  const html = answer.contentType.includes('html') || HTML.test(start.toString('latin1'));
  if (html || (answer.contentType !== '' && !/[/+]json\b/.test(answer.contentType))) {
    return failure(
      'not-json',
      html
        ? 'The bridge answered with a web page instead of data; it may be down for a while.'
        : 'The bridge answered with something other than data.',
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(answer.body);
  } catch {
    return failure('invalid-json', "The bridge's answer was not readable data.");
  }
  try {
    return { json: secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }) as unknown };
  } catch {
    return failure('invalid-json', "The bridge's answer was not readable data (broken JSON).");
  }
}

function queryOf(request: AccountsRequest, window: TimeWindow | null): URLSearchParams {
  // The Bridge answers protocol v1 (no errlist) unless a request asks for version 2.
  const query = new URLSearchParams({ version: '2' });
  if (window) {
    query.set('start-date', String(window.start));
    query.set('end-date', String(window.end));
  }
  if (request.pending) query.set('pending', '1');
  for (const id of request.accountIds ?? []) query.append('account', id);
  if (request.balancesOnly) query.set('balances-only', '1');
  return query;
}

async function readInThisThread(answer: AccountsAnswer): Promise<ReadAnswer | BridgeFailure> {
  return readAccountsAnswer(answer);
}

/** Answers of several windows as one: an account skipped in any window is skipped in all. */
function merge(answers: readonly ReadAnswer[]): ReadAnswer {
  if (answers.length === 1 && answers[0]) return answers[0];
  const skipped = new Map<string, SkippedAccount>();
  for (const answer of answers) for (const account of answer.skipped) if (!skipped.has(account.id)) skipped.set(account.id, account);
  const accounts = new Map<string, BridgeAccount>();
  for (const answer of answers) {
    for (const account of answer.accounts) {
      if (skipped.has(account.id)) continue;
      const before = accounts.get(account.id);
      const transactions = new Map((before?.transactions ?? []).map((transaction) => [transaction.id, transaction]));
      for (const transaction of account.transactions) transactions.set(transaction.id, transaction);
      // The later window's account is the newer word on its name and balance.
      accounts.set(account.id, { ...account, transactions: [...transactions.values()] });
    }
  }
  return {
    accounts: [...accounts.values()],
    skipped: [...skipped.values()],
    warnings: [...new Set(answers.flatMap((answer) => answer.warnings))],
    attention: answers.find((answer) => answer.attention !== null)?.attention ?? null,
  };
}

/**
 * Reads the bridge's accounts: one GET of `{access}/accounts` per window of at most 90 days, oldest
 * first. Any window that fails fails the whole (nothing is half-read) and no later window is asked;
 * `requests` counts what was asked either way. An `act.failed` or `act.missingdata` account is
 * skipped alone; a transaction that cannot be read is left out with a warning.
 */
export async function fetchAccounts(accessUrl: string, request: AccountsRequest, options: BridgeOptions): Promise<AccountsOutcome> {
  if ((request.start === undefined) !== (request.end === undefined)) throw new RangeError('give both start and end, or neither');
  const address = bridgeAddressOf(accessUrl, options);
  if (isFailure(address)) return { ok: false, failure: address, requests: 0 };
  const windows: (TimeWindow | null)[] =
    request.start !== undefined && request.end !== undefined
      ? dateRangeWindows(request.start, request.end, request.timeZone, BRIDGE_WINDOW_DAYS)
      : [null];
  if (windows.length === 0) throw new RangeError('end must be after start');

  const answers: ReadAnswer[] = [];
  let requests = 0;
  for (const window of windows) {
    const target = new URL(address.root);
    target.pathname = `${address.root.pathname.replace(/\/+$/, '')}/accounts`;
    target.search = queryOf(request, window).toString();
    requests += 1;
    const answer = await exchange(
      target,
      {
        method: 'GET',
        headers: { authorization: address.authorization },
        maxBytes: options.maxBytes ?? BRIDGE_MAX_BYTES,
        timeoutMs: options.timeoutMs ?? BRIDGE_TIMEOUT_MS,
      },
      options,
    );
    if (isFailure(answer)) return { ok: false, failure: answer, requests };
    const refused = statusFailure(answer, 'accounts');
    if (refused) return { ok: false, failure: refused, requests };
    const read = await (options.readAnswer ?? readInThisThread)({
      contentType: answer.contentType,
      body: answer.body,
      request,
      secrets: address.secrets,
    });
    if (isFailure(read)) return { ok: false, failure: read, requests };
    answers.push(read);
  }
  return { ok: true, ...merge(answers), requests };
}
