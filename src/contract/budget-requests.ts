/**
 * What a user sends to make, rename and delete a budget, invite, and change members (issue 38,
 * decision 0088). Apart from budgets.ts so the page's first view does not carry it.
 */
import * as z from 'zod/mini';
import { BUDGET_ROLES, MAX_BUDGET_NAME_LENGTH } from '../domain/budgets.js';
import { idSchema } from './common.js';
import { MAX_EMAIL_LENGTH } from './notifications.js';
import { OBJECT_BODY, trimmedText } from './request-fields.js';

const ROLE = 'Role must be OWNER, EDITOR or VIEWER.';
const roleField = z.enum(BUDGET_ROLES, { error: ROLE });

/** POST /api/budgets and PATCH /api/budgets/{id}. */
export const budgetNameSchema = z.object({ name: trimmedText('Name', MAX_BUDGET_NAME_LENGTH) }, OBJECT_BODY);

/** DELETE /api/budgets/{id}: the budget's name, as the owner typed it to confirm. */
export const deleteBudgetRequestSchema = z.object(
  { confirm: z.string({ error: "Type the budget's name to confirm." }).check(z.maxLength(200, "Type the budget's name to confirm.")) },
  OBJECT_BODY,
);

/** POST /api/budgets/{id}/invitations and PATCH /api/budgets/{id}/members/{member}. */
export const roleRequestSchema = z.object({ role: roleField }, OBJECT_BODY);

/**
 * PUT /api/budgets/{id}/notifications: whether the caller's day's messages cover this budget's
 * shortfalls and bills due (decision 0099). Their own choice, whatever their role.
 */
export const budgetNotifyRequestSchema = z.object({ notify: z.boolean({ error: 'Notify must be true or false.' }) }, OBJECT_BODY);

const TOKEN = 'Token must be the token of an invitation.';
const tokenField = z.string({ error: TOKEN }).check(z.regex(/^[A-Za-z0-9_-]{32}$/, TOKEN));

/** POST /api/invitations/view, accept and decline: the token in the body, never in an address a log or a proxy keeps. */
export const invitationTokenRequestSchema = z.object({ token: tokenField }, OBJECT_BODY);

const EMAIL = 'Email must be an email address, like sam@example.com.';

/**
 * POST /api/budgets/{id}/invitations/{invitation}/send (decision 0105): the address to mail the link
 * to, and the invitation's token, which only the owner's page holds (the server keeps its hash alone,
 * so it cannot make the link again without it).
 */
export const sendInvitationRequestSchema = z.object(
  {
    email: z.string({ error: EMAIL }).check(
      z.trim(),
      z.maxLength(MAX_EMAIL_LENGTH, `Email must be at most ${MAX_EMAIL_LENGTH} characters.`),
      // zod's address pattern: one @, a dotted domain, nothing a mail header could be split with.
      z.email(EMAIL),
    ),
    token: tokenField,
  },
  OBJECT_BODY,
);
export type SendInvitationRequest = z.infer<typeof sendInvitationRequestSchema>;

export const memberParamsSchema = z.object({ id: idSchema, member: idSchema });
export const invitationParamsSchema = z.object({ id: idSchema, invitation: idSchema });
