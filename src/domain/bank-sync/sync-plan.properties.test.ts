/**
 * Properties of the bank sync plan against a simulated bridge: purchases that post at once, post
 * after pending under the same id or a new one (with a tip), drop, or stay pending, synced on
 * random days with windows as the scheduler asks for them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBalances } from '../balances.js';
import { addDays, type IsoDate, isoDate, maxDate } from '../calendar-date.js';
import { signedAmount } from '../ledger.js';
import { cents } from '../money.js';
import { reconcileWithBridge } from './bank-balance.js';
import { type BankLedgerRow, bankKeyText, type ClosedBankKey, countsInBalances } from './bank-rows.js';
import type { BridgeTransaction } from './bridge.js';
import { applyBankSyncPlan, type BankSyncInput, oldestPendingDate, planBankSync } from './sync-plan.js';

/** Property runs: modest in CI, more under `npm run fuzz`. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const ACCOUNT = 'ACT-1';
const RELINKED = 'ACT-2';
const START = isoDate('2027-03-01');
const LEDGER_DATES = { from: addDays(START, -5), to: addDays(START, 100) };
const OPENING = cents(50_000);
/** Every purchase has happened, posted or dropped by this day; the syncs after it are daily. */
const SETTLED = 26;
const LAST_DAY = SETTLED + 15;

type Fate = 'direct' | 'same-id' | 'new-id' | 'dropped' | 'open';

interface Purchase {
  readonly day: number;
  /** Signed cents: negative is money out. */
  readonly amount: number;
  readonly fate: Fate;
  /** Days pending before it posts or drops. */
  readonly delay: number;
  readonly tipPercent: number;
}

const purchase = fc.record({
  day: fc.integer({ min: 0, max: 20 }),
  // A few amounts over and over: twins, and pendings that several postings fit.
  amount: fc.oneof(fc.constantFrom(-500, -600, -1_000, -1_200, 2_000), fc.integer({ min: -100_000, max: 100_000 })),
  fate: fc.constantFrom<Fate>('direct', 'same-id', 'new-id', 'dropped', 'open'),
  delay: fc.integer({ min: 0, max: 5 }),
  tipPercent: fc.integer({ min: 0, max: 20 }),
});

const dayOf = (offset: number): IsoDate => addDays(START, offset);

/** The posting of a purchase, if it posts: its id, day and signed amount. */
function postingOf(p: Purchase, index: number): { id: string; day: number; amount: number } | null {
  if (p.fate === 'direct') return { id: `d${index}`, day: p.day, amount: p.amount };
  if (p.fate === 'same-id') return { id: `p${index}`, day: p.day + p.delay, amount: p.amount };
  // A tip only on money out, and never past 20%.
  const tip = p.amount < 0 ? -Math.floor((-p.amount * p.tipPercent) / 100) : 0;
  if (p.fate === 'new-id') return { id: `q${index}`, day: p.day + p.delay, amount: p.amount + tip };
  return null;
}

/**
 * What the bridge lists on `day` for the days from `from` to `day` (by posted date, or while pending
 * by the day it happened); `prefix` starts every id once the account was relinked at the bridge.
 */
function listing(purchases: readonly Purchase[], day: number, from: IsoDate, prefix: string): BridgeTransaction[] {
  const listed: BridgeTransaction[] = [];
  purchases.forEach((p, index) => {
    if (day < p.day) return;
    const posting = postingOf(p, index);
    const pendingUntil = p.fate === 'open' ? Infinity : p.fate === 'direct' ? p.day : p.day + p.delay;
    if (day < pendingUntil) {
      if (dayOf(p.day) >= from) {
        listed.push({
          id: `${prefix}p${index}`,
          posted: null,
          transactedOn: dayOf(p.day),
          amount: cents(p.amount),
          description: `Shop ${index}`,
          pending: true,
        });
      }
    } else if (posting && dayOf(posting.day) >= from) {
      listed.push({
        id: `${prefix}${posting.id}`,
        posted: dayOf(posting.day),
        transactedOn: dayOf(p.day),
        amount: cents(posting.amount),
        description: `Shop ${index}`,
        pending: false,
      });
    }
  });
  return listed;
}

/** The bank's posted balance at the end of `day`. */
function bankBalance(purchases: readonly Purchase[], day: number): number {
  let balance: number = OPENING;
  purchases.forEach((p, index) => {
    const posting = postingOf(p, index);
    if (posting && posting.day <= day) balance += posting.amount;
  });
  return balance;
}

interface Ledger {
  readonly rows: readonly BankLedgerRow[];
  readonly closed: readonly ClosedBankKey[];
}

/**
 * Runs the syncs of the given days, checking after each; answers the ledger at the end. From
 * `relinkDay` on, the bridge lists the account under a new id and every transaction under a new id
 * (a relink at the bridge), and the first sync after it asks from the ledger's start again.
 */
function runSyncs(purchases: readonly Purchase[], syncDays: readonly number[], relinkDay: number | null): Ledger {
  let ledger: Ledger = { rows: [], closed: [] };
  let lastSync: IsoDate | null = null;
  let ids = 0;
  const seenPending = new Set<string>();
  for (const day of syncDays) {
    const today = dayOf(day);
    const relinked = relinkDay !== null && day >= relinkDay;
    const account = relinked ? RELINKED : ACCOUNT;
    const prefix = relinked ? 'n-' : '';
    if (relinked && lastSync !== null && lastSync < dayOf(relinkDay)) lastSync = null;
    // The scheduler's window: from the last sync less 5 days (the first: the ledger's start),
    // and never after the oldest row still pending, so that row can be judged.
    let from = lastSync ? addDays(lastSync, -5) : LEDGER_DATES.from;
    const oldest = oldestPendingDate(ledger.rows, account, new Set());
    if (oldest !== null && oldest < from) from = oldest;
    const transactions = listing(purchases, day, from, prefix);
    const input: BankSyncInput = {
      account: { id: account, name: 'Checking', transactions },
      rows: ledger.rows,
      closed: ledger.closed,
      window: { from, to: today },
      today,
      ledgerDates: LEDGER_DATES,
      alsoLinked: new Set(),
    };
    const plan = planBankSync(input);
    expect(new Set(plan.changed.map((change) => change.rowId)).size).toBe(plan.changed.length);
    ledger = applyBankSyncPlan(ledger, plan, () => `B${(ids += 1)}`);

    // Planning again after applying changes nothing: a sync run twice adds 0 rows.
    const again = planBankSync({ ...input, rows: ledger.rows, closed: ledger.closed });
    expect(again.counts).toEqual({ added: 0, matched: 0, replaced: 0, flagged: 0 });
    expect(again.changed).toEqual([]);
    expect(again.close).toEqual([]);

    // Never two rows for one bank transaction, and none for a closed one.
    const keys = ledger.rows.flatMap((row) => (row.bank ? [bankKeyText(row.bank.key)] : []));
    expect(new Set(keys).size).toBe(keys.length);
    const closed = new Set(ledger.closed.map((key) => bankKeyText(key.key)));
    expect(keys.filter((key) => closed.has(key))).toEqual([]);

    // A pending row stands for a purchase the bank lists as pending, or for one it dropped: never
    // for one that posted, whose posting has a row of its own (that would count it twice).
    const listedPending = transactions.filter((transaction) => transaction.pending);
    for (const transaction of listedPending) seenPending.add(transaction.id.replace(prefix, ''));
    const dropped = purchases.filter((p, index) => p.fate === 'dropped' && seenPending.has(`p${index}`)).length;
    const pendingRows = ledger.rows.filter((row) => row.bank?.state === 'pending').length;
    expect(pendingRows).toBeLessThanOrEqual(listedPending.length + dropped);

    // The ledger's cleared balance is the bank's, on the bank's date.
    const reconciliation = reconcileWithBridge(OPENING, ledger.rows, { balance: cents(bankBalance(purchases, day)), balanceDate: today });
    expect(reconciliation.difference).toBe(0);
    lastSync = maxDate(lastSync ?? today, today);
  }
  return ledger;
}

describe('bank sync plans against a simulated bridge', () => {
  it("add nothing when planned again, never two rows for one transaction, and keep the bank's balance, relinked or not", () => {
    fc.assert(
      fc.property(
        fc.array(purchase, { maxLength: 25 }),
        fc.array(fc.boolean(), { minLength: SETTLED, maxLength: SETTLED }),
        // Half the runs relink the account at the bridge on some day.
        fc.option(fc.integer({ min: 0, max: LAST_DAY }), { nil: null }),
        (purchases, synced, relinkDay) => {
          const days = synced.flatMap((yes, day) => (yes ? [day] : []));
          for (let day = SETTLED; day <= LAST_DAY; day += 1) days.push(day);
          const ledger = runSyncs(purchases, days, relinkDay);

          // Settled: one counted row for each posting, with its date and amount, and one pending row
          // for each purchase still pending; every dropped one is no longer at the bank.
          const counted = ledger.rows.filter(countsInBalances);
          const postedRows = counted.filter((row) => row.bank?.state === 'posted').map((row) => `${row.date} ${signedAmount(row)}`);
          const postings = purchases.flatMap((p, index) => {
            const posting = postingOf(p, index);
            return posting ? [`${dayOf(posting.day)} ${posting.amount}`] : [];
          });
          expect(postedRows.sort()).toEqual(postings.sort());
          const pendingRows = counted.filter((row) => row.bank?.state === 'pending').map((row) => `${row.date} ${signedAmount(row)}`);
          const open = purchases.filter((p) => p.fate === 'open').map((p) => `${dayOf(p.day)} ${p.amount}`);
          expect(pendingRows.sort()).toEqual(open.sort());

          // When the ledger holds only bank rows, its balances are the bridge's: the current balance
          // its balance, the pending balance that less what is still pending.
          const balances = computeBalances(OPENING, counted);
          const balance = bankBalance(purchases, LAST_DAY);
          expect(balances.currentBalance).toBe(balance);
          expect(balances.pendingBalance).toBe(balance + purchases.filter((p) => p.fate === 'open').reduce((sum, p) => sum + p.amount, 0));
        },
      ),
      { numRuns: RUNS },
    );
  });
});
