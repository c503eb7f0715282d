/**
 * A change of a budget as the processes tell each other of it (decision 0096): whose budget (its
 * owner columns), who made it and what to say. Pure: encoded for PostgreSQL's NOTIFY, decoded from
 * it, and told to a member's page. A payload never leaves the server: pages get only `toMember`.
 */
import * as z from 'zod/mini';
import { type LiveChange, MAX_CHANGE_TEXT_LENGTH } from '../../contract/live-changes.js';
import type { Caller } from '../auth/access-token.js';

export interface BudgetChange {
  /** The budget's owner columns: every member's stream of it listens by these. */
  readonly owner: Caller;
  /** The signed-in person who made it; null for the server's own work (a scheduled bank sync). */
  readonly actor: Caller | null;
  /** The actor's display name, as their sign-in gave it. */
  readonly by: string | null;
  /** What to say; null to reload quietly. */
  readonly text: string | null;
}

/** One key per budget: the owner columns, which no two budgets share (decision 0088). */
export function ownerKey(owner: Caller): string {
  return JSON.stringify([owner.issuer, owner.subject]);
}

/**
 * What is said of a change until the activity log describes it ("Alex paid Rent."): who changed the
 * budget. The seam where that text comes in is change-text.ts.
 */
export function genericChangeText(by: string | null): string {
  return `${by ?? 'Another member'} changed the budget.`;
}

/** A text cut to the most a change carries, so a payload stays far below NOTIFY's 8,000 bytes. */
export function boundedText(text: string | null): string | null {
  return text === null ? null : Array.from(text).slice(0, MAX_CHANGE_TEXT_LENGTH).join('');
}

/** The change as a member's page is told of it: who and what, never whose budget or which ids. */
export function toMember(change: BudgetChange, member: Caller): LiveChange {
  const you = change.actor !== null && ownerKey(change.actor) === ownerKey(member);
  return { by: change.by, text: change.text, you };
}

const callerSchema = z.tuple([z.string(), z.string()]);
const noticeSchema = z.object({
  /** The process that sent it: it has told its own streams already. */
  from: z.string(),
  owner: callerSchema,
  actor: z.nullable(callerSchema),
  by: z.nullable(z.string()),
  text: z.nullable(z.string()),
});

/** A change as one NOTIFY payload: a few hundred bytes (issuers, subjects and the name are bounded, the text is cut). */
export function encodeNotice(change: BudgetChange, from: string): string {
  const pair = (caller: Caller): [string, string] => [caller.issuer, caller.subject];
  return JSON.stringify({
    from,
    owner: pair(change.owner),
    actor: change.actor && pair(change.actor),
    by: change.by,
    text: boundedText(change.text),
  });
}

/** A NOTIFY payload back as a change and the process that sent it; undefined for anything else on the channel. */
export function decodeNotice(payload: string | undefined): { readonly from: string; readonly change: BudgetChange } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload ?? '');
  } catch {
    return undefined;
  }
  const notice = noticeSchema.safeParse(parsed);
  if (!notice.success) return undefined;
  const { from, owner, actor, by, text } = notice.data;
  const caller = ([issuer, subject]: readonly [string, string]): Caller => ({ issuer, subject });
  return { from, change: { owner: caller(owner), actor: actor && caller(actor), by, text: boundedText(text) } };
}
