/**
 * Bank connections (issue 37, decision 0082): the requests and answers of the five calls under
 * /api/bank-connections, exactly the issue's shapes. The Access URL is in none of them: a connection
 * is known by its id, and its secret stays sealed in the database (decision 0080).
 */
import * as z from 'zod/mini';
import { dollarsAnswerSchema, idSchema } from './common.js';
import { newAccountSchema } from './account-input.js';
import { OBJECT_BODY } from './request-fields.js';

/** At most this many connections per user (issue 37 item 1): each costs the bridge's daily quota and a sealed secret. */
export const MAX_BANK_CONNECTIONS = 5;

/** A Setup Token is base64 of a claim URL: a few hundred characters; far more is not a token. */
export const MAX_SETUP_TOKEN_LENGTH = 4096;

/** The issue's words for a claim the bridge answered 403. */
export const SETUP_TOKEN_ALREADY_USED =
  'This Setup Token was already used. If you did not use it, someone else may have: make a new one at your bridge and disconnect the old one.';

/** The issue's words for an account in another currency: listed, never linked. */
export const DOLLARS_ONLY = 'Leftover keeps dollars only for now.';

export const TOO_MANY_BANK_CONNECTIONS = `You can connect at most ${MAX_BANK_CONNECTIONS} banks. Disconnect one first.`;

/**
 * A connection's state:
 * - `Connected`: it syncs on the schedule and on "Sync now";
 * - `Needs attention`: its last request failed as a whole (402, 403, the bank wants a new sign-in,
 *   an HTML page, a redirect, bad JSON, too big, too slow), with `reason` saying why in plain text
 *   (the page escapes it as it escapes every text). After a 402 or a 403 its scheduled requests stop
 *   until the user connects it again (`scheduled` false); after anything else they go on, and the
 *   next one that succeeds brings it back to `Connected`.
 */
export const BANK_CONNECTION_STATES = ['Connected', 'Needs attention'] as const;

export const bankConnectionStatusSchema = z.object({
  state: z.enum(BANK_CONNECTION_STATES),
  /** Why it needs attention; null while connected. Plain text: the bridge's words unescaped, never the Access URL. */
  reason: z.nullable(z.string()),
  /** Whether the server's schedule still syncs it (false after a 402 or a 403, until reconnected). */
  scheduled: z.boolean(),
});

/** The bridge's balance of one linked account against its ledger, in the issue's words. */
export const bankBalanceCheckSchema = z.object({
  /** The bridge account's id (an account's `id` in `accounts`). */
  remoteId: z.string(),
  /** "Matches the bank's balance of $1,234.56 on Fri, Jan 8, 2027", or the difference. */
  text: z.string(),
});

/**
 * The connection's last sync, scheduled or pressed: when it ran, what it did to the ledgers, and
 * what it warned of; null before the first. A failed sync is recorded too, with `failure` its reason
 * and every count 0: nothing of it was written.
 */
export const bankSyncRecordSchema = z.object({
  /** When it ran (ISO 8601, UTC). */
  at: z.string(),
  /** `schedule` or `now` (the user's "Sync now"). */
  trigger: z.enum(['schedule', 'now']),
  added: z.number(),
  matched: z.number(),
  replaced: z.number(),
  flagged: z.number(),
  warnings: z.array(z.string()),
  failure: z.nullable(z.string()),
  balances: z.array(bankBalanceCheckSchema),
});
export type BankSyncRecord = z.infer<typeof bankSyncRecordSchema>;

/** One account of the bridge as the connection lists it. */
export const bankRemoteAccountSchema = z.object({
  /** The bridge's account id: the `{remoteId}` of the link call. */
  id: z.string(),
  institution: z.string(),
  name: z.string(),
  /** The last four characters of the id, as a statement's account is named (decision 0046). */
  last4: z.string(),
  /** The bridge's balance as last read, in dollars; null when it was not an amount of money. */
  balance: z.nullable(dollarsAnswerSchema),
  /** ISO 4217 as the bridge says it; only USD can be linked (DOLLARS_ONLY). */
  currency: z.string(),
  /** The linked Leftover account, or null. */
  accountId: z.nullable(z.string()),
});

/** POST /api/bank-connections and PUT .../accounts/{remoteId} answer one connection. */
/**
 * The 403 of linking, syncing or disconnecting another member's connection (decision 0095), and
 * what the page says beside its disabled buttons (decision 0100): one text for both.
 */
export const NOT_YOUR_BANK_CONNECTION =
  'Only the member who connected this bank can link, sync or disconnect it: it uses their bank login. Connect your own bank to sync yours.';

export const bankConnectionSchema = z.object({
  id: z.string(),
  /**
   * Whether the caller may link, sync or disconnect it (decisions 0095, 0100): they connected it, or
   * it is from before budgets and theirs as its owner. Every member lists every connection; the
   * others' calls answer 403, so the page disables those buttons and says why.
   */
  yours: z.boolean(),
  /**
   * The display name of the member who connected it, as the members list shows them (decision 0106);
   * null when it was connected before budgets, their provider gave no name, or they are no longer a member.
   */
  madeBy: z.nullable(z.string()),
  status: bankConnectionStatusSchema,
  lastSync: z.nullable(bankSyncRecordSchema),
  accounts: z.array(bankRemoteAccountSchema),
});
export type BankConnection = z.infer<typeof bankConnectionSchema>;

/** GET /api/bank-connections, and DELETE's answer: the caller's connections, oldest first. */
export const bankConnectionsSchema = z.object({ connections: z.array(bankConnectionSchema) });

/** POST /api/bank-connections/{id}/sync: what the sync did, summed over the linked accounts. */
export const bankSyncAnswerSchema = z.object({
  added: z.number(),
  matched: z.number(),
  replaced: z.number(),
  flagged: z.number(),
  warnings: z.array(z.string()),
});
export type BankSyncAnswer = z.infer<typeof bankSyncAnswerSchema>;

/** POST /api/bank-connections. */
export const connectBankRequestSchema = z.object(
  {
    setupToken: z
      .string({ error: 'Setup Token is required: paste it from your SimpleFIN bridge.' })
      .check(
        z.trim(),
        z.minLength(1, 'Setup Token is required: paste it from your SimpleFIN bridge.'),
        z.maxLength(MAX_SETUP_TOKEN_LENGTH, `Setup Token must be at most ${MAX_SETUP_TOKEN_LENGTH} characters.`),
      ),
  },
  OBJECT_BODY,
);

const LINK_BODY =
  'The body must be { "accountId": "<id>" } to link, { "newAccount": { "name", "kind" } } to link a new account, or { "accountId": null } to unlink.';

/**
 * PUT /api/bank-connections/{id}/accounts/{remoteId}: link to an account (`accountId`), to a new one
 * (`newAccount`, made through the accounts' own call), or unlink (`accountId: null`). One object with
 * both optional rather than a union, so a bad `newAccount.kind` answers its own field's message.
 */
export const linkBankAccountRequestSchema = z
  .object(
    {
      accountId: z.optional(
        z.nullable(
          z
            .string({ error: 'Account must be the id of one of your accounts, or null to unlink.' })
            .check(z.regex(/^[A-Za-z0-9-]{1,64}$/, 'Account must be the id of one of your accounts, or null to unlink.')),
        ),
      ),
      newAccount: z.optional(newAccountSchema),
    },
    OBJECT_BODY,
  )
  .check(
    z.superRefine((body, context) => {
      const both = body.accountId !== undefined && body.newAccount !== undefined;
      if (both || (body.accountId === undefined && body.newAccount === undefined)) {
        context.addIssue({ code: 'custom', path: ['accountId'], message: LINK_BODY });
      }
    }),
  );

export const bankConnectionParamsSchema = z.object({ id: idSchema });

/** A bridge's account id: any printable text without a slash (it is one path segment), as the bridge chose it. */
export const bankRemoteAccountParamsSchema = z.object({
  id: idSchema,
  remoteId: z.string({ error: 'Remote account is required.' }).check(z.regex(/^[^\s/]{1,255}$/, 'Remote account is not valid.')),
});
