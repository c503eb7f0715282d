/** What the page needs to know to sign in, served by the server from its own configuration. */
import * as z from 'zod/mini';
import { dollarsAnswerSchema, idSchema } from './common.js';

export const APP_CONFIG_PATH = '/app-config.json';

export const appConfigSchema = z.object({
  oidc: z.object({
    issuer: z.url(),
    clientId: z.string().check(z.minLength(1)),
    /** Sent as the resource indicator so the provider issues an access token for our API. */
    audience: z.string().check(z.minLength(1)),
  }),
  /** True when the embedded development provider signs people in. */
  developmentSignIn: z.boolean(),
});
export type AppConfig = z.infer<typeof appConfigSchema>;

/** Who the API thinks is calling: the answer of the endpoint table's getProfile. */
export const profileSchema = z.object({
  subject: z.string(),
  name: z.nullable(z.string()),
  /** The caller's IANA time zone, or the server's (TZ) while they have none stored (issue 26, decision 0047). */
  timeZone: z.string(),
  /** "Keep at least" (issue 36): what safe to spend keeps back; $0.00 unless set. */
  buffer: dollarsAnswerSchema,
  /** Everyday spending: an amount a week and the account it comes out of; null while it is off. */
  everydaySpending: z.nullable(z.object({ weekly: dollarsAnswerSchema, accountId: idSchema })),
});
export type Profile = z.infer<typeof profileSchema>;
