/**
 * Budgets shared with a partner (issue 38, decision 0088): the answers of /api/budgets and
 * /api/invitations, and the request header that names the budget every other call acts on.
 */
import * as z from 'zod/mini';
import { BUDGET_ROLES } from '../domain/budgets.js';
import { idSchema } from './common.js';

/**
 * The request header that names the budget a call acts on, as Stripe's `Stripe-Account` names an
 * account: a budget's id from GET /api/budgets. Left out, the caller's personal budget.
 */
export const BUDGET_HEADER = 'Leftover-Budget';

const roleSchema = z.enum(BUDGET_ROLES);

/** A budget the caller is a member of, and their role in it. */
export const budgetSchema = z.object({
  id: idSchema,
  name: z.string(),
  role: roleSchema,
  /** The caller's own budget: what they had before budgets were shared; never shared, never deleted. */
  personal: z.boolean(),
  /**
   * The caller's own choice (decision 0099): their messages cover this budget's shortfalls and bills
   * due, by their notification rules and channels. True until they turn it off.
   */
  notify: z.boolean(),
});
export type Budget = z.infer<typeof budgetSchema>;

/** GET /api/budgets: the personal budget first, then the others by name. */
export const budgetsSchema = z.object({ budgets: z.array(budgetSchema) });

/** A member as the other members see them: a display name from their sign-in, never their subject. */
export const memberSchema = z.object({
  id: idSchema,
  /** The provider's `name` or `preferred_username` when they last called; null when it gave neither. */
  name: z.nullable(z.string()),
  role: roleSchema,
  /** The caller themself. */
  you: z.boolean(),
});

export type Member = z.infer<typeof memberSchema>;

export const membersSchema = z.object({ members: z.array(memberSchema) });

/** A pending invitation as the budget's owners list it: never its token. */
export const invitationSchema = z.object({
  id: idSchema,
  role: roleSchema,
  invitedBy: z.nullable(z.string()),
  createdAt: z.string(),
  expiresAt: z.string(),
});

export type Invitation = z.infer<typeof invitationSchema>;

export const invitationsSchema = z.object({ invitations: z.array(invitationSchema) });

/** POST /api/budgets/{id}/invitations: the invitation and its single-use token, shown this once. */
export const newInvitationSchema = z.object({
  invitation: invitationSchema,
  /** 192 random bits; only its hash is stored. */
  token: z.string(),
  /** The page's address that opens it; the token travels in the fragment, which no request carries. */
  link: z.string(),
  /** The server can mail the link to an address (its operator set up SMTP_URL): POST .../send (decision 0105). */
  emailOffered: z.boolean(),
});
export type NewInvitation = z.infer<typeof newInvitationSchema>;

/** What the invited person sees before they join: the budget's name, who invited them and as what. Nothing of its data. */
export const invitationViewSchema = z.object({
  budget: z.object({ name: z.string() }),
  invitedBy: z.nullable(z.string()),
  role: roleSchema,
  expiresAt: z.string(),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;

/** An invitation's link mailed (decision 0105): to the address as the server read it. */
export const invitationSentSchema = z.object({ sentTo: z.string() });

/** "No thanks": the invitation is used up. */
export const invitationDeclinedSchema = z.object({ declined: z.literal(true) });
