/**
 * Configuration from the environment, checked once at start. A bad value stops the server with
 * a message that names the variable.
 */
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { ianaTimeZone, processTimeZone } from '../domain/time-zones.js';

const DEFAULT_DATABASE_URL = 'sqlite:./data/leftover.sqlite';

const portSchema = z.coerce
  .number({ error: 'must be a whole number from 1 to 65535' })
  .int('must be a whole number from 1 to 65535')
  .min(1, 'must be a whole number from 1 to 65535')
  .max(65535, 'must be a whole number from 1 to 65535');

const databaseUrlSchema = z
  .string()
  .refine(
    (value) => /^sqlite:.+/.test(value) || /^postgres(ql)?:\/\/.+/.test(value),
    'must be sqlite:<file path> or postgres://user:password@host:port/database',
  );

/** The documented budgets (README "Configuration"); see docs/decisions/0007-rate-limits.md. */
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;
export const DEFAULT_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE = 1200;
/** Requests to the development provider (/oidc, /dev-sign-in) from one address; decision 0028. */
export const DEFAULT_OIDC_RATE_LIMIT_PER_MINUTE = 300;
const MAX_RATE_LIMIT_PER_MINUTE = 1_000_000;

function perMinuteSchema(fallback: number) {
  const message = `must be a whole number of requests a minute, from 1 to ${MAX_RATE_LIMIT_PER_MINUTE}`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(MAX_RATE_LIMIT_PER_MINUTE, message).default(fallback);
}

/** How long SIGTERM waits for requests in flight before the process gives up on them. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
const MAX_SHUTDOWN_GRACE_MS = 600_000;
const shutdownGraceMessage = `must be a whole number of milliseconds, from 0 to ${MAX_SHUTDOWN_GRACE_MS}`;

/**
 * How long a client may take (issue 17, docs/decisions/0027-timeouts-logs-and-files.md): a whole
 * request, headers and body, within REQUEST_TIMEOUT_MS; a connection silent for
 * CONNECTION_TIMEOUT_MS is closed; an idle kept-alive connection waits KEEP_ALIVE_TIMEOUT_MS for
 * its next request.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECTION_TIMEOUT_MS = 60_000;
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
const MAX_TIMEOUT_MS = 600_000;

function timeoutSchema(fallback: number) {
  const message = `must be a whole number of milliseconds, from 100 to ${MAX_TIMEOUT_MS}`;
  return z.coerce.number({ error: message }).int(message).min(100, message).max(MAX_TIMEOUT_MS, message).default(fallback);
}

/**
 * Untrusted files (statements, restores) are read in worker threads with these limits (issue 22):
 * a file that needs more memory or time than this fails alone, answered 413, and the server and
 * every other user carry on. A real statement needs a few MB and well under a second.
 */
export const DEFAULT_FILE_WORKER_MEMORY_MB = 256;
export const DEFAULT_FILE_WORKER_TIMEOUT_MS = 10_000;
export const DEFAULT_FILE_WORKERS = 1;
const MAX_FILE_WORKERS = 16;

function wholeNumberSchema(fallback: number, min: number, max: number, unit: string) {
  const message = `must be a whole number of ${unit}, from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message).default(fallback);
}

/**
 * Fastify's trustProxy: false (the peer is the client), true (trust every X-Forwarded-For hop), a
 * hop count, or the proxies' addresses. Only what proxy-addr reads is let through, so a typo stops
 * the server instead of silently trusting nothing, or everything.
 */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's names for the reserved ranges, accepted beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const TRUST_PROXY_MESSAGE =
  'must be true, false, a number of proxy hops, or a comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.0/8, loopback)';

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const version = net.isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

const trustProxySchema = z
  .string()
  .trim()
  .transform((value, context): TrustProxy => {
    const lower = value.toLowerCase();
    if (lower === '' || lower === 'false') return false;
    if (lower === 'true') return true;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops >= 1 && hops <= 100) return hops;
    } else {
      const entries = value.split(',').map((entry) => entry.trim());
      if (entries.every(isProxyAddress)) return entries;
    }
    context.issues.push({ code: 'custom', message: TRUST_PROXY_MESSAGE, input: value });
    return z.NEVER;
  })
  .default(false);

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** A web address of the server as people reach it: links in messages start with it (no trailing slash). */
const publicUrlSchema = optionalText.pipe(
  z
    .string()
    .refine(
      (value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol) && new URL(value).search === '',
      'must be the http:// or https:// address people open Leftover at, like https://leftover.example.com',
    )
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
);

const ALLOWED_HOSTS_MESSAGE =
  'must be a comma-separated list of host names, each with a port if need be, like leftover.example.com, leftover.internal:3000';

/** A host as a request's Host header names it: a name or address, a port perhaps, and nothing else (no path, user or scheme). */
const HOST_TEXT = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** ALLOWED_HOSTS: the hosts besides PUBLIC_URL's that requests may name in production (decision 0068). */
const allowedHostsSchema = optionalText.pipe(
  z
    .string()
    .transform((value, context) => {
      const entries = value.split(',').map((entry) => entry.trim());
      if (entries.every((entry) => HOST_TEXT.test(entry) && URL.canParse(`http://${entry}`))) return entries;
      context.issues.push({ code: 'custom', message: ALLOWED_HOSTS_MESSAGE, input: value });
      return z.NEVER;
    })
    .optional(),
);

const SMTP_URL_MESSAGE = 'must be an smtp:// or smtps:// URL, like smtps://user:password@smtp.example.com:465';

const smtpUrlSchema = optionalText.pipe(
  z
    .string()
    .refine((value) => URL.canParse(value) && ['smtp:', 'smtps:'].includes(new URL(value).protocol), SMTP_URL_MESSAGE)
    .optional(),
);

/** "you@example.com" or "Leftover <you@example.com>": nodemailer reads either as the sender. */
const MAIL_FROM = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/;

const vapidSubjectSchema = optionalText.pipe(
  z
    .string()
    .refine(
      (value) => /^mailto:[^\s@]+@[^\s@]+$/.test(value) || /^https:\/\/[^\s/]+/.test(value),
      'must be a mailto: or https: address, like mailto:you@example.com',
    )
    .optional(),
);

/**
 * SECRETS_KEY (issue 37, decision 0080): the key that seals bank connections' Access URLs, 32 bytes
 * in standard base64 (44 characters, the output of `openssl rand -base64 32`). Only the one
 * spelling of 32 bytes is read: a key cut short or padded out by a copy and paste stops the server
 * instead of sealing with another key than the one the operator keeps. The value itself is never
 * in a message.
 */
const SECRETS_KEY_BYTES = 32;
const SECRETS_KEY_MESSAGE = 'must be 32 random bytes in base64 (44 characters), like the output of: openssl rand -base64 32';

const secretsKeySchema = optionalText.pipe(
  z
    .string()
    .refine((value) => /^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, 'base64').toString('base64') === value, SECRETS_KEY_MESSAGE)
    .transform((value) => Buffer.from(value, 'base64'))
    .refine((key) => key.length === SECRETS_KEY_BYTES, SECRETS_KEY_MESSAGE)
    .optional(),
);

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: portSchema.default(3000),
  HOST: z.string().trim().min(1, 'must not be empty').default('localhost'),
  DATABASE_URL: databaseUrlSchema.default(DEFAULT_DATABASE_URL),
  OIDC_ISSUER: optionalText.pipe(z.url('must be the provider issuer URL, like https://example.okta.com/oauth2/default').optional()),
  OIDC_CLIENT_ID: optionalText,
  OIDC_AUDIENCE: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_PER_MINUTE: perMinuteSchema(DEFAULT_RATE_LIMIT_PER_MINUTE),
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: perMinuteSchema(DEFAULT_RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE),
  OIDC_RATE_LIMIT_PER_MINUTE: perMinuteSchema(DEFAULT_OIDC_RATE_LIMIT_PER_MINUTE),
  SHUTDOWN_GRACE_MS: z.coerce
    .number({ error: shutdownGraceMessage })
    .int(shutdownGraceMessage)
    .min(0, shutdownGraceMessage)
    .max(MAX_SHUTDOWN_GRACE_MS, shutdownGraceMessage)
    .default(DEFAULT_SHUTDOWN_GRACE_MS),
  TRUST_PROXY: trustProxySchema,
  REQUEST_TIMEOUT_MS: timeoutSchema(DEFAULT_REQUEST_TIMEOUT_MS),
  CONNECTION_TIMEOUT_MS: timeoutSchema(DEFAULT_CONNECTION_TIMEOUT_MS),
  KEEP_ALIVE_TIMEOUT_MS: timeoutSchema(DEFAULT_KEEP_ALIVE_TIMEOUT_MS),
  SERVE_SOURCE_MAPS: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  FILE_WORKER_MEMORY_MB: wholeNumberSchema(DEFAULT_FILE_WORKER_MEMORY_MB, 32, 4096, 'megabytes'),
  FILE_WORKER_TIMEOUT_MS: wholeNumberSchema(DEFAULT_FILE_WORKER_TIMEOUT_MS, 100, MAX_TIMEOUT_MS, 'milliseconds'),
  FILE_WORKERS: wholeNumberSchema(DEFAULT_FILE_WORKERS, 1, MAX_FILE_WORKERS, 'threads'),
  // Node reads TZ itself; checked here so a misspelt zone stops the server instead of silently becoming UTC.
  TZ: optionalText.pipe(
    z
      .string()
      .refine((value) => ianaTimeZone(value) !== null, 'must be an IANA time zone, like America/Chicago')
      .optional(),
  ),
  SMTP_URL: smtpUrlSchema,
  MAIL_FROM: optionalText.pipe(z.string().regex(MAIL_FROM, 'must be an address, like Leftover <leftover@example.com>').optional()),
  PUBLIC_URL: publicUrlSchema,
  ALLOWED_HOSTS: allowedHostsSchema,
  NOTIFY_ALLOW_PRIVATE_URLS: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  VAPID_SUBJECT: vapidSubjectSchema,
  SECRETS_KEY: secretsKeySchema,
});

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export type OidcConfig =
  | { kind: 'external'; issuer: string; clientId: string; audience: string }
  | {
      kind: 'embedded';
      issuer: string;
      clientId: string;
      audience: string;
      keysFile: string;
      /** Requests a minute to /oidc and /dev-sign-in from one address, in each server process. */
      perAddressPerMinute: number;
    };

export interface RateLimitConfig {
  /** API calls a minute for one signed-in user (token issuer + subject): all processes together on PostgreSQL (decision 0071). */
  readonly perUserPerMinute: number;
  /** Calls a minute with a missing or refused token from one network address, counted the same way. */
  readonly unauthenticatedPerMinute: number;
}

export interface TimeoutConfig {
  /** The whole request, headers and body, must arrive within this; past it, 408 and the socket closes. */
  readonly requestMs: number;
  /** A connection with no traffic either way for this long is closed. */
  readonly connectionMs: number;
  /** An idle kept-alive connection is closed after this long without a new request. */
  readonly keepAliveMs: number;
}

/** Where and how untrusted files are read: off the main thread, within these limits. */
export interface FileWorkerConfig {
  /** The old-generation heap of each worker thread, in MB. */
  readonly memoryMb: number;
  /** One file's reading (or matching) may take this long before its worker is stopped. */
  readonly timeoutMs: number;
  /** Worker threads reading files at once; more files wait in a queue. */
  readonly threads: number;
}

/** Where messages go (issue 26, decision 0051). */
export interface NotificationConfig {
  /** The operator's SMTP server; without it the email channel is not offered. */
  readonly smtpUrl: string | undefined;
  /** The sender of every email; required with SMTP_URL. */
  readonly mailFrom: string | undefined;
  /** Links in messages start with this (no trailing slash). */
  readonly publicUrl: string;
  /** Webhooks may reach loopback, private, link-local and metadata addresses (tests, a home network). */
  readonly allowPrivateUrls: boolean;
  /** Who runs this server, as web push's VAPID asks: a mailto: or https: address. */
  readonly vapidSubject: string;
}

/**
 * Where the key that seals bank connections' Access URLs comes from (issue 37, decision 0080):
 * SECRETS_KEY; else, on SQLite, a key file beside the database, made 0600 on first use; else
 * (PostgreSQL, whose processes share no folder) none, and bank connections are refused, saying why.
 */
export type SecretsConfig =
  { readonly kind: 'key'; readonly key: Buffer } | { readonly kind: 'key-file'; readonly file: string } | { readonly kind: 'none' };

export interface AppConfiguration {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly oidc: OidcConfig;
  readonly logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  readonly rateLimit: RateLimitConfig;
  /** SIGTERM: requests in flight get this long to finish before the process exits anyway. */
  readonly shutdownGraceMs: number;
  /** Which X-Forwarded-For hops to believe for the client's address (rate limits, logs). */
  readonly trustProxy: TrustProxy;
  readonly timeouts: TimeoutConfig;
  /** Folder for the embedded defaults' files (SQLite database, development provider keys). */
  readonly dataDir: string;
  /** Whether the built page's source maps (*.map) are served; off unless SERVE_SOURCE_MAPS=true. */
  readonly serveSourceMaps: boolean;
  readonly fileWorkers: FileWorkerConfig;
  /** "Today" for users who have no time zone stored: TZ, else the system's (decision 0047). */
  readonly defaultTimeZone: string;
  readonly notifications: NotificationConfig;
  /**
   * The hosts a request may name (its Host, or X-Forwarded-Host from a trusted proxy), each as
   * `new URL()` spells a host: PUBLIC_URL's and ALLOWED_HOSTS, in production with PUBLIC_URL set.
   * Null anywhere else: any host is served (decision 0068).
   */
  readonly allowedHosts: AllowedHosts | null;
  readonly secrets: SecretsConfig;
}

/** The hosts requests may name, spelt as a URL with PUBLIC_URL's scheme spells them (default port left out, lowercase). */
export interface AllowedHosts {
  /** `https:` or `http:`: a Host's port is read against this scheme's default. */
  readonly protocol: string;
  readonly hosts: readonly string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const EMBEDDED_CLIENT_ID = 'leftover-web';

/** The audience of the embedded provider's access tokens: our API's own address. */
function embeddedAudience(port: number): string {
  return `http://localhost:${port}/api`;
}

function embeddedIssuer(port: number): string {
  return `http://localhost:${port}/oidc`;
}

function parseDatabaseUrl(url: string, cwd: string): DatabaseConfig {
  if (url.startsWith('sqlite:')) {
    return { kind: 'sqlite', file: path.resolve(cwd, url.slice('sqlite:'.length)) };
  }
  return { kind: 'postgres', url };
}

/**
 * DATABASE_URL alone, read as loadConfig reads it: the operator's backup and restore scripts find
 * the server's database this way without needing the rest of its configuration.
 */
export function loadDatabaseConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): DatabaseConfig {
  const parsed = environmentSchema.shape.DATABASE_URL.safeParse(env.DATABASE_URL);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => `DATABASE_URL: ${issue.message}`));
  return parseDatabaseUrl(parsed.data, cwd);
}

export function loadConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): AppConfiguration {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const values = parsed.data;
  const database = parseDatabaseUrl(values.DATABASE_URL, cwd);
  const dataDir = database.kind === 'sqlite' ? path.dirname(database.file) : path.resolve(cwd, 'data');

  const oidcValues = { OIDC_ISSUER: values.OIDC_ISSUER, OIDC_CLIENT_ID: values.OIDC_CLIENT_ID, OIDC_AUDIENCE: values.OIDC_AUDIENCE };
  const given = Object.entries(oidcValues).filter(([, value]) => value !== undefined);
  let oidc: OidcConfig;
  if (given.length === 0) {
    if (values.NODE_ENV === 'production') {
      throw new ConfigError([
        'OIDC_ISSUER: required when NODE_ENV=production (the embedded development sign-in refuses to run in production); set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_AUDIENCE',
      ]);
    }
    oidc = {
      kind: 'embedded',
      issuer: embeddedIssuer(values.PORT),
      clientId: EMBEDDED_CLIENT_ID,
      audience: embeddedAudience(values.PORT),
      keysFile: path.join(dataDir, 'dev-oidc-keys.json'),
      perAddressPerMinute: values.OIDC_RATE_LIMIT_PER_MINUTE,
    };
  } else if (given.length < 3) {
    const missing = Object.entries(oidcValues)
      .filter(([, value]) => value === undefined)
      .map(([name]) => `${name}: required when ${given.map(([name]) => name).join(' and ')} ${given.length === 1 ? 'is' : 'are'} set`);
    throw new ConfigError(missing);
  } else {
    const issuer = values.OIDC_ISSUER as string;
    if (values.NODE_ENV === 'production' && !issuer.startsWith('https://')) {
      throw new ConfigError(['OIDC_ISSUER: must be an https:// URL when NODE_ENV=production']);
    }
    oidc = { kind: 'external', issuer, clientId: values.OIDC_CLIENT_ID as string, audience: values.OIDC_AUDIENCE as string };
  }

  if (values.SMTP_URL !== undefined && values.MAIL_FROM === undefined) {
    throw new ConfigError(['MAIL_FROM: required when SMTP_URL is set (the sender of every email), like Leftover <leftover@example.com>']);
  }
  const publicUrl = values.PUBLIC_URL ?? `http://localhost:${values.PORT}`;
  if (values.ALLOWED_HOSTS !== undefined && values.PUBLIC_URL === undefined) {
    throw new ConfigError(['ALLOWED_HOSTS: needs PUBLIC_URL, the address people open Leftover at (its host is always allowed)']);
  }
  let allowedHosts: AllowedHosts | null = null;
  if (values.NODE_ENV === 'production' && values.PUBLIC_URL !== undefined) {
    const { protocol, host } = new URL(values.PUBLIC_URL);
    const others = (values.ALLOWED_HOSTS ?? []).map((entry) => new URL(`${protocol}//${entry}`).host);
    allowedHosts = { protocol, hosts: [...new Set([host, ...others])] };
  }

  let secrets: SecretsConfig = { kind: 'none' };
  if (values.SECRETS_KEY !== undefined) secrets = { kind: 'key', key: values.SECRETS_KEY };
  else if (database.kind === 'sqlite') secrets = { kind: 'key-file', file: `${database.file}.secrets-key` };

  return {
    nodeEnv: values.NODE_ENV,
    port: values.PORT,
    host: values.HOST,
    database,
    oidc,
    logLevel: values.LOG_LEVEL,
    rateLimit: { perUserPerMinute: values.RATE_LIMIT_PER_MINUTE, unauthenticatedPerMinute: values.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE },
    shutdownGraceMs: values.SHUTDOWN_GRACE_MS,
    trustProxy: values.TRUST_PROXY,
    timeouts: {
      requestMs: values.REQUEST_TIMEOUT_MS,
      connectionMs: values.CONNECTION_TIMEOUT_MS,
      keepAliveMs: values.KEEP_ALIVE_TIMEOUT_MS,
    },
    dataDir,
    serveSourceMaps: values.SERVE_SOURCE_MAPS === 'true',
    fileWorkers: { memoryMb: values.FILE_WORKER_MEMORY_MB, timeoutMs: values.FILE_WORKER_TIMEOUT_MS, threads: values.FILE_WORKERS },
    defaultTimeZone: (values.TZ === undefined ? null : ianaTimeZone(values.TZ)) ?? processTimeZone(),
    notifications: {
      smtpUrl: values.SMTP_URL,
      mailFrom: values.MAIL_FROM,
      publicUrl,
      allowPrivateUrls: values.NOTIFY_ALLOW_PRIVATE_URLS === 'true',
      // Without one, the server's own https address, else a placeholder the push services of Chrome and Firefox accept (README).
      vapidSubject: values.VAPID_SUBJECT ?? (publicUrl.startsWith('https://') ? publicUrl : 'mailto:leftover@localhost'),
    },
    allowedHosts,
    secrets,
  };
}
