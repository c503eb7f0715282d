/**
 * What happens to each statement row: the server's proposal, the choices the user may pick
 * instead, their words in the preview, and the decisions the import sends.
 */
import type { LedgerTransactionView } from '../../../contract/codecs.js';
import type { StatementRowView } from '../../../contract/statement-codecs.js';
import type { ImportDecision } from '../../../contract/statement-requests.js';
import { formatDate } from '../../../domain/calendar-date.js';
import type { Cents } from '../../../domain/money.js';

/** A select's value: 'new', 'skip', or 'match:' and the ledger row's id. */
export type RowChoice = 'new' | 'skip' | `match:${string}`;

export const matchChoice = (ledgerRowId: string): RowChoice => `match:${ledgerRowId}`;

/** What the server proposes, or null for a row that can only be skipped (imported before, outside the ledger). */
export function proposedChoice(row: StatementRowView): RowChoice | null {
  if (row.action === 'match' && row.matchId !== undefined) return matchChoice(row.matchId);
  if (row.action === 'new') return 'new';
  return null;
}

export type LedgerRowsById = ReadonlyMap<string, LedgerTransactionView>;

/** "Matches Rent (Fri, Jan 1, 2027)", "New", "Skip": the words of a choice. */
export function choiceText(choice: RowChoice, rowsById: LedgerRowsById): string {
  if (choice === 'new') return 'New';
  if (choice === 'skip') return 'Skip';
  const ledgerRow = rowsById.get(choice.slice('match:'.length));
  return ledgerRow ? `Matches ${ledgerRow.name} (${formatDate(ledgerRow.date)})` : 'Matches a ledger row';
}

/** What happens to a row that offers no choice. */
export function fixedActionText(row: StatementRowView): string {
  return row.action === 'duplicate' ? 'Already imported' : 'Outside the ledger';
}

/** Enough to pick from: past this many, the nearest dates are offered. */
const MAX_CANDIDATES = 12;

const bucketOf = (type: string, amount: Cents) => `${type}:${amount}`;

/**
 * The open (not CLEARED) ledger rows each statement row may match: same type, same amount to the
 * cent, nearest date first. The server accepts any of them (decision 0020): the 5-day window
 * only limits what it proposes.
 */
export function matchCandidates(transactions: readonly LedgerTransactionView[]): (row: StatementRowView) => LedgerTransactionView[] {
  const buckets = new Map<string, LedgerTransactionView[]>();
  for (const transaction of transactions) {
    if (transaction.status === 'CLEARED') continue;
    const key = bucketOf(transaction.type, transaction.amount);
    const bucket = buckets.get(key);
    if (bucket) bucket.push(transaction);
    else buckets.set(key, [transaction]);
  }
  return (row) => {
    const bucket = buckets.get(bucketOf(row.type, row.amount)) ?? [];
    const statementDay = Date.parse(row.date);
    const distance = (transaction: LedgerTransactionView) => Math.abs(Date.parse(transaction.date) - statementDay);
    return [...bucket].sort((a, b) => distance(a) - distance(b)).slice(0, MAX_CANDIDATES);
  };
}

/** What each row will do: its change, or else the proposal (null: skipped whatever the user does). */
export function effectiveChoice(row: StatementRowView, changes: ReadonlyMap<number, RowChoice>): RowChoice | null {
  return proposedChoice(row) === null ? null : (changes.get(row.index) ?? proposedChoice(row));
}

/** Which statement row (by index) each matched ledger row is chosen by. */
export function matchedBy(rows: readonly StatementRowView[], changes: ReadonlyMap<number, RowChoice>): Map<string, number> {
  const owners = new Map<string, number>();
  for (const row of rows) {
    const choice = effectiveChoice(row, changes);
    if (choice?.startsWith('match:')) owners.set(choice.slice('match:'.length), row.index);
  }
  return owners;
}

/**
 * The choices a row's select lists: the proposed match, the other candidates not chosen by
 * another row (a ledger row matches one statement row), "New" and "Skip".
 */
export function choicesFor(
  row: StatementRowView,
  chosen: RowChoice,
  candidates: readonly LedgerTransactionView[],
  owners: ReadonlyMap<string, number>,
): RowChoice[] {
  const matches = new Set<RowChoice>();
  if (row.matchId !== undefined) matches.add(matchChoice(row.matchId));
  if (chosen.startsWith('match:')) matches.add(chosen);
  for (const candidate of candidates) {
    const owner = owners.get(candidate.id);
    if (owner === undefined || owner === row.index) matches.add(matchChoice(candidate.id));
  }
  return [...matches, 'new', 'skip'];
}

/** Only the rows the user changed: the server applies its own proposal to the rest. */
export function decisionsOf(rows: readonly StatementRowView[], changes: ReadonlyMap<number, RowChoice>): ImportDecision[] {
  const decisions: ImportDecision[] = [];
  for (const row of rows) {
    const choice = changes.get(row.index);
    if (choice === undefined || choice === proposedChoice(row)) continue;
    if (choice === 'new' || choice === 'skip') decisions.push({ index: row.index, action: choice });
    else decisions.push({ index: row.index, action: 'match', matchId: choice.slice('match:'.length) });
  }
  return decisions;
}
