/**
 * The ledger: a projected check register. Rows come from deposits and expenses (or are added by
 * hand); every balance is derived here from the rows, never stored or updated row by row.
 */
import { type IsoDate } from './calendar-date.js';
import { type Cents } from './money.js';
import { compareNames } from './names.js';
import {
  type DateRange,
  depositPaydays,
  type DepositSchedule,
  expenseDueDates,
  type ExpenseSchedule,
  MAX_SCHEDULE_NAME_LENGTH,
} from './schedules.js';

export const TRANSACTION_TYPES = ['D', 'C'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const TRANSACTION_STATUSES = ['PENDING', 'PAID', 'CLEARED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const MAX_LEDGER_YEARS = 5;
const PAYCHECK_SUFFIX = 'Paycheck';
/** A row name: any deposit name with " Paycheck" added must still fit. */
export const MAX_TRANSACTION_NAME_LENGTH = MAX_SCHEDULE_NAME_LENGTH + ` ${PAYCHECK_SUFFIX}`.length;

export interface TransactionDraft {
  readonly date: IsoDate;
  readonly name: string;
  readonly type: TransactionType;
  readonly amount: Cents;
}

export const SCHEDULE_KINDS = ['deposit', 'expense'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];

/** A deposit or an expense, by kind and id. */
export interface ScheduleRef {
  readonly kind: ScheduleKind;
  readonly id: string;
}

/**
 * What a generated row is projected from: a deposit, an expense, or a credit card's statements
 * (decision 0045: `card`, the card account's id, each occurrence a statement's closing date).
 */
export const SOURCE_KINDS = [...SCHEDULE_KINDS, 'card'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export interface SourceRef {
  readonly kind: SourceKind;
  readonly id: string;
}

/** One occurrence of a schedule (or a card's statement): the date it put the row on, whatever date the row has now. */
export interface Occurrence extends SourceRef {
  readonly occurrence: IsoDate;
}

/** Where a generated row came from; `edited` once the user changed its date, name or amount. */
export interface RowSource extends Occurrence {
  readonly edited: boolean;
}

/** The other side of a transfer between two of the user's accounts: its row and its account (decision 0043). */
export interface TransferLink {
  readonly id: string;
  readonly accountId: string;
}

/**
 * Where the bank stands on a row's transaction (issue 37, decision 0081, bank-sync/bank-rows.ts):
 * - `posted`: the bank posted it (the row is CLEARED);
 * - `pending`: the bank lists it as pending (the row is PAID, "Pending at the bank");
 * - `gone`: it was pending and the bank stopped listing it for GONE_AFTER_DAYS without posting it
 *   ("No longer at the bank"): the row stops counting in every balance and stays until the user
 *   deletes it.
 */
export const BANK_STATES = ['posted', 'pending', 'gone'] as const;
export type BankState = (typeof BANK_STATES)[number];

/**
 * Where the bank stands on a row a bank sync wrote or matched, as the balances and the page read it;
 * the server's rows carry the whole mark (BankMark, decision 0081), the page's what the badge says.
 */
export interface BankStanding {
  readonly state: BankState;
}

export interface LedgerRow extends TransactionDraft {
  readonly id: string;
  readonly status: TransactionStatus;
  /** Creation order within the ledger: the last tie-breaker of row order. */
  readonly sequence: number;
  /** The schedule occurrence a generated row stands for; null (or absent) for a row added by hand. */
  readonly source?: RowSource | null;
  /** The other side, for one side of a transfer; null (or absent) for every other row. */
  readonly transfer?: TransferLink | null;
  /** Where the bank stands on a row a bank sync wrote or matched (issue 37); null (or absent) for every other row. */
  readonly bank?: BankStanding | null;
}

export interface LedgerRowWithBalance extends LedgerRow {
  readonly source: RowSource | null;
  readonly transfer: TransferLink | null;
  readonly bank: BankStanding | null;
  readonly balance: Cents;
}

export interface LedgerBalances {
  readonly currentBalance: Cents;
  readonly pendingBalance: Cents;
  readonly rows: LedgerRowWithBalance[];
}

/** A paycheck row opens a pay period; the suffix is added once, never doubled. */
export function paycheckName(depositName: string): string {
  return isPaycheckName(depositName) ? depositName : `${depositName} ${PAYCHECK_SUFFIX}`;
}

export function isPaycheckName(name: string): boolean {
  return name.endsWith(PAYCHECK_SUFFIX);
}

export interface NamedDeposit extends DepositSchedule {
  readonly name: string;
}

export interface NamedExpense extends ExpenseSchedule {
  readonly name: string;
}

/** Every paycheck and bill between the dates, inclusive, already in row order. */
export function generateLedgerDrafts(
  deposits: readonly NamedDeposit[],
  expenses: readonly NamedExpense[],
  range: DateRange,
): TransactionDraft[] {
  const drafts: TransactionDraft[] = [];
  for (const deposit of deposits) {
    const name = paycheckName(deposit.name);
    for (const date of depositPaydays(deposit, range)) {
      drafts.push({ date, name, type: 'C', amount: deposit.amount });
    }
  }
  for (const expense of expenses) {
    for (const date of expenseDueDates(expense, range)) {
      drafts.push({ date, name: expense.name, type: 'D', amount: expense.amount });
    }
  }
  // Stable sort: equal rows keep deposit-then-expense input order, which becomes creation order.
  return drafts.sort(compareDrafts);
}

/** What row order reads of a row, besides its creation order. */
export type DraftOrderKey = Pick<TransactionDraft, 'date' | 'type' | 'name'>;

/** Row order without creation order: date; on one date credits before debits; then name. */
export function compareDrafts(a: DraftOrderKey, b: DraftOrderKey): number {
  if (a.date !== b.date) return a.date < b.date ? -1 : 1;
  // On one date money comes in before it goes out: a payday covers that day's bills.
  if (a.type !== b.type) return a.type === 'C' ? -1 : 1;
  return compareNames(a.name, b.name);
}

export function signedAmount(row: Pick<TransactionDraft, 'type' | 'amount'>): number {
  return row.type === 'C' ? row.amount : -row.amount;
}

/**
 * Whether a row counts in the balances: every row but one the bank no longer lists (issue 37,
 * decision 0084). The one rule every sum of rows reads, through countedAmount: the running,
 * current and pending balances, month totals, row blocks, the forecast and safe to spend.
 */
export function isCounted(row: Pick<LedgerRow, 'bank'>): boolean {
  return row.bank?.state !== 'gone';
}

/** What a sum of rows reads of a row: its type and amount, and where the bank stands on it. */
export type CountedRow = Pick<LedgerRow, 'type' | 'amount' | 'bank'>;

/** What a row adds to every balance: its signed amount, or nothing for a row that does not count (isCounted). */
export function countedAmount(row: CountedRow): number {
  return isCounted(row) ? signedAmount(row) : 0;
}

/** Status only moves forward: PENDING -> PAID -> CLEARED, or PENDING -> CLEARED. */
export function isAllowedStatusMove(from: TransactionStatus, to: TransactionStatus): boolean {
  if (from === to) return true;
  if (from === 'PENDING') return to === 'PAID' || to === 'CLEARED';
  if (from === 'PAID') return to === 'CLEARED';
  return false;
}

export function canPay(status: TransactionStatus): boolean {
  return status === 'PENDING';
}

export function canClear(status: TransactionStatus): boolean {
  return status !== 'CLEARED';
}

/** Date, name and amount are only editable before the row is paid. */
export function canEdit(status: TransactionStatus): boolean {
  return status === 'PENDING';
}

export function isWithinLedger(date: IsoDate, range: DateRange): boolean {
  return date >= range.from && date <= range.to;
}
