/**
 * What Leftover tells a user today (issue 26, decision 0051): pure rules over their accounts'
 * ledgers (rows in row order with running balances), their today and what they were told before.
 * The server fans each planned message out to the user's channels and records it before sending;
 * what is planned here is only today's, so a server that was down sends what is still true, never
 * a backlog.
 *
 * - "Before my balance goes below $0": the first day an account's forecast shows it going below
 *   $0 within the next 14 days (a notice), and again the day before that date (a reminder) when
 *   the notice went out on an earlier day. A shortfall is its account and date: the same account
 *   going below $0 on the same date again is the one the user was told of; another date is a new one.
 * - "Bills due tomorrow": one message listing tomorrow's unpaid debits of every account.
 */
import { addDays, formatDate, type IsoDate } from './calendar-date.js';
import type { BalancePoint } from './forecast.js';
import type { LedgerRowWithBalance } from './ledger.js';
import { type Cents, cents, formatUsd } from './money.js';
import { forecastOutlook, type OutlookLedger, type OutlookPoint } from './safe-to-spend.js';

/** How far ahead a shortfall is told: the same 14 days Home lists. */
export const SHORTFALL_WINDOW_DAYS = 14;
/** The most bills one "due tomorrow" message lists by name; the rest are counted. */
export const MAX_LISTED_BILLS = 20;

export type PlannedKind = 'BELOW_ZERO' | 'BILLS_DUE';
/** A shortfall's first message, its day-before reminder, or tomorrow's bills. */
export type Occasion = 'notice' | 'reminder' | 'bills';

export interface PlannerAccount {
  readonly id: string;
  readonly name: string;
  /** A card's balance is what is owed, not money that can run out: it is not warned of. */
  readonly warnBelowZero: boolean;
  /** Its ledger's rows in row order with running balances; none while it has no ledger. */
  readonly rows: readonly Pick<LedgerRowWithBalance, 'date' | 'name' | 'type' | 'amount' | 'balance' | 'status' | 'source'>[];
  /** Its ledger's dates and opening balance: what everyday spending is counted over (issue 36). */
  readonly ledger?: OutlookLedger;
  /** Everyday spending a week out of this account; absent or 0 when off. */
  readonly everydayWeekly?: Cents;
}

export interface PlanInput {
  /** The user's today, in their zone. */
  readonly today: IsoDate;
  readonly belowZero: boolean;
  readonly billsDue: boolean;
  readonly accounts: readonly PlannerAccount[];
  /** Shortfalls told of on a day before today, as shortfallKey(accountId, date). */
  readonly noticedBefore: ReadonlySet<string>;
}

export interface PlannedMessage {
  readonly kind: PlannedKind;
  readonly occasion: Occasion;
  /** The account a shortfall is in; null for tomorrow's bills (every account). */
  readonly accountId: string | null;
  /** What the message is about: the shortfall's date, or tomorrow. */
  readonly date: IsoDate;
  readonly title: string;
  readonly message: string;
}

export function shortfallKey(accountId: string, date: IsoDate): string {
  return `${accountId} ${date}`;
}

/** The sentence issue 26 gives, word for word: the row that takes the balance below $0, and the lowest balance ahead. */
export function belowZeroText(
  accountName: string,
  below: { readonly date: IsoDate; readonly name: string; readonly amount: Cents | null },
  lowest: Pick<BalancePoint, 'date' | 'balance'>,
): string {
  // A day everyday spending alone takes below $0 has no row to name (issue 36).
  const when = below.amount === null ? ' with everyday spending' : `, when ${below.name} (${formatUsd(below.amount)}) is due`;
  return (
    `Heads up: your ${accountName} balance goes below $0 on ${formatDate(below.date)}${when}. ` +
    `Lowest ahead: ${formatUsd(lowest.balance)} on ${formatDate(lowest.date)}.`
  );
}

/**
 * The forecast's first moment below zero from today on and its lowest, when that moment is within
 * the window: the one outlook the page's warning reads too (forecastOutlook, issue 36).
 */
function shortfallOf(account: PlannerAccount, today: IsoDate): { below: OutlookPoint; lowest: OutlookPoint } | undefined {
  const outlook = forecastOutlook({
    ledger: account.ledger ?? { startDate: today, endDate: today, openingBalance: cents(0) },
    rows: account.rows,
    today,
    buffer: cents(0),
    everydayWeekly: account.ledger ? account.everydayWeekly : cents(0),
  });
  const below = outlook.firstBelowZero;
  return below && below.date <= addDays(today, SHORTFALL_WINDOW_DAYS - 1) ? { below, lowest: outlook.lowest ?? below } : undefined;
}

function shortfallMessages(input: PlanInput, account: PlannerAccount): PlannedMessage[] {
  const found = shortfallOf(account, input.today);
  if (!found) return [];
  const { below, lowest } = found;
  const message = belowZeroText(account.name, below, lowest);
  const noticed = input.noticedBefore.has(shortfallKey(account.id, below.date));
  if (!noticed) {
    return [
      {
        kind: 'BELOW_ZERO',
        occasion: 'notice',
        accountId: account.id,
        date: below.date,
        title: `${account.name} goes below $0 on ${formatDate(below.date)}`,
        message,
      },
    ];
  }
  if (addDays(below.date, -1) !== input.today) return [];
  return [
    {
      kind: 'BELOW_ZERO',
      occasion: 'reminder',
      accountId: account.id,
      date: below.date,
      title: `Tomorrow: ${account.name} goes below $0`,
      message,
    },
  ];
}

function isUnpaidBill(row: PlannerAccount['rows'][number], date: IsoDate): boolean {
  return row.date === date && row.type === 'D' && row.status === 'PENDING';
}

function billsMessage(input: PlanInput): PlannedMessage | null {
  const tomorrow = addDays(input.today, 1);
  const named = input.accounts.length > 1;
  const bills: string[] = [];
  let count = 0;
  for (const account of input.accounts) {
    for (const row of account.rows) {
      if (!isUnpaidBill(row, tomorrow)) continue;
      count += 1;
      if (bills.length < MAX_LISTED_BILLS) bills.push(`${row.name} (${formatUsd(row.amount)}${named ? `, ${account.name}` : ''})`);
    }
  }
  if (count === 0) return null;
  const more = count > bills.length ? `, and ${count - bills.length} more` : '';
  return {
    kind: 'BILLS_DUE',
    occasion: 'bills',
    accountId: null,
    date: tomorrow,
    title: count === 1 ? 'A bill is due tomorrow' : `${count} bills are due tomorrow`,
    message: `Due tomorrow, ${formatDate(tomorrow)}: ${bills.join(', ')}${more}.`,
  };
}

/** Today's messages for one user, in a fixed order: each account's shortfall, then tomorrow's bills. */
export function planMessages(input: PlanInput): PlannedMessage[] {
  const planned: PlannedMessage[] = [];
  if (input.belowZero) {
    for (const account of input.accounts) if (account.warnBelowZero) planned.push(...shortfallMessages(input, account));
  }
  if (input.billsDue) {
    const bills = billsMessage(input);
    if (bills) planned.push(bills);
  }
  return planned;
}

/**
 * Whether a message planned earlier and still waiting (its channel failing, or one left over a
 * restart) says what is true today: its rule is still on, the account still goes below $0 first on
 * that date, or that date's bills are still ahead and unpaid. Asked once a day, when the user's day
 * is planned from the ledgers it reads anyway; a message no longer true is called off then
 * (decision 0070: a retry itself reads no ledger).
 */
export function isStillTrue(message: Pick<PlannedMessage, 'kind' | 'accountId' | 'date'>, input: PlanInput): boolean {
  if (message.kind === 'BELOW_ZERO') {
    const account = input.accounts.find((candidate) => candidate.id === message.accountId);
    return (
      input.belowZero && account !== undefined && account.warnBelowZero && shortfallOf(account, input.today)?.below.date === message.date
    );
  }
  return (
    input.billsDue &&
    message.date > input.today &&
    input.accounts.some((account) => account.rows.some((row) => isUnpaidBill(row, message.date)))
  );
}
