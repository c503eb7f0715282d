/**
 * Who did what in a budget (issue 38 point 5, decision 0094): each unit of work is told what it
 * changed as plain data, and this turns it into the words a member reads, "Alex paid Rent". The
 * words are stored as written: an entry says what happened then, whatever is renamed since.
 */
import type { BudgetRole } from './budgets.js';
import { formatCount } from './limits.js';
import { type Cents, formatUsd } from './money.js';

/** A role as a sentence says it: "an editor". */
const ROLE_WORDS: { readonly [Role in BudgetRole]: string } = { OWNER: 'an owner', EDITOR: 'an editor', VIEWER: 'a viewer' };

/** The longest `what` kept: names are bounded already, but an entry must never grow with its input. */
export const MAX_ACTIVITY_WHAT_LENGTH = 300;

/** A budget keeps at most this many entries: each new one past it drops the oldest in the same unit of work. */
export const MAX_ACTIVITY_ENTRIES = 500;

/** The most entries one page of GET /api/budgets/{id}/activity answers, and how many when `limit` is left out. */
export const ACTIVITY_PAGE_MOST = 100;
export const ACTIVITY_PAGE_DEFAULT = 50;

/** Who an entry names when its maker gave no name at sign-in: never their subject. */
export const UNNAMED_MEMBER = 'A member';
/** Who an entry names for a change no person made (a scheduled bank sync). */
export const BANK_SYNC_ACTOR = 'Bank sync';

/** What a unit of work changed, as the code that asked for it knows it. */
export type ActivityChange =
  | { readonly kind: 'row'; readonly verb: 'added' | 'paid' | 'cleared' | 'edited' | 'deleted'; readonly name: string }
  | { readonly kind: 'transfer'; readonly name: string; readonly from: string; readonly to: string }
  | { readonly kind: 'ledger'; readonly verb: 'made' | 'extended'; readonly account: string }
  | { readonly kind: 'import'; readonly rows: number; readonly account: string }
  | {
      readonly kind: 'schedule';
      readonly verb: 'added' | 'changed' | 'deleted';
      readonly schedule: 'deposit' | 'expense';
      readonly name: string;
    }
  | { readonly kind: 'account'; readonly verb: 'added' | 'changed' | 'deleted'; readonly name: string }
  | { readonly kind: 'restore' }
  | { readonly kind: 'bank'; readonly rows: number }
  | { readonly kind: 'undo'; readonly undone: string | null }
  | { readonly kind: 'joined'; readonly role: BudgetRole }
  | { readonly kind: 'left' }
  | { readonly kind: 'removed'; readonly member: string | null }
  | { readonly kind: 'role'; readonly member: string | null; readonly role: BudgetRole }
  | { readonly kind: 'renamed'; readonly name: string }
  | { readonly kind: 'invited'; readonly role: BudgetRole }
  | { readonly kind: 'revoked'; readonly role: BudgetRole }
  | { readonly kind: 'emailed'; readonly role: BudgetRole }
  | { readonly kind: 'bank connection'; readonly verb: 'connected' | 'disconnected' }
  | { readonly kind: 'settings'; readonly changed: ForecastSettingsChange }
  | { readonly kind: 'other'; readonly text: string };

/**
 * What PATCH /api/me changed of the budget's forecast settings: each field present only when its
 * stored value changed. Everyday spending null: turned off.
 */
export interface ForecastSettingsChange {
  readonly timeZone?: string;
  readonly keepAtLeast?: Cents;
  readonly everydayWeekly?: Cents | null;
}

/** Whether a settings change changed anything: a write that changed nothing records nothing. */
export function settingsChanged(change: ForecastSettingsChange): boolean {
  return change.timeZone !== undefined || change.keepAtLeast !== undefined || change.everydayWeekly !== undefined;
}

function settingsWords({ timeZone, keepAtLeast, everydayWeekly }: ForecastSettingsChange): string {
  const parts: string[] = [];
  if (timeZone !== undefined) parts.push(`set the time zone to ${timeZone}`);
  if (keepAtLeast !== undefined) parts.push(`set Keep at least to ${formatUsd(keepAtLeast)}`);
  if (everydayWeekly === null) parts.push('turned off everyday spending');
  else if (everydayWeekly !== undefined) parts.push(`set everyday spending to ${formatUsd(everydayWeekly)} a week`);
  if (parts.length === 0) return 'changed the settings';
  const last = parts.pop() ?? '';
  return parts.length === 0 ? last : `${parts.join(', ')} and ${last}`;
}

function quoted(name: string): string {
  return name.trim() === '' ? 'a row' : name;
}

function cut(text: string): string {
  return text.length <= MAX_ACTIVITY_WHAT_LENGTH ? text : `${text.slice(0, MAX_ACTIVITY_WHAT_LENGTH - 1)}…`;
}

/** The words after the member's name: "paid Rent", "imported 23 rows into Checking", "undid paid Rent". */
export function describeChange(change: ActivityChange): string {
  switch (change.kind) {
    case 'row':
      return cut(`${change.verb} ${quoted(change.name)}`);
    case 'transfer':
      return cut(`moved ${quoted(change.name)} from ${change.from} to ${change.to}`);
    case 'ledger':
      return cut(change.verb === 'made' ? `made a new ledger for ${change.account}` : `extended the ledger of ${change.account}`);
    case 'import':
      return cut(`imported ${formatCount(change.rows)} ${change.rows === 1 ? 'row' : 'rows'} into ${change.account}`);
    case 'schedule':
      return cut(`${change.verb} the ${change.schedule} ${quoted(change.name)}`);
    case 'account':
      return cut(`${change.verb} the account ${quoted(change.name)}`);
    case 'bank':
      return `brought ${formatCount(change.rows)} ${change.rows === 1 ? 'row' : 'rows'} from the bank`;
    case 'restore':
      return 'restored the budget from a file';
    case 'undo':
      // What an entry recorded before activity existed has no words: the undo still shows.
      return cut(change.undone === null ? 'undid a change' : `undid ${change.undone}`);
    case 'joined':
      return `joined as ${ROLE_WORDS[change.role]}`;
    case 'left':
      return 'left the budget';
    case 'removed':
      return cut(`removed ${change.member ?? 'a member'}`);
    case 'role':
      return cut(`made ${change.member ?? 'a member'} ${ROLE_WORDS[change.role]}`);
    case 'renamed':
      return cut(`renamed the budget to ${change.name}`);
    case 'invited':
      return `invited someone as ${ROLE_WORDS[change.role]}`;
    case 'revoked':
      return `revoked an invitation to join as ${ROLE_WORDS[change.role]}`;
    case 'emailed':
      return `emailed an invitation to join as ${ROLE_WORDS[change.role]}`;
    case 'bank connection':
      return `${change.verb} a bank`;
    case 'settings':
      return cut(settingsWords(change.changed));
    case 'other':
      return cut(change.text);
  }
}

/** The whole sentence a member reads: "Alex paid Rent". */
export function activityText(who: string, what: string): string {
  return `${who} ${what}`;
}

/** The name an entry shows for its maker, from what their sign-in gave. */
export function actorName(name: string | null | undefined, person: boolean): string {
  if (!person) return BANK_SYNC_ACTOR;
  return name ?? UNNAMED_MEMBER;
}

/** The words of undo's refusal of another member's change (issue 38): their name, never their subject. */
export function onlyMakerCanUndo(who: string): string {
  return `Only ${who} can undo this.`;
}
