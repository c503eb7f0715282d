/**
 * What an import does with each statement row: match it to an open ledger row, add it, or skip it
 * (imported before, or outside the ledger's dates); then the user's changes to those proposals,
 * checked, as the plan one database transaction applies.
 */
import { type IsoDate, toDayNumber } from '../calendar-date.js';
import { InvalidInputError } from '../errors.js';
import { compareRows } from '../balances.js';
import { isCounted, type LedgerRow, type TransactionType } from '../ledger.js';
import { type Cents } from '../money.js';
import { compareNames } from '../names.js';
import { type StatementRow } from './statement-row.js';

/** A statement row matches a ledger row dated at most this many days before or after it. */
export const MATCH_WINDOW_DAYS = 5;

/**
 * The most open ledger rows ranked for one statement row: its nearest ones by date, then in
 * ledger row order. A statement row with at most this many open rows of its type and amount
 * within the window ranks all of them, as every real ledger gives (a few schedules of one amount
 * a week apart), so while every row of a statement has at most this many the proposals are
 * those of ranking every pair. Past it, a file built of thousands of rows of one amount on one
 * day against a ledger of thousands more would rank millions of pairs: instead each row ranks
 * only its nearest, and the user can still match any open row of the same amount by a decision.
 */
export const MAX_MATCH_CANDIDATES = 64;

export type ProposalAction = 'match' | 'new' | 'duplicate' | 'outside';

export interface Proposal {
  /** The statement row's index. */
  readonly index: number;
  readonly action: ProposalAction;
  /** The ledger row's id, for a match. */
  readonly matchId?: string;
}

export interface MatchOptions {
  /** The ledger's first and last dates: rows outside them are skipped. */
  readonly startDate: IsoDate;
  readonly endDate: IsoDate;
  /** Import ids of rows already in the ledger: those statement rows are skipped. */
  readonly importedIds: ReadonlySet<string>;
}

interface OpenRow {
  readonly row: LedgerRow;
  /** Position in ledger row order. */
  readonly order: number;
  readonly words: ReadonlySet<string>;
}

interface Candidate {
  readonly position: number;
  readonly ledgerRow: LedgerRow;
  readonly ledgerOrder: number;
  readonly distance: number;
  readonly sharedWords: number;
}

/** Days nearest first: the day itself, then one before and one after, and so on to the window's edge. */
const WINDOW_OFFSETS = [0, ...Array.from({ length: MATCH_WINDOW_DAYS }, (_, step) => [-(step + 1), step + 1]).flat()];

/**
 * One proposal per statement row, in the rows' order. Each statement row's candidates (the open
 * ledger rows of its type and amount within the window, at most MAX_MATCH_CANDIDATES of them,
 * nearest first) are ranked (nearest date, most shared words, ledger row order), and pairs are
 * taken best first while both are free. Neither which candidates a row has nor the ranking looks
 * at the statement's order (ties between statement rows go by date, description and import id),
 * so permuting the statement permutes the proposals the same way.
 */
export function matchStatement(
  statementRows: readonly StatementRow[],
  ledgerRows: readonly LedgerRow[],
  options: MatchOptions,
): Proposal[] {
  // No count of candidates passes an unlimited budget: this always answers.
  return matchStatementWithin(statementRows, ledgerRows, options, Number.POSITIVE_INFINITY) as Proposal[];
}

/**
 * matchStatement, or undefined as soon as the statement rows' candidates pass `candidateBudget`:
 * ranking is the part of matching whose cost a file can drive up (thousands of rows of one amount
 * on one day), and a caller that would rather not pay for that where it runs hands such a file to
 * a thread of its own (decision 0114). Within the budget the proposals are matchStatement's.
 */
export function matchStatementWithin(
  statementRows: readonly StatementRow[],
  ledgerRows: readonly LedgerRow[],
  options: MatchOptions,
  candidateBudget: number,
): Proposal[] | undefined {
  // Open rows by type and amount, then by day, each day's in ledger row order, with what ranking
  // needs worked out once per row. Dates and names repeat (a ledger's rows come from a few dozen
  // schedules), so each distinct one is worked out once.
  const dayOf = remembered(toDayNumber);
  const wordsIn = remembered(wordsOf);
  const openRows = new Map<string, Map<number, OpenRow[]>>();
  [...ledgerRows].sort(compareRows).forEach((row, order) => {
    // A row no longer at the bank is no open row: the bank says it never happened (decision 0084).
    if (row.status === 'CLEARED' || !isCounted(row)) return;
    const key = matchKey(row.type, row.amount);
    const day = dayOf(row.date);
    const open = { row, order, words: wordsIn(row.name) };
    let byDay = openRows.get(key);
    if (!byDay) {
      byDay = new Map();
      openRows.set(key, byDay);
    }
    const onDay = byDay.get(day);
    if (onDay) onDay.push(open);
    else byDay.set(day, [open]);
  });

  const proposals: Proposal[] = [];
  const candidates: Candidate[] = [];
  for (const [position, statementRow] of statementRows.entries()) {
    const { index } = statementRow;
    if (options.importedIds.has(statementRow.importId)) {
      proposals.push({ index, action: 'duplicate' });
    } else if (statementRow.date < options.startDate || statementRow.date > options.endDate) {
      proposals.push({ index, action: 'outside' });
    } else {
      proposals.push({ index, action: 'new' });
      const byDay = openRows.get(matchKey(statementRow.type, statementRow.amount));
      if (byDay) addCandidates(candidates, position, byDay, dayOf(statementRow.date), () => wordsIn(statementRow.description));
      if (candidates.length > candidateBudget) return undefined;
    }
  }

  const compareStatementRows = (a: number, b: number): number => {
    const rowA = statementRows[a];
    const rowB = statementRows[b];
    if (!rowA || !rowB) return 0;
    if (rowA.date !== rowB.date) return rowA.date < rowB.date ? -1 : 1;
    return compareNames(rowA.description, rowB.description) || compareText(rowA.importId, rowB.importId);
  };
  candidates.sort(
    (a, b) =>
      a.distance - b.distance ||
      b.sharedWords - a.sharedWords ||
      a.ledgerOrder - b.ledgerOrder ||
      compareStatementRows(a.position, b.position) ||
      // Only rows with one date, description and import id get here: never two rows of one file.
      a.position - b.position,
  );
  const matchedLedgerRows = new Set<string>();
  for (const candidate of candidates) {
    const proposal = proposals[candidate.position];
    if (proposal?.action !== 'new' || matchedLedgerRows.has(candidate.ledgerRow.id)) continue;
    matchedLedgerRows.add(candidate.ledgerRow.id);
    proposals[candidate.position] = { index: proposal.index, action: 'match', matchId: candidate.ledgerRow.id };
  }
  return proposals;
}

const matchKey = (type: TransactionType, amount: Cents): string => `${type}${amount}`;

/**
 * One statement row's candidates, at most MAX_MATCH_CANDIDATES: the open rows of its type and amount
 * on its day, then a day before and after, and so on (row order is date first, so the day before
 * comes before the day after among rows as near). Its words are worked out only if it has any.
 */
function addCandidates(
  candidates: Candidate[],
  position: number,
  byDay: ReadonlyMap<number, readonly OpenRow[]>,
  day: number,
  wordsOfRow: () => ReadonlySet<string>,
): void {
  let words: ReadonlySet<string> | undefined;
  let examined = 0;
  for (const offset of WINDOW_OFFSETS) {
    for (const open of byDay.get(day + offset) ?? []) {
      if (examined === MAX_MATCH_CANDIDATES) return;
      examined += 1;
      words ??= wordsOfRow();
      candidates.push({
        position,
        ledgerRow: open.row,
        ledgerOrder: open.order,
        distance: Math.abs(offset),
        sharedWords: countShared(words, open.words),
      });
    }
  }
}

/** `compute`, remembering its answer for each text it was given; lives as long as one call. */
function remembered<K extends string, T>(compute: (text: K) => T): (text: K) => T {
  const answers = new Map<K, T>();
  return (text) => {
    let answer = answers.get(text);
    if (answer === undefined) {
      answer = compute(text);
      answers.set(text, answer);
    }
    return answer;
  };
}
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Words are runs of letters and digits, compared in lower case: "ACME CORP PAYROLL" and "Acme Paycheck" share "acme". */
export function wordsOf(text: string): ReadonlySet<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

function countShared(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared;
}

/** The user's change to one proposal. */
export interface Decision {
  readonly index: number;
  readonly action: 'match' | 'new' | 'skip';
  readonly matchId?: string;
}

/** A ledger row that becomes CLEARED, takes the statement's date, and remembers the import id. */
export interface MatchedRow {
  readonly index: number;
  readonly ledgerRowId: string;
  readonly date: IsoDate;
  readonly importId: string;
}

/** A row to add as CLEARED, named after the bank's description. */
export interface AddedRow {
  readonly index: number;
  readonly date: IsoDate;
  readonly name: string;
  readonly type: TransactionType;
  readonly amount: Cents;
  readonly importId: string;
}

export interface ImportCounts {
  readonly matched: number;
  readonly added: number;
  readonly duplicates: number;
  readonly outside: number;
  /** Rows the user chose to skip (duplicates and rows outside the ledger are counted on their own). */
  readonly skipped: number;
}

export interface ImportPlan {
  readonly matched: MatchedRow[];
  readonly added: AddedRow[];
  readonly counts: ImportCounts;
}

/**
 * The proposals with the user's decisions applied, checked. A match may name any open ledger row
 * of the same type and amount (the 5-day window only limits what is proposed: the user knows
 * when the bank was late). Rows imported before or outside the ledger can only be skipped. No
 * ledger row may end up matched twice. Throws InvalidInputError with one message per decision
 * (`decisions.<position>`) that cannot be applied.
 */
export function applyDecisions(
  proposals: readonly Proposal[],
  decisions: readonly Decision[],
  statementRows: readonly StatementRow[],
  ledgerRows: readonly LedgerRow[],
): ImportPlan {
  const ledgerById = new Map(ledgerRows.map((row) => [row.id, row]));
  const statementByIndex = new Map(statementRows.map((row) => [row.index, row]));
  const proposalByIndex = new Map(proposals.map((proposal) => [proposal.index, proposal]));
  const errors: Record<string, string> = {};
  const decided = new Map<number, { readonly decision: Decision; readonly field: string }>();

  decisions.forEach((decision, position) => {
    const field = `decisions.${position}`;
    const problem = decisionProblem(
      decision,
      proposalByIndex.get(decision.index),
      statementByIndex.get(decision.index),
      ledgerById,
      decided,
    );
    if (problem) errors[field] = problem;
    else decided.set(decision.index, { decision, field });
  });

  const plan = { matched: [] as MatchedRow[], added: [] as AddedRow[] };
  const counts = { duplicates: 0, outside: 0, skipped: 0 };
  const matchedBy = new Map<string, { readonly index: number; readonly field: string | null }>();
  for (const row of statementRows) {
    const proposal = proposalByIndex.get(row.index);
    if (!proposal) continue;
    if (proposal.action === 'duplicate' || proposal.action === 'outside') {
      counts[proposal.action === 'duplicate' ? 'duplicates' : 'outside'] += 1;
      continue;
    }
    const choice = decided.get(row.index);
    const action = choice?.decision.action ?? proposal.action;
    const matchId = choice ? choice.decision.matchId : proposal.matchId;
    if (action === 'skip') {
      counts.skipped += 1;
    } else if (action === 'new' || matchId === undefined) {
      plan.added.push({
        index: row.index,
        date: row.date,
        name: row.description,
        type: row.type,
        amount: row.amount,
        importId: row.importId,
      });
    } else {
      const earlier = matchedBy.get(matchId);
      const field = choice?.field ?? null;
      if (earlier) {
        // The message goes on the user's later decision, naming the other row it collides with.
        const ledgerRow = describe(ledgerById.get(matchId), matchId);
        const laterIsThisOne = field !== null && (earlier.field === null || decisionPosition(field) > decisionPosition(earlier.field));
        if (laterIsThisOne) errors[field] = `${ledgerRow} is already matched to row ${earlier.index}.`;
        else if (earlier.field) errors[earlier.field] = `${ledgerRow} is already matched to row ${row.index}.`;
        else errors.decisions = `${ledgerRow} is matched to rows ${earlier.index} and ${row.index}.`;
      }
      matchedBy.set(matchId, { index: row.index, field });
      plan.matched.push({ index: row.index, ledgerRowId: matchId, date: row.date, importId: row.importId });
    }
  }
  if (Object.keys(errors).length > 0) throw new InvalidInputError('Some decisions cannot be applied to this statement.', errors);
  return { ...plan, counts: { matched: plan.matched.length, added: plan.added.length, ...counts } };
}

function decisionProblem(
  decision: Decision,
  proposal: Proposal | undefined,
  statementRow: StatementRow | undefined,
  ledgerById: ReadonlyMap<string, LedgerRow>,
  decided: ReadonlyMap<number, unknown>,
): string | null {
  if (!proposal || !statementRow) return `The statement has no row ${decision.index}.`;
  if (decided.has(decision.index)) return `Row ${decision.index} has another decision.`;
  if (proposal.action === 'duplicate' && decision.action !== 'skip')
    return `Row ${decision.index} was imported before: it can only be skipped.`;
  if (proposal.action === 'outside' && decision.action !== 'skip') {
    return `Row ${decision.index} is outside the ledger's dates: it can only be skipped.`;
  }
  if (decision.action !== 'match') return decision.matchId === undefined ? null : 'Only a match names a ledger row.';
  if (decision.matchId === undefined) return `A match needs the ledger row it matches.`;
  const ledgerRow = ledgerById.get(decision.matchId);
  if (!ledgerRow) return `The ledger has no row ${decision.matchId}.`;
  if (ledgerRow.status === 'CLEARED') return `${describe(ledgerRow, decision.matchId)} is already cleared.`;
  if (!isCounted(ledgerRow)) return `${describe(ledgerRow, decision.matchId)} is no longer at the bank.`;
  if (ledgerRow.type !== statementRow.type || ledgerRow.amount !== statementRow.amount) {
    return `${describe(ledgerRow, decision.matchId)} is not a ${statementRow.type === 'C' ? 'credit' : 'debit'} of the same amount.`;
  }
  return null;
}

const decisionPosition = (field: string): number => Number(field.slice('decisions.'.length));

function describe(ledgerRow: LedgerRow | undefined, id: string): string {
  return ledgerRow ? `${ledgerRow.name} (${ledgerRow.date})` : `Ledger row ${id}`;
}
