/**
 * What a ledger keeps about the rows a bank sync wrote (issue 37, decision 0081): which bridge
 * transaction a row stands for, whether the bank still calls it pending, and which bridge
 * transactions the user deleted. The sync plan (sync-plan.ts) reads these and says how they change;
 * the server stores them beside the rows.
 */
import type { IsoDate } from '../calendar-date.js';
import { type BankStanding, type BankState, isCounted, type LedgerRow, type TransactionType } from '../ledger.js';
import type { Cents } from '../money.js';

/**
 * A bridge transaction's identity: SimpleFIN makes a transaction id unique within its account only,
 * so the bridge account's id is half of the key. Not the connection's id: a user who reconnects the
 * same bridge gets the same account ids, and must not get every row twice.
 */
export interface BankKey {
  /** The bridge account's id (BridgeAccount.id). */
  readonly account: string;
  /** The transaction's id within that account (BridgeTransaction.id). */
  readonly transaction: string;
}

/**
 * One text per key, for maps and sets (and a stored unique index): the account id's length first,
 * so no account id and transaction id can run together into another pair's text.
 */
export function bankKeyText(key: BankKey): string {
  return `${key.account.length}:${key.account}:${key.transaction}`;
}

/** The mark a row carries once a bank sync wrote it or matched it; stored with the row. */
export interface BankMark {
  readonly key: BankKey;
  readonly state: BankState;
  /**
   * The first day a sync that could have seen this pending transaction did not list it; null while
   * the bank lists it (and for a posted one). Counting from the first sync that missed it, not from
   * the last that saw it: a connection that could not sync for a week has not seen anything go.
   */
  readonly missingSince: IsoDate | null;
}

/** A ledger row as the sync plan reads it: the bank's mark on rows that came from (or were matched to) the bank. */
export interface BankLedgerRow extends LedgerRow {
  /** Null (or absent) for a row the bank never touched: scheduled, added by hand, or imported from a statement. */
  readonly bank?: BankMark | null;
}

/** Why a bank key is closed (ClosedBankKey). */
export const CLOSED_BANK_KEY_REASONS = ['deleted', 'replaced'] as const;

/**
 * A bridge transaction that never comes back into this ledger (stored per ledger, unique by key):
 * - `deleted`: the user deleted its row;
 * - `replaced`: it was pending, and its row now stands for its posting under a new id, so the bank
 *   listing the pending id once more (bridges do, for a day) must not bring a second row.
 */
export interface ClosedBankKey {
  readonly key: BankKey;
  readonly reason: (typeof CLOSED_BANK_KEY_REASONS)[number];
  /**
   * For a row deleted while still pending (or no longer at the bank): what it was, so that its
   * posting under a new id is known as the same purchase and stays deleted too. Null once that
   * posting came (it is then closed itself), and for every other key.
   */
  readonly pending: ClosedPending | null;
  /**
   * On a posting closed because the user had deleted its pending under another id: that pending's
   * key. An undo of the delete puts the pending row back and opens both keys, so the next sync finds
   * the posting and replaces the row with it (decision 0086). Absent on every other key.
   */
  readonly deletedWith?: BankKey | null;
}

export interface ClosedPending {
  readonly date: IsoDate;
  readonly type: TransactionType;
  readonly amount: Cents;
}

/**
 * Whether a row counts in the ledger's balances (running, current, pending, month totals, the
 * forecast), by its mark: isCounted's rule (ledger.ts), every row but one the bank no longer lists.
 * What the row claimed never left or reached the account, yet the user keeps it in view until they
 * delete it.
 */
export function countsInBalances(row: Pick<BankLedgerRow, 'bank'>): boolean {
  return isCounted(row);
}

/** What the page shows beside a bank row the bank still calls pending, or no longer lists: the words. */
export const BANK_BADGES = ['Pending at the bank', 'No longer at the bank'] as const;
export type BankBadge = (typeof BANK_BADGES)[number];

/** The badge of a row in this state; null for a posted row and a row the bank never touched. */
export function badgeOfState(state: BankState | null | undefined): BankBadge | null {
  switch (state) {
    case 'pending':
      return BANK_BADGES[0];
    case 'gone':
      return BANK_BADGES[1];
    default:
      return null;
  }
}

/**
 * Where the bank stands, as a badge says it: the page knows a row's bank state by its badge alone
 * (a posted row has none, and counts as a row the bank never touched does).
 */
export function bankOfBadge(badge: BankBadge | undefined): BankStanding | null {
  if (badge === BANK_BADGES[0]) return { state: 'pending' };
  return badge === BANK_BADGES[1] ? { state: 'gone' } : null;
}

/** What the page shows beside a bank row: the words. */
export function bankBadge(row: Pick<BankLedgerRow, 'bank'>): BankBadge | null {
  return badgeOfState(row.bank?.state);
}

/**
 * What deleting a row the bank wrote (or matched) leaves behind so the bank never brings it back;
 * null for a row the bank never touched. One deleted while pending keeps what it was, so that its
 * posting under a new id stays deleted with it.
 */
export function closedOnDelete(row: BankLedgerRow): ClosedBankKey | null {
  const mark = row.bank;
  if (!mark) return null;
  const pending = mark.state === 'posted' ? null : { date: row.date, type: row.type, amount: row.amount };
  return { key: mark.key, reason: 'deleted', pending };
}
