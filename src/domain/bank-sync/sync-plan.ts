/**
 * What one sync of one bridge account does to its linked ledger (issue 37 item 4, decision 0081):
 * which rows to add, which open rows to match instead, which pending rows their postings replace,
 * which pending rows the bank stopped listing. Pure: the server reads the ledger and the bridge,
 * and applies the plan as one unit of work (ledger-write.ts), so a sync is all written or not at all.
 */
import { compareRows } from '../balances.js';
import { daysBetween, formatDate, type IsoDate } from '../calendar-date.js';
import { compareDrafts, isWithinLedger, type TransactionDraft, type TransactionType } from '../ledger.js';
import { type Cents, cents } from '../money.js';
import type { DateRange } from '../schedules.js';
import { MAX_MATCH_CANDIDATES, matchStatement } from '../statements/statement-matching.js';
import { type StatementRow, statementDescription, unnamedRowDescription } from '../statements/statement-row.js';
import type { RowChanges } from '../transaction-rules.js';
import { type BankKey, type BankLedgerRow, type BankMark, bankKeyText, type ClosedBankKey, type ClosedPending } from './bank-rows.js';
import type { BridgeAccount, BridgeTransaction } from './bridge.js';

/**
 * A pending row every sync has missed for this many days, counted from the first that missed it, is
 * "No longer at the bank" (at the first sync on or after that day).
 */
export const GONE_AFTER_DAYS = 8;

/** A posting may be this much larger than its pending amount (a tip), in percent; never smaller. */
export const TIP_PERCENT = 20;

/**
 * A posting replaces a pending transaction dated at most this many days before it. Cards post in a
 * few days and hotels and car rentals within a month; past that, a subscription's next month of
 * the same amount would take over last month's dropped pending row.
 */
export const POSTS_WITHIN_DAYS = 30;

/**
 * The days the bridge was asked about, first and last included (SimpleFIN's `end-date` is
 * exclusive: the last day asked about is the day before it). Only pending rows dated inside it can
 * be missed: a bridge asked from the 10th cannot be expected to list a pending row of the 3rd.
 */
export interface SyncWindow {
  readonly from: IsoDate;
  readonly to: IsoDate;
}

export interface BankSyncInput {
  /** The bridge account, as the protocol client read it, with the transactions of `window`. */
  readonly account: Pick<BridgeAccount, 'id' | 'name' | 'transactions'>;
  /** Every row of the linked ledger, with the bank's marks. */
  readonly rows: readonly BankLedgerRow[];
  /** The ledger's keys that never come back. */
  readonly closed: readonly ClosedBankKey[];
  readonly window: SyncWindow;
  /** The owner's today (decision 0047): when a missing pending row was first missed. */
  readonly today: IsoDate;
  /** The ledger's first and last dates: transactions outside them are not added. */
  readonly ledgerDates: DateRange;
  /**
   * Other bridge accounts linked to this same ledger now (usually none). A row keyed to a bridge
   * account that is neither this one nor one of these came through a link that is gone (the account
   * was relinked, and the bridge may list the same transactions under new ids): this account may take
   * it over. Required: two accounts linked to one ledger, each taking the other's rows, would trade
   * them back and forth at every sync.
   */
  readonly alsoLinked: ReadonlySet<string>;
  /**
   * Ids of transactions the bridge listed but the client could not read (an amount that is not
   * money): not added, but not missing either, so a pending row is never flagged for a bad amount.
   */
  readonly unreadable?: ReadonlySet<string>;
}

/** A row to add, in the ledger's row order among the others: CLEARED when posted, PAID while pending. */
export interface BankRowToAdd extends TransactionDraft {
  readonly status: 'CLEARED' | 'PAID';
  readonly bank: BankMark;
}

/**
 * Why a row changes:
 * - `matched`: a scheduled or hand-entered open row stands for a new transaction (as a statement's);
 * - `adopted`: a row of a former link stands for the same transaction listed under this account;
 * - `replaced`: a pending row stands for its posting under a new id;
 * - `posted`: a pending row posted under its own id;
 * - `listed`: a pending row the bank lists again, or lists with another amount or date;
 * - `missing`: a pending row the bank did not list, for the first time;
 * - `flagged`: a pending row the bank has not listed for GONE_AFTER_DAYS: "No longer at the bank".
 */
export type BankRowChangeKind = 'matched' | 'adopted' | 'replaced' | 'posted' | 'listed' | 'missing' | 'flagged';

/** One change to one row; no row has two in a plan. */
export interface BankRowChange {
  readonly rowId: string;
  readonly kind: BankRowChangeKind;
  /** The row's new date, name, amount and status; null when only its mark changes. */
  readonly changes: RowChanges | null;
  /** The row's mark from now on. */
  readonly bank: BankMark;
}

/** What the sync answers (`POST /api/bank-connections/{id}/sync`), summed over its accounts. */
export interface BankSyncCounts {
  readonly added: number;
  /** Open rows matched, and rows of a former link taken over. */
  readonly matched: number;
  readonly replaced: number;
  readonly flagged: number;
}

export interface BankSyncPlan {
  /** In row order, for the store to number. */
  readonly added: BankRowToAdd[];
  readonly changed: BankRowChange[];
  /** Keys to store as closed, each replacing a stored one with the same key. */
  readonly close: ClosedBankKey[];
  readonly counts: BankSyncCounts;
  /** Sentences for the user, naming the account. */
  readonly warnings: string[];
}

/** A listed transaction, read once. */
interface Listed {
  readonly key: BankKey;
  readonly text: string;
  readonly pending: boolean;
  /** The day it posted; while pending, the day it happened. */
  readonly date: IsoDate;
  readonly type: TransactionType;
  /** Unsigned: the type carries the direction. */
  readonly amount: Cents;
  readonly name: string;
}

type MarkedRow = BankLedgerRow & { readonly bank: BankMark };

/** A pending row, or a deleted pending, that a posting under a new id may stand for. */
interface PendingCandidate {
  readonly row: MarkedRow | null;
  readonly closed: ClosedBankKey | null;
  readonly key: BankKey;
  readonly date: IsoDate;
  readonly type: TransactionType;
  readonly amount: Cents;
  /** Rank among candidates: rows in ledger row order, then deleted pendings by date and key. */
  readonly order: number;
}

/** Candidates of one type, date and amount, in their order; `next` is the first not yet taken. */
interface PendingGroup {
  readonly amount: Cents;
  readonly date: IsoDate;
  readonly members: PendingCandidate[];
  next: number;
}

interface Pairing {
  readonly listed: Listed;
  readonly listedOrder: number;
  readonly group: PendingGroup;
  readonly tip: number;
  readonly days: number;
}

const isMarked = (row: BankLedgerRow): row is MarkedRow => Boolean(row.bank);

/**
 * The plan of one sync of one bridge account into its linked ledger. In order:
 * 1. A transaction whose key the ledger has, or closed, adds nothing (a sync run twice adds 0 rows);
 *    a pending row of its own posts, or is listed again, under its own id.
 * 2. A transaction outside the ledger's dates is not added (one warning says how many).
 * 3. A transaction listed under this account exactly as a row of a former link (same date, type,
 *    amount and state) takes that row over: a relinked account does not bring its history twice.
 * 4. A posted transaction under a new id replaces a pending row of this account (or of a former
 *    link) that the bank did not list though the window holds its date (or one already no longer at
 *    the bank), of the same type, posted on or after the pending date and at most POSTS_WITHIN_DAYS
 *    later, for the pending amount or up to TIP_PERCENT more. Each posting replaces one pending row and each pending row is replaced once.
 *    When several fit, pairs are taken best first: the smallest tip (the same amount first), then
 *    the fewest days between, then the pending row first in ledger row order (pendings of one date
 *    and amount are alike, taken in that order, and ranked by the first of them), then the posting
 *    first by date and id. A deleted pending comes after every row, and its posting stays deleted.
 * 5. The rest go through the statements' matching (statement-matching.ts): a scheduled or
 *    hand-entered open row of the same type and amount within its window is matched instead of
 *    adding a row; every other transaction is added. Twin purchases have two ids: two rows.
 * 6. A pending row of this account that the bank did not list (or of a former link, not taken
 *    over), dated inside the window, is missed from today; missed for GONE_AFTER_DAYS, it is flagged
 *    "No longer at the bank".
 * No row has two changes in one plan. Each posting looks at most MAX_MATCH_CANDIDATES groups of
 * alike pending rows in step 4, and step 5 is the statements' bounded matching: n log n in rows
 * and transactions, whatever their amounts.
 */
export function planBankSync(input: BankSyncInput): BankSyncPlan {
  const { account, window, today, ledgerDates } = input;
  const { alsoLinked } = input;
  const unreadable = input.unreadable ?? new Set<string>();
  const isFormer = (key: BankKey) => key.account !== account.id && !alsoLinked.has(key.account);
  const inView = (date: IsoDate) => date >= window.from && date <= window.to;
  const warnings: string[] = [];
  const changed: BankRowChange[] = [];
  const close: ClosedBankKey[] = [];
  const counts = { matched: 0, replaced: 0, flagged: 0 };

  const marked = input.rows.filter(isMarked);
  const rowByKey = new Map<string, MarkedRow>();
  for (const row of marked) {
    const text = bankKeyText(row.bank.key);
    if (!rowByKey.has(text)) rowByKey.set(text, row);
  }
  const closedByKey = new Map(input.closed.map((closed) => [bankKeyText(closed.key), closed]));

  // Each id once: a bridge that lists one twice has not made two purchases.
  const listedById = new Map<string, Listed>();
  let repeated = 0;
  for (const transaction of account.transactions) {
    if (listedById.has(transaction.id)) repeated += 1;
    else listedById.set(transaction.id, readListed(account.id, transaction));
  }
  if (repeated > 0) warnings.push(`${account.name}: the bank listed ${plural(repeated, 'transaction')} twice; each was taken once.`);

  // Step 1 and 2.
  const fresh: Listed[] = [];
  let outside = 0;
  for (const listed of listedById.values()) {
    const closed = closedByKey.get(listed.text);
    if (closed) {
      // A deleted pending that posted under its own id has had its posting: it stands for no other.
      if (closed.pending && !listed.pending) close.push({ ...closed, pending: null });
      continue;
    }
    const row = rowByKey.get(listed.text);
    if (row) {
      const change = knownRowChange(row, listed, ledgerDates);
      if (change) changed.push(change);
    } else if (isWithinLedger(listed.date, ledgerDates)) {
      fresh.push(listed);
    } else {
      outside += 1;
    }
  }
  if (outside > 0) {
    warnings.push(
      `${account.name}: ${plural(outside, 'transaction')} dated outside the ledger (${formatDate(ledgerDates.from)} to ${formatDate(ledgerDates.to)}) ${outside === 1 ? 'was' : 'were'} not added.`,
    );
  }
  // Dates, then ids: what every later tie-break reads of the bank's order, which it does not keep.
  fresh.sort((a, b) => compareText(a.date, b.date) || compareText(a.key.transaction, b.key.transaction));

  // Step 3.
  const taken = new Set<string>();
  // Each slot's rows in ledger row order, taken from the front: `next` moves, the array stays.
  const formerRows = new Map<string, { readonly rows: MarkedRow[]; next: number }>();
  for (const row of [...marked].sort(compareRows)) {
    if (!isFormer(row.bank.key)) continue;
    const slot = adoptionSlot(row.bank.state === 'posted', row.type, row.amount, row.date);
    const found = formerRows.get(slot);
    if (found) found.rows.push(row);
    else formerRows.set(slot, { rows: [row], next: 0 });
  }
  const unadopted: Listed[] = [];
  for (const listed of fresh) {
    const slot = formerRows.get(adoptionSlot(!listed.pending, listed.type, listed.amount, listed.date));
    const row = slot?.rows[slot.next];
    if (!slot || !row) {
      unadopted.push(listed);
      continue;
    }
    slot.next += 1;
    taken.add(row.id);
    counts.matched += 1;
    changed.push({
      rowId: row.id,
      kind: 'adopted',
      changes: null,
      bank: { key: listed.key, state: listed.pending ? 'pending' : 'posted', missingSince: null },
    });
  }

  // Step 4.
  // Surely not at the bank as pending any more: a row of this account the bridge did not list, or of
  // a former link (its key is listed no more), though it was asked about its date or had already
  // stopped listing it. A row dated before the window may still be pending there, under its key or,
  // relinked, under a new one.
  const notListed = (key: BankKey) =>
    isFormer(key) || (key.account === account.id && !listedById.has(key.transaction) && !unreadable.has(key.transaction));
  const goneFromBank = (key: BankKey, gone: boolean, date: IsoDate) => notListed(key) && (gone || inView(date));
  const candidates: PendingCandidate[] = [];
  for (const row of [...marked].sort(compareRows)) {
    const { key, state } = row.bank;
    if (state !== 'posted' && !taken.has(row.id) && goneFromBank(key, state === 'gone', row.date)) {
      candidates.push({ row, closed: null, key, date: row.date, type: row.type, amount: row.amount, order: candidates.length });
    }
  }
  const deletedPendings = input.closed
    .filter((closed): closed is ClosedBankKey & { pending: ClosedPending } => closed.pending !== null)
    .filter((closed) => goneFromBank(closed.key, false, closed.pending.date))
    .sort((a, b) => compareText(a.pending.date, b.pending.date) || compareText(bankKeyText(a.key), bankKeyText(b.key)));
  for (const closed of deletedPendings) {
    const { date, type, amount } = closed.pending;
    candidates.push({ row: null, closed, key: closed.key, date, type, amount, order: candidates.length });
  }
  const replacing = pairPostings(unadopted, candidates);
  const toMatch: Listed[] = [];
  for (const listed of unadopted) {
    const candidate = replacing.get(listed.text);
    if (!candidate) {
      toMatch.push(listed);
    } else if (candidate.row) {
      const { row } = candidate;
      taken.add(row.id);
      counts.replaced += 1;
      changed.push({
        rowId: row.id,
        kind: 'replaced',
        changes: { date: listed.date, name: row.name, amount: listed.amount, status: 'CLEARED' },
        bank: { key: listed.key, state: 'posted', missingSince: null },
      });
      close.push({ key: candidate.key, reason: 'replaced', pending: null });
    } else if (candidate.closed) {
      // The user deleted the purchase while it was pending: its posting stays deleted with it.
      // Named with its pending: an undo of that delete opens both keys again (decision 0086).
      close.push({ ...candidate.closed, pending: null }, { key: listed.key, reason: 'deleted', pending: null, deletedWith: candidate.key });
    }
  }

  // Step 5.
  const statementRows = toMatch.map((listed, index): StatementRow => ({
    index,
    date: listed.date,
    description: listed.name,
    type: listed.type,
    amount: listed.amount,
    importId: listed.text,
  }));
  const openRows = input.rows.filter((row) => !isMarked(row));
  const openById = new Map(openRows.map((row) => [row.id, row]));
  const proposals = matchStatement(statementRows, openRows, {
    startDate: ledgerDates.from,
    endDate: ledgerDates.to,
    importedIds: new Set(),
  });
  const added: BankRowToAdd[] = [];
  for (const proposal of proposals) {
    const listed = toMatch[proposal.index];
    if (!listed) continue;
    const bank: BankMark = { key: listed.key, state: listed.pending ? 'pending' : 'posted', missingSince: null };
    const row = proposal.action === 'match' && proposal.matchId !== undefined ? openById.get(proposal.matchId) : undefined;
    if (row) {
      counts.matched += 1;
      // A pending purchase pays an unpaid row; a paid row stays paid until the bank posts it.
      const status = listed.pending ? (row.status === 'PENDING' ? 'PAID' : row.status) : 'CLEARED';
      changed.push({ rowId: row.id, kind: 'matched', changes: { date: listed.date, name: row.name, amount: row.amount, status }, bank });
    } else {
      const { date, name, type, amount } = listed;
      added.push({ date, name, type, amount, status: listed.pending ? 'PAID' : 'CLEARED', bank });
    }
  }

  // Step 6.
  for (const row of marked) {
    const mark = row.bank;
    if (mark.state !== 'pending' || taken.has(row.id) || !goneFromBank(mark.key, false, row.date)) continue;
    if (mark.missingSince === null) {
      changed.push({ rowId: row.id, kind: 'missing', changes: null, bank: { ...mark, missingSince: today } });
    } else if (daysBetween(mark.missingSince, today) >= GONE_AFTER_DAYS) {
      counts.flagged += 1;
      changed.push({ rowId: row.id, kind: 'flagged', changes: null, bank: { ...mark, state: 'gone' } });
    }
  }

  added.sort(compareDrafts);
  return { added, changed, close, counts: { added: added.length, ...counts }, warnings };
}

function readListed(accountId: string, transaction: BridgeTransaction): Listed {
  const key = { account: accountId, transaction: transaction.id };
  const pending = transaction.pending || transaction.posted === null;
  const type: TransactionType = transaction.amount < 0 ? 'D' : 'C';
  return {
    key,
    text: bankKeyText(key),
    pending,
    date: transaction.posted ?? transaction.transactedOn,
    type,
    amount: cents(Math.abs(transaction.amount)),
    // Named as a statement's row is: one line, trimmed, at most a row name's length.
    name: statementDescription(transaction.description) || unnamedRowDescription(type),
  };
}

/** A listed transaction for a row of the ledger with its key; null when the row stays as it is. */
function knownRowChange(row: MarkedRow, listed: Listed, ledgerDates: DateRange): BankRowChange | null {
  const mark = row.bank;
  // Posted is final: what the bank posted does not move, and nothing returns to pending.
  if (mark.state === 'posted' || row.type !== listed.type) return null;
  // A date past the ledger's last day keeps the row where it is: every row stays inside the ledger.
  const date = isWithinLedger(listed.date, ledgerDates) ? listed.date : row.date;
  if (!listed.pending) {
    return {
      rowId: row.id,
      kind: 'posted',
      changes: { date, name: row.name, amount: listed.amount, status: 'CLEARED' },
      bank: { key: mark.key, state: 'posted', missingSince: null },
    };
  }
  const moved = date !== row.date || listed.amount !== row.amount;
  if (!moved && mark.state === 'pending' && mark.missingSince === null) return null;
  return {
    rowId: row.id,
    kind: 'listed',
    changes: moved ? { date, name: row.name, amount: listed.amount, status: row.status } : null,
    bank: { key: mark.key, state: 'pending', missingSince: null },
  };
}

/** Rows of a former link a listed transaction can take over: same state, type, amount and date. */
const adoptionSlot = (posted: boolean, type: TransactionType, amount: Cents, date: IsoDate): string =>
  `${posted ? 'posted' : 'pending'} ${type}${amount} ${date}`;

/**
 * Which pending candidate each posted transaction replaces, by key text (step 4 of planBankSync).
 * Candidates of one type, date and amount are one group (alike for every posting), taken in their
 * order; groups are sorted by amount, then date, so a posting's fitting groups lie just below its
 * own amount and date, and it looks back from there at no more than MAX_MATCH_CANDIDATES groups.
 * Thousands of pending rows of one amount on one day are one group, all of them replaceable.
 */
function pairPostings(listed: readonly Listed[], candidates: readonly PendingCandidate[]): Map<string, PendingCandidate> {
  const byType = new Map<TransactionType, PendingGroup[]>();
  const sorted = [...candidates].sort((a, b) => a.amount - b.amount || compareText(a.date, b.date) || a.order - b.order);
  for (const candidate of sorted) {
    let groups = byType.get(candidate.type);
    if (!groups) {
      groups = [];
      byType.set(candidate.type, groups);
    }
    const last = groups.at(-1);
    if (last && last.amount === candidate.amount && last.date === candidate.date) last.members.push(candidate);
    else groups.push({ amount: candidate.amount, date: candidate.date, members: [candidate], next: 0 });
  }

  const pairings: Pairing[] = [];
  listed.forEach((posting, listedOrder) => {
    const groups = byType.get(posting.type);
    if (posting.pending || !groups) return;
    let examined = 0;
    for (let index = lastNotAfter(groups, posting.amount, posting.date); index >= 0; index -= 1) {
      const group = groups[index];
      // Smaller amounts only from here on: once one is too small for a tip, so is every one after it.
      if (!group || group.amount * (100 + TIP_PERCENT) < posting.amount * 100) break;
      if (examined === MAX_MATCH_CANDIDATES) break;
      examined += 1;
      const days = daysBetween(group.date, posting.date);
      if (days < 0 || days > POSTS_WITHIN_DAYS) continue;
      pairings.push({ listed: posting, listedOrder, group, tip: posting.amount - group.amount, days });
    }
  });
  pairings.sort(
    (a, b) =>
      a.tip - b.tip ||
      a.days - b.days ||
      (a.group.members[0]?.order ?? 0) - (b.group.members[0]?.order ?? 0) ||
      a.listedOrder - b.listedOrder,
  );

  const replacing = new Map<string, PendingCandidate>();
  for (const pairing of pairings) {
    const candidate = pairing.group.members[pairing.group.next];
    if (!candidate || replacing.has(pairing.listed.text)) continue;
    pairing.group.next += 1;
    replacing.set(pairing.listed.text, candidate);
  }
  return replacing;
}

/** The index of the last group whose amount and date are at most these, or -1. */
function lastNotAfter(sorted: readonly PendingGroup[], amount: Cents, date: IsoDate): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const group = sorted[middle] as PendingGroup;
    if (group.amount < amount || (group.amount === amount && group.date <= date)) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A ledger's rows and closed keys, as the sync reads them and the server stores them. */
export interface BankLedgerState {
  readonly rows: readonly BankLedgerRow[];
  readonly closed: readonly ClosedBankKey[];
}

/**
 * The ledger with the plan applied, as the server's one unit of work stores it: what a plan means,
 * for the tests' ledgers and for an answer that shows the ledger after a sync without reading it
 * again. Added rows are numbered after the ledger's last one, in the plan's order.
 */
export function applyBankSyncPlan(
  ledger: BankLedgerState,
  plan: BankSyncPlan,
  newId: (position: number) => string,
): { rows: BankLedgerRow[]; closed: ClosedBankKey[] } {
  const changes = new Map(plan.changed.map((change) => [change.rowId, change]));
  const rows: BankLedgerRow[] = ledger.rows.map((row) => {
    const change = changes.get(row.id);
    return change ? { ...row, ...change.changes, bank: change.bank } : row;
  });
  let sequence = 0;
  for (const row of ledger.rows) sequence = Math.max(sequence, row.sequence);
  plan.added.forEach(({ date, name, type, amount, status, bank }, position) => {
    sequence += 1;
    rows.push({ id: newId(position), sequence, date, name, type, amount, status, bank });
  });
  const closed = new Map(ledger.closed.map((key) => [bankKeyText(key.key), key]));
  for (const key of plan.close) closed.set(bankKeyText(key.key), key);
  return { rows, closed: [...closed.values()] };
}

/**
 * The first day the next sync of this bridge account must ask about so that every pending row it
 * judges (its own, and those of former links) can be missed if the bank dropped it: the oldest one
 * still pending, or null when none is. The scheduler starts its window no later than this (and than
 * its own start, the last sync less 5 days): a row dated before the window is never judged missing,
 * nor replaced by its posting. `alsoLinked` as planBankSync takes it.
 */
export function oldestPendingDate(
  rows: readonly BankLedgerRow[],
  bridgeAccountId: string,
  alsoLinked: ReadonlySet<string>,
): IsoDate | null {
  let oldest: IsoDate | null = null;
  for (const row of rows) {
    const mark = row.bank;
    // Another account linked to this ledger judges its own rows.
    if (mark?.state !== 'pending' || (mark.key.account !== bridgeAccountId && alsoLinked.has(mark.key.account))) continue;
    if (oldest === null || row.date < oldest) oldest = row.date;
  }
  return oldest;
}
