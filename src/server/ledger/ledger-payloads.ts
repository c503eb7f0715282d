/** The ledger between dollars on the wire and cents inside: the only place the two meet. */
import type { AccountForecast } from '../../contract/accounts.js';
import type { LedgerInfo, LedgerTransaction, PayPeriodInfo } from '../../contract/ledger.js';
import { LEDGER_WINDOW_ROWS, type LedgerWindow, type LedgerWindowQuery } from '../../contract/ledger-window.js';
import { badgeOfState } from '../../domain/bank-sync/bank-rows.js';
import type { CardEverydayShares } from '../../domain/card-everyday.js';
import { firstOverLimit } from '../../domain/card-payments.js';
import type { StoredAccount } from './account-record.js';
import type { LedgerChanges } from '../../contract/ledger-changes.js';
import type { TransactionUpdate } from '../../contract/ledger-requests.js';
import type { NewLedger, NewTransaction } from '../../contract/ledger-requests.js';
import { type IsoDate, isoDate } from '../../domain/calendar-date.js';
import { type BalancePoint, chartPoints, type PayPeriod, payPeriods, rowsAhead } from '../../domain/forecast.js';
import {
  everydayPayPeriods,
  forecastOutlook,
  type Outlook,
  pointsAhead,
  type SafeToSpend,
  withEveryday,
} from '../../domain/safe-to-spend.js';
import type { SafeToSpendInfo } from '../../contract/ledger.js';
import { everydayWeeklyOf, type OutlookSettings } from './outlook.js';
import { computeBalances } from '../../domain/balances.js';
import { ledgerWindow } from '../../domain/ledger-window.js';
import type { LedgerRow, LedgerRowWithBalance, TransactionDraft } from '../../domain/ledger.js';
import { type Cents, cents, centsToDollars, dollarsToCents } from '../../domain/money.js';
import type { RequestedRow } from '../../domain/transaction-rules.js';
import type { LedgerFields } from './ledger-record.js';
import type { LedgerWithRows } from './ledger-reads.js';
import type { LedgerRowWrite } from './ledger-service.js';
import type { LedgerPlacement } from './ledger-store.js';
import { versionOf } from './ledger-version.js';

/** A new ledger opens with the balance the account has now. */
export function ledgerFields(request: NewLedger): LedgerFields {
  return { startDate: request.startDate, endDate: request.endDate, openingBalance: dollarsToCents(request.currentBalance) };
}

export function transactionDraft(request: NewTransaction): TransactionDraft {
  return { date: request.date, name: request.name, type: request.type, amount: dollarsToCents(request.amount) };
}

/** The row as the caller wants it; the id names the row and the balance is derived, so neither is part of it. */
export function requestedRow(request: TransactionUpdate): RequestedRow {
  return { date: request.date, name: request.name, type: request.type, amount: dollarsToCents(request.amount), status: request.status };
}

/** Whose forecast it is: the account, and whether the owner has others (then the answer names it, decision 0045). */
export interface ForecastAccount {
  readonly account: StoredAccount;
  readonly several: boolean;
}

/**
 * The forecast of a ledger, in dollars: pay periods, the lowest balance ahead, the first one below
 * zero; with several accounts, whose it is, and for a card, the first row ahead over its limit.
 */
export function forecastAnswer(
  { ledger, rows }: LedgerWithRows,
  settings: OutlookSettings,
  whose: ForecastAccount,
  /** The rows as the forecast weighs them (everyday spending's share of card payments, decision 0101); the stored ones unless given. */
  weighed: readonly LedgerRow[] = rows,
): AccountForecast {
  const { today, buffer } = settings;
  const balances = computeBalances(ledger.openingBalance, rows);
  // `upcoming` lists the rows as stored (what Pay acts on); every balance ahead weighs what the forecast counts.
  const withBalances = weighed === rows ? balances.rows : computeBalances(ledger.openingBalance, weighed).rows;
  const everydayWeekly = everydayWeeklyOf(settings, whose.account.id);
  const input = { ledger, rows: withBalances, today, buffer, everydayWeekly };
  // Worked out once for the outlook and the pay periods, and the rows with everyday spending off for the chart and the periods.
  const points = pointsAhead(input);
  const outlook = forecastOutlook(input, points);
  // Everyday spending is counted in every balance from tomorrow on (issue 36); off, each part is what it always was.
  const counted = everydayWeekly > 0;
  const chartRows = counted ? withEveryday(withBalances, today, ledger.endDate, everydayWeekly) : withBalances;
  return {
    today,
    lowest: pointAnswer(outlook.lowest),
    firstBelowZero: pointAnswer(outlook.firstBelowZero),
    payPeriods: counted
      ? everydayPayPeriods(input, { counted: chartRows, points }).map(periodAnswer)
      : payPeriods(ledger, withBalances).map(periodAnswer),
    startDate: ledger.startDate,
    endDate: ledger.endDate,
    openingBalance: centsToDollars(ledger.openingBalance),
    currentBalance: centsToDollars(balances.currentBalance),
    pendingBalance: centsToDollars(balances.pendingBalance),
    chart: chartPoints(chartRows).map(({ date, name, balance, paycheck }) => ({
      date,
      name,
      balance: centsToDollars(balance),
      paycheck,
    })),
    upcoming: rowsAhead(balances.rows, today).map(transactionAnswer),
    safeToSpend: safeToSpendAnswer(outlook.safeToSpend),
    ...(counted && { everyday: { weekly: centsToDollars(everydayWeekly) } }),
    // Only with a choice of accounts (a card needs another account to pay it): one account answers as it always did.
    ...(whose.several && { account: { id: whose.account.id, name: whose.account.name, kind: whose.account.kind } }),
    ...(whose.account.card && {
      firstOverLimit:
        whose.account.card.creditLimit === null ? null : pointAnswer(firstOverLimit(withBalances, today, whose.account.card.creditLimit)),
    }),
  };
}

/**
 * A window of the ledger (decision 0053): rows `from` onwards, at most `limit`, with their running
 * balances, and what the page shows around them, worked out over every row as the whole ledger's
 * answer is, so a page showing the window shows what a full load would.
 */
export function windowAnswer(
  { ledger, rows }: LedgerWithRows,
  query: LedgerWindowQuery,
  serverToday: IsoDate,
  everydayWeekly: Cents = cents(0),
  /** The rows as the forecast weighs them, and the card's shares in them (decision 0101): the warning and pay periods read them. */
  { rows: weighed, shares }: { readonly rows: readonly LedgerRow[]; readonly shares: CardEverydayShares | null } = { rows, shares: null },
): { window: LedgerWindow } {
  const today = query.today === undefined ? serverToday : isoDate(query.today);
  const balances = computeBalances(ledger.openingBalance, rows);
  const window = ledgerWindow(
    ledger,
    balances.rows,
    { from: query.from ?? 0, limit: query.limit ?? LEDGER_WINDOW_ROWS },
    today,
    everydayWeekly,
    weighed === rows ? balances.rows : computeBalances(ledger.openingBalance, weighed).rows,
  );
  const below = window.firstBelowZero;
  return {
    window: {
      startDate: ledger.startDate,
      endDate: ledger.endDate,
      openingBalance: centsToDollars(ledger.openingBalance),
      currentBalance: centsToDollars(balances.currentBalance),
      pendingBalance: centsToDollars(balances.pendingBalance),
      count: window.count,
      from: window.from,
      transactions: window.rows.map(transactionAnswer),
      payPeriods: window.periods.map(periodAnswer),
      payPeriodCount: window.periodCount,
      today,
      firstBelowZero: below && { date: below.date, name: below.name, balance: centsToDollars(below.balance) },
      // Only while it is counted: off, the window is what it always was.
      ...(everydayWeekly > 0 && { everyday: { weekly: centsToDollars(everydayWeekly) } }),
      ...(shares && {
        cardEveryday: {
          ...shares,
          shares: shares.shares.map((share) => ({ closing: share.closing, due: share.due, amount: centsToDollars(share.amount) })),
        },
      }),
    },
  };
}

/** A moment of the forecast in dollars. */
function pointAnswer(found: BalancePoint | null): { date: string; name: string; balance: number } | null {
  return found && { date: found.date, name: found.name, balance: centsToDollars(found.balance) };
}

/** Safe to spend in dollars (issue 36). */
export function safeToSpendAnswer(found: SafeToSpend | null): SafeToSpendInfo | null {
  return (
    found && {
      amount: centsToDollars(found.amount),
      perDay: found.perDay === null ? null : centsToDollars(found.perDay),
      until: found.until,
      untilReason: found.untilReason,
      lowestDate: found.lowestDate,
      lowestName: found.lowestName,
      buffer: centsToDollars(found.buffer),
    }
  );
}

/** What is ahead of an account in dollars, as the forecast answers it. */
export function outlookAnswer(outlook: Outlook) {
  return {
    lowest: pointAnswer(outlook.lowest),
    firstBelowZero: pointAnswer(outlook.firstBelowZero),
    safeToSpend: safeToSpendAnswer(outlook.safeToSpend),
  };
}

/** A pay period in dollars; with everyday spending counted, how much of it falls in the period. */
function periodAnswer(period: PayPeriod & { readonly everyday?: Cents }): PayPeriodInfo {
  return {
    startDate: period.startDate,
    endDate: period.endDate,
    income: centsToDollars(period.income),
    bills: centsToDollars(period.bills),
    leftover: centsToDollars(period.leftover),
    lowest: centsToDollars(period.lowest),
    endBalance: centsToDollars(period.endBalance),
    ...(period.everyday !== undefined && { everyday: centsToDollars(period.everyday) }),
  };
}

/** The row in dollars, without what only the server keeps (creation order, row version). Spelled out: see computeBalances. */
function transactionAnswer({
  id,
  date,
  name,
  type,
  amount,
  balance,
  status,
  source,
  transfer,
  bank,
}: LedgerRowWithBalance): LedgerTransaction {
  const answer: LedgerTransaction = {
    id,
    date,
    name,
    type,
    amount: centsToDollars(amount),
    balance: centsToDollars(balance),
    status,
    source,
  };
  // Only a side of a transfer carries the key (decision 0043), and only a bank row its badge and
  // fromBank (decision 0084): every other row answers as it always did.
  if (transfer) answer.transfer = { id: transfer.id, accountId: transfer.accountId };
  if (bank) {
    const badge = badgeOfState(bank.state);
    if (badge) answer.bankBadge = badge;
    answer.fromBank = true;
  }
  return answer;
}

/** The answer of every ledger call: rows in row order with running, current and pending balances. */
export function ledgerAnswer(found: LedgerWithRows | undefined): LedgerInfo {
  if (!found) return { ledger: null };
  const { ledger, rows } = found;
  const balances = computeBalances(ledger.openingBalance, rows);
  return {
    ledger: {
      startDate: ledger.startDate,
      endDate: ledger.endDate,
      openingBalance: centsToDollars(ledger.openingBalance),
      currentBalance: centsToDollars(balances.currentBalance),
      pendingBalance: centsToDollars(balances.pendingBalance),
      transactions: balances.rows.map(transactionAnswer),
    },
  };
}

/**
 * `?answer=changes` (decision 0030): the rows the write changed or added, each with its index in
 * row order, the ids it removed, and the balances, based on the version the write started from.
 * The write placed its rows without reading the whole ledger (LedgerStore.place, issue 27).
 */
export function changesAnswer(
  { ledger, basedOn, removedIds }: Pick<LedgerRowWrite, 'ledger' | 'basedOn' | 'removedIds'>,
  placement: LedgerPlacement,
): { changes: LedgerChanges } {
  return {
    changes: {
      basedOn: versionOf(ledger, basedOn),
      version: versionOf(ledger),
      startDate: ledger.startDate,
      endDate: ledger.endDate,
      openingBalance: centsToDollars(ledger.openingBalance),
      currentBalance: centsToDollars(placement.currentBalance),
      pendingBalance: centsToDollars(placement.pendingBalance),
      count: placement.count,
      rows: placement.rows.map(({ row, balance, position }) => ({
        ...transactionAnswer({ ...row, transfer: row.transfer ?? null, bank: row.bank ?? null, balance }),
        position,
      })),
      removed: [...removedIds],
    },
  };
}
