/**
 * Everyday spending on a card (issue 36 item 2, decision 0101): "a card is allowed: then its
 * projected statement payments include it". Everyday spending is never stored as rows (decision
 * 0075), so neither is its share of a payment: the stored open payments stand as projected, and a
 * read of either side (the card, its Pay From account) counts each statement's share on top, the
 * way the forecast counts everyday spending itself. Pure functions over the card's stored rows.
 */
import { type CardPaymentRule, cardStatements, projectCardPayments, statementMonth } from './card-payments.js';
import { type IsoDate, maxDate } from './calendar-date.js';
import type { ForecastRow } from './forecast.js';
import { compareDrafts, type LedgerRow, type SourceKind, type TransactionStatus } from './ledger.js';
import { type Cents, cents } from './money.js';
import { everydayThrough, type OutlookLedger } from './safe-to-spend.js';
import type { DateRange } from './schedules.js';

/** One statement's payment share of everyday spending: what its payment rises by, due on `due`. */
export interface EverydayCardShare {
  readonly closing: IsoDate;
  readonly due: IsoDate;
  readonly amount: Cents;
}

export interface CardEverydayInput {
  readonly cardId: string;
  readonly card: CardPaymentRule;
  /** The card's ledger. */
  readonly ledger: OutlookLedger;
  /** Every stored row of the card's ledger, its payments' credits included, in any order. */
  readonly rows: readonly LedgerRow[];
  /** The Pay From account's ledger dates: a payment has two sides, so only due dates both ledgers reach count. */
  readonly payLedger: DateRange;
  readonly today: IsoDate;
  /** Everyday spending a week out of the card. */
  readonly weekly: Cents;
  /** Statement closing dates whose payment the user deleted (on either side): nothing is projected for them. */
  readonly skipped: ReadonlySet<IsoDate>;
}

/** An open payment of the card: projected, unpaid, never edited, due from `from` on (as the writes re-project them). */
function isOpenPayment(row: LedgerRow, cardId: string, from: IsoDate): boolean {
  return row.source?.kind === 'card' && row.source.id === cardId && row.status === 'PENDING' && !row.source.edited && row.date >= from;
}

/**
 * Each statement's share of everyday spending: what the card's rule pays at each statement with the
 * everyday spending of its period charged on its closing day (tomorrow on, never past the card
 * ledger's end), less what it pays without it. Only statements the writes would project now count
 * (not filled by a payment that stands or was deleted, due where both ledgers reach, from today
 * on). Nothing when the weekly amount is $0. Linear in the rows and the statements, after a sort.
 */
export function everydayCardShares(input: CardEverydayInput): EverydayCardShare[] {
  const { cardId, card, ledger, rows, payLedger, today, weekly, skipped } = input;
  if (weekly <= 0) return [];
  const overlap = { from: maxDate(ledger.startDate, payLedger.from), to: ledger.endDate < payLedger.to ? ledger.endDate : payLedger.to };
  const openFrom = maxDate(today, overlap.from);
  const filled = new Set([...skipped].map(statementMonth));
  const base: LedgerRow[] = [];
  for (const row of rows) {
    if (isOpenPayment(row, cardId, openFrom)) continue;
    base.push(row);
    if (row.source?.kind === 'card' && row.source.id === cardId) filled.add(statementMonth(row.source.occurrence));
  }
  const span = { from: ledger.startDate, to: ledger.endDate };
  // The period's everyday spending is owed at its statement's closing: a charge on that day is all the rule reads.
  const charges: { date: IsoDate; type: 'D'; amount: Cents }[] = [];
  let spent: Cents = cents(0);
  for (const statement of cardStatements(card, span)) {
    const through = everydayThrough(weekly, today, ledger.endDate, statement.closing);
    if (through > spent) charges.push({ date: statement.closing, type: 'D', amount: cents(through - spent) });
    spent = through;
  }
  if (charges.length === 0) return [];
  const common = { card, openingBalance: ledger.openingBalance, span, filled, reach: { from: openFrom, to: overlap.to } };
  const without = new Map(projectCardPayments({ ...common, rows: base }).map((payment) => [payment.closing, payment.amount]));
  const shares: EverydayCardShare[] = [];
  for (const payment of projectCardPayments({ ...common, rows: [...base, ...charges] })) {
    const amount = payment.amount - (without.get(payment.closing) ?? 0);
    if (amount > 0) shares.push({ closing: payment.closing, due: payment.due, amount: cents(amount) });
  }
  return shares;
}

/**
 * One side's rows with the shares counted, never stored: a statement's open payment row (the card's
 * credit, or the Pay From account's debit) rises by its share; a statement with no open row (nothing
 * owed without everyday spending) gets a row of its own named `name`, after every stored row.
 * Rows in, rows out, in the same order; the added ones last.
 */
export function withEverydayShares(
  rows: readonly LedgerRow[],
  cardId: string,
  side: 'C' | 'D',
  name: string,
  shares: readonly EverydayCardShare[],
): LedgerRow[] {
  if (shares.length === 0) return [...rows];
  const byClosing = new Map(shares.map((share) => [share.closing, share]));
  const counted = new Set<IsoDate>();
  let sequence = 0;
  const out = rows.map((row) => {
    sequence = Math.max(sequence, row.sequence);
    const share = row.source?.kind === 'card' && row.source.id === cardId ? byClosing.get(row.source.occurrence) : undefined;
    if (!share || row.type !== side || row.status !== 'PENDING' || row.source?.edited || row.date !== share.due) return row;
    counted.add(share.closing);
    return { ...row, amount: cents(row.amount + share.amount) };
  });
  for (const share of shares) {
    if (counted.has(share.closing)) continue;
    sequence += 1;
    out.push({
      id: `everyday-${share.closing}`,
      sequence,
      date: share.due,
      name,
      type: side,
      amount: share.amount,
      status: 'PENDING',
      source: { kind: 'card', id: cardId, occurrence: share.closing, edited: false },
      transfer: null,
    });
  }
  return out;
}

/** A card's shares as a read of one side hands them on (the Ledger view's window, decision 0101): whose, which side, and the name of an added row. */
export interface CardEverydayShares {
  readonly cardId: string;
  readonly side: 'C' | 'D';
  readonly name: string;
  readonly shares: readonly EverydayCardShare[];
}

/** A row in row order with its running balance, as the page holds it: enough to find a card's open payment. */
export interface ShareableRow extends ForecastRow {
  readonly status: TransactionStatus;
  readonly source: { readonly kind: SourceKind; readonly id: string; readonly occurrence: string; readonly edited: boolean } | null;
}

/**
 * withEverydayShares over rows already in row order with their running balances (the page's whole
 * ledger, which has no creation order to sort by): each open payment rises by its share, a missing one
 * goes in where row order puts it (after the rows of its date, type and name, as a row made last
 * would), and every balance after it carries what the shares took so far. Linear after a sort of the shares.
 */
export function weighedInOrder(
  openingBalance: Cents,
  rows: readonly ShareableRow[],
  { cardId, side, name, shares }: CardEverydayShares,
): ForecastRow[] {
  if (shares.length === 0) return [...rows];
  const sign = side === 'C' ? 1 : -1;
  const byClosing = new Map(shares.map((share) => [share.closing as string, share]));
  const shareOf = (row: ShareableRow) => {
    const source = row.source;
    if (source?.kind !== 'card' || source.id !== cardId || source.edited || row.type !== side || row.status !== 'PENDING') return undefined;
    const share = byClosing.get(source.occurrence);
    return share?.due === row.date ? share : undefined;
  };
  const counted = new Set<string>();
  for (const row of rows) {
    const share = shareOf(row);
    if (share) counted.add(share.closing);
  }
  const added = shares
    .filter((share) => !counted.has(share.closing))
    .map((share) => ({ date: share.due, name, type: side, amount: share.amount }))
    .sort(compareDrafts);
  const out: ForecastRow[] = [];
  let stored: number = openingBalance;
  let moved = 0;
  let next = 0;
  const addBefore = (row: ShareableRow | undefined) => {
    for (; next < added.length; next += 1) {
      const draft = added[next] as (typeof added)[number];
      if (row !== undefined && compareDrafts(draft, row) >= 0) return;
      moved += sign * draft.amount;
      out.push({ ...draft, balance: cents(stored + moved), source: { kind: 'card' } });
    }
  };
  for (const row of rows) {
    addBefore(row);
    const share = shareOf(row);
    if (share) {
      moved += sign * share.amount;
      out.push({ ...row, amount: cents(row.amount + share.amount), balance: cents(row.balance + moved) });
    } else out.push(moved === 0 ? row : { ...row, balance: cents(row.balance + moved) });
    stored = row.balance;
  }
  addBefore(undefined);
  return out;
}
