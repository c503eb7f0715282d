/**
 * Credit-card payments (issue 25 item 4, decision 0045): when a card's statements close, when each
 * is due, and what each payment is. A card's ledger runs negative while the card is owed; a
 * statement owes what the ledger owes at the end of its closing day, and the payment under the
 * card's rule is projected on the due day after it, as a transfer from the card's Pay From account.
 * Pure functions over the card's rows.
 */
import type { CardRule } from './accounts.js';
import { daysInMonth, fromParts, type IsoDate, yearMonthOf } from './calendar-date.js';
import { countedAmount, type CountedRow, type TransactionDraft } from './ledger.js';
import { type Cents, cents } from './money.js';
import type { DateRange } from './schedules.js';

/** What decides a card's payments: its statement closing day, due day, rule and the rule's amount. */
export interface CardPaymentRule {
  /** 1-31; the month's last day in a shorter month. */
  readonly closingDay: number;
  /** 1-31; the month's last day in a shorter month. */
  readonly dueDay: number;
  readonly rule: CardRule;
  /** What MINIMUM and FIXED pay at most; null under STATEMENT. */
  readonly amount: Cents | null;
}

/** One statement: the day it closes, and the day its payment is due. */
export interface Statement {
  readonly closing: IsoDate;
  readonly due: IsoDate;
}

/** A payment the card's rule asks for: its statement's dates and the amount. */
export interface CardPayment extends Statement {
  readonly amount: Cents;
}

/** The name both sides of a card's payment carry, as the warning says it ("when Visa payment is due"). */
export function cardPaymentName(cardName: string): string {
  return `${cardName} payment`;
}

/** The statement month a closing date belongs to ("2026-12"): a card closes one statement a month. */
export function statementMonth(closing: IsoDate): string {
  return closing.slice(0, 7);
}

/** The day of the month in that month, or its last day when the month is shorter (as monthly bills fall). */
function dayOfMonth(year: number, month: number, day: number): IsoDate {
  return fromParts(year, month, Math.min(day, daysInMonth(year, month)));
}

/** The month after, or undefined after December 9999: no date follows 9999-12-31. */
function monthAfter(year: number, month: number): { year: number; month: number } | undefined {
  if (month < 12) return { year, month: month + 1 };
  return year < 9999 ? { year: year + 1, month: 1 } : undefined;
}

/**
 * The statements that close within the range, in order, each with its due date: the first day
 * after the closing date that falls on the due day (clamped to the month's last day), and never
 * later than the next closing date, so each payment is in the next statement. (Only a clamped
 * closing day can put it later: closing on the 30th and due on the 31st, February's statement
 * closes on the 28th and would fall due on March 31st, after March's closes on the 30th.)
 * A statement whose due date would lie past 9999-12-31 is left out.
 */
export function cardStatements(card: Pick<CardPaymentRule, 'closingDay' | 'dueDay'>, range: DateRange): Statement[] {
  const statements: Statement[] = [];
  if (range.to < range.from) return statements;
  const last = yearMonthOf(range.to);
  let at: { year: number; month: number } | undefined = yearMonthOf(range.from);
  while (at !== undefined && (at.year < last.year || (at.year === last.year && at.month <= last.month))) {
    const closing = dayOfMonth(at.year, at.month, card.closingDay);
    const next = monthAfter(at.year, at.month);
    if (closing >= range.from && closing <= range.to) {
      const sameMonth = dayOfMonth(at.year, at.month, card.dueDay);
      const due = sameMonth > closing ? sameMonth : next && dayOfMonth(next.year, next.month, card.dueDay);
      const nextClosing = next && dayOfMonth(next.year, next.month, card.closingDay);
      if (due !== undefined) statements.push({ closing, due: nextClosing !== undefined && nextClosing < due ? nextClosing : due });
    }
    at = next;
  }
  return statements;
}

/** What a card balance owes: its absolute value while negative, nothing while it is $0 or in credit. */
export function amountOwed(balance: Cents): Cents {
  return balance < 0 ? cents(-balance) : cents(0);
}

/**
 * A statement's payment under the card's rule: the statement balance, or the rule's amount when
 * the statement owes more (MINIMUM and FIXED never pay more than is owed).
 */
export function paymentUnderRule(card: Pick<CardPaymentRule, 'rule' | 'amount'>, owed: Cents): Cents {
  if (card.rule === 'STATEMENT' || card.amount === null) return owed;
  return cents(Math.min(card.amount, owed));
}

export interface CardPaymentsInput {
  readonly card: CardPaymentRule;
  /** The card ledger's opening balance. */
  readonly openingBalance: Cents;
  /**
   * Every row of the card's ledger but the open payments about to be projected afresh: charges,
   * credits, and the payments that stand (paid, cleared, edited or past), in any order.
   */
  readonly rows: readonly (Pick<TransactionDraft, 'date'> & CountedRow)[];
  /** The card ledger's dates: only statements that close within them are known to it. */
  readonly span: DateRange;
  /** Statement months (statementMonth) whose payment already stands or was deleted by the user: none is projected for them. */
  readonly filled: ReadonlySet<string>;
  /** The due dates a payment may be projected on: where both ledgers reach, from the first day a change may touch. */
  readonly reach: DateRange;
}

/**
 * The payments to project, in date order: for each statement closing within the card's span whose
 * month is not filled and whose due date lies within reach, the rule's payment of what the card
 * owes at the end of its closing day (its opening balance, every row dated on or before it, and
 * the payments due by then, those projected here included), when that is more than $0. Sorts the
 * rows once: n log n in the rows, linear in the statements.
 */
export function projectCardPayments({ card, openingBalance, rows, span, filled, reach }: CardPaymentsInput): CardPayment[] {
  const payments: CardPayment[] = [];
  if (reach.from > reach.to) return payments;
  // A card row no longer at the bank is owed to nobody (isCounted).
  const ordered = rows.map((row) => ({ date: row.date, signed: countedAmount(row) }));
  ordered.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  let balance: number = openingBalance;
  let next = 0;
  // Projected payments not yet counted: each is due after its own closing, so counted at a later one.
  let counted = 0;
  for (const statement of cardStatements(card, span)) {
    for (; next < ordered.length && (ordered[next] as { date: IsoDate }).date <= statement.closing; next += 1) {
      balance += (ordered[next] as { signed: number }).signed;
    }
    for (; counted < payments.length && (payments[counted] as CardPayment).due <= statement.closing; counted += 1) {
      balance += (payments[counted] as CardPayment).amount;
    }
    if (filled.has(statementMonth(statement.closing)) || statement.due < reach.from || statement.due > reach.to) continue;
    const amount = paymentUnderRule(card, amountOwed(cents(balance)));
    if (amount > 0) payments.push({ ...statement, amount });
  }
  return payments;
}

/**
 * The first row dated today or later after which the card owes more than its credit limit (its
 * balance is negative while it is owed), or null; `rows` in row order with their running balances.
 */
export function firstOverLimit<Row extends { readonly date: IsoDate; readonly balance: Cents }>(
  rows: readonly Row[],
  today: IsoDate,
  creditLimit: Cents,
): Row | null {
  return rows.find((row) => row.date >= today && -row.balance > creditLimit) ?? null;
}
