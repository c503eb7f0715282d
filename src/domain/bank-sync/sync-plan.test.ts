import { describe, expect, it } from 'vitest';
import { computeBalances } from '../balances.js';
import { addDays, type IsoDate, isoDate } from '../calendar-date.js';
import type { BankState, TransactionStatus, TransactionType } from '../ledger.js';
import { type Cents, cents } from '../money.js';
import { MAX_MATCH_CANDIDATES } from '../statements/statement-matching.js';
import { bridgeBalanceText, reconcileWithBridge } from './bank-balance.js';
import { bankBadge, type BankLedgerRow, type ClosedBankKey, closedOnDelete, countsInBalances } from './bank-rows.js';
import { type BridgeTransaction, decimalCents } from './bridge.js';
import {
  applyBankSyncPlan,
  type BankSyncInput,
  type BankSyncPlan,
  GONE_AFTER_DAYS,
  oldestPendingDate,
  planBankSync,
  type SyncWindow,
} from './sync-plan.js';

const CHECKING = 'ACT-checking';
const LEDGER_DATES = { from: isoDate('2027-01-01'), to: isoDate('2027-12-31') };
const OPENING = cents(100_000);

interface Ledger {
  readonly rows: readonly BankLedgerRow[];
  readonly closed: readonly ClosedBankKey[];
}
const EMPTY: Ledger = { rows: [], closed: [] };

/** A bridge transaction as the protocol client hands it: the amount read from the bridge's text. */
function tx(id: string, date: string, amount: string, options: { pending?: boolean; description?: string } = {}): BridgeTransaction {
  const read = decimalCents(amount);
  if (read === undefined) throw new Error(`not an amount: ${amount}`);
  const pending = options.pending ?? false;
  return {
    id,
    posted: pending ? null : isoDate(date),
    transactedOn: isoDate(date),
    amount: read,
    description: options.description ?? `Purchase ${id}`,
    pending,
  };
}

let rowIds = 0;
interface SyncOptions {
  readonly account?: string;
  readonly window?: SyncWindow;
  readonly alsoLinked?: ReadonlySet<string>;
  readonly unreadable?: ReadonlySet<string>;
}

function planFor(ledger: Ledger, transactions: readonly BridgeTransaction[], today: string, options: SyncOptions = {}): BankSyncPlan {
  const day = isoDate(today);
  const input: BankSyncInput = {
    account: { id: options.account ?? CHECKING, name: 'Checking', transactions },
    rows: ledger.rows,
    closed: ledger.closed,
    window: options.window ?? { from: addDays(day, -30), to: day },
    today: day,
    ledgerDates: LEDGER_DATES,
    alsoLinked: options.alsoLinked ?? new Set(),
    ...(options.unreadable && { unreadable: options.unreadable }),
  };
  return planBankSync(input);
}

/** One sync applied as the server would: the plan, and the ledger after it. */
function sync(
  ledger: Ledger,
  transactions: readonly BridgeTransaction[],
  today: string,
  options: SyncOptions = {},
): { readonly plan: BankSyncPlan; readonly ledger: Ledger } {
  const plan = planFor(ledger, transactions, today, options);
  return { plan, ledger: applyBankSyncPlan(ledger, plan, () => `B${(rowIds += 1)}`) };
}

function row(date: string, name: string, type: TransactionType, amount: number, status: TransactionStatus = 'PENDING'): BankLedgerRow {
  rowIds += 1;
  return { id: `L${rowIds}`, sequence: rowIds, date: isoDate(date), name, type, amount: cents(amount), status };
}

/** What a test reads of a row: its place in the ledger and the bank's mark. */
function seen(
  ledger: Ledger,
): { date: IsoDate; type: TransactionType; amount: Cents; status: TransactionStatus; key: string | null; state: BankState | null }[] {
  return ledger.rows.map((r) => ({
    date: r.date,
    type: r.type,
    amount: r.amount,
    status: r.status,
    key: r.bank ? r.bank.key.transaction : null,
    state: r.bank?.state ?? null,
  }));
}

const balances = (ledger: Ledger) => computeBalances(OPENING, ledger.rows.filter(countsInBalances));

describe('a bank sync plan: what a sync adds', () => {
  it('adds posted transactions CLEARED and pending ones PAID, "Pending at the bank", named after the description', () => {
    const { plan, ledger } = sync(
      EMPTY,
      [tx('t1', '2027-01-05', '-12.34', { description: '  COFFEE   SHOP ' }), tx('t2', '2027-01-06', '250', { pending: true })],
      '2027-01-06',
    );
    expect(plan.counts).toEqual({ added: 2, matched: 0, replaced: 0, flagged: 0 });
    expect(plan.warnings).toEqual([]);
    expect(ledger.rows.map((r) => [r.date, r.name, r.type, r.amount, r.status, bankBadge(r)])).toEqual([
      ['2027-01-05', 'COFFEE SHOP', 'D', 1234, 'CLEARED', null],
      ['2027-01-06', 'Purchase t2', 'C', 25_000, 'PAID', 'Pending at the bank'],
    ]);
  });

  it('reads "100.5" as $100.50, and the balance matches the bank\'s in the issue\'s words', () => {
    const amount = decimalCents('100.5');
    expect(amount).toBe(10_050);
    const { ledger } = sync(EMPTY, [tx('t1', '2027-01-07', '100.5')], '2027-01-08');
    expect(ledger.rows[0]?.amount).toBe(10_050);
    const balance = decimalCents('1100.5');
    if (balance === undefined) throw new Error('unread');
    const reconciliation = reconcileWithBridge(OPENING, ledger.rows, { balance, balanceDate: isoDate('2027-01-08') });
    expect(bridgeBalanceText(reconciliation)).toBe("Matches the bank's balance of $1,100.50 on Fri, Jan 8, 2027");
  });

  it('adds 0 rows when the same data is synced a second and a third time', () => {
    const data = [tx('t1', '2027-01-05', '-12.00'), tx('t2', '2027-01-06', '-40.00', { pending: true }), tx('t3', '2027-01-06', '1500')];
    let ledger = sync(EMPTY, data, '2027-01-06').ledger;
    for (let run = 2; run <= 3; run += 1) {
      const next = sync(ledger, data, '2027-01-06');
      expect(next.plan.counts).toEqual({ added: 0, matched: 0, replaced: 0, flagged: 0 });
      expect(next.plan.changed).toEqual([]);
      ledger = next.ledger;
    }
    expect(ledger.rows).toHaveLength(3);
  });

  it('keeps twin purchases with different ids as two rows, and adds neither again', () => {
    const twins = [tx('a', '2027-01-05', '-5.00', { description: 'Coffee' }), tx('b', '2027-01-05', '-5.00', { description: 'Coffee' })];
    const first = sync(EMPTY, twins, '2027-01-05');
    expect(first.plan.counts.added).toBe(2);
    const again = sync(first.ledger, twins, '2027-01-06');
    expect(again.plan.counts.added).toBe(0);
    expect(seen(again.ledger).map((r) => r.key)).toEqual(['a', 'b']);
  });

  it('keeps twin pending purchases two rows when each posts under a new id, one day apart', () => {
    const pending = [tx('p1', '2027-01-05', '-5.00', { pending: true }), tx('p2', '2027-01-05', '-5.00', { pending: true })];
    const first = sync(EMPTY, pending, '2027-01-05');
    // One posts: the other is still listed pending, so only the one the bank dropped is replaced.
    const one = sync(first.ledger, [tx('q1', '2027-01-06', '-5.00'), pending[1] as BridgeTransaction], '2027-01-06');
    expect(one.plan.counts).toEqual({ added: 0, matched: 0, replaced: 1, flagged: 0 });
    const both = sync(one.ledger, [tx('q1', '2027-01-06', '-5.00'), tx('q2', '2027-01-07', '-5.00')], '2027-01-07');
    expect(both.plan.counts).toEqual({ added: 0, matched: 0, replaced: 1, flagged: 0 });
    expect(seen(both.ledger)).toEqual([
      { date: '2027-01-06', type: 'D', amount: 500, status: 'CLEARED', key: 'q1', state: 'posted' },
      { date: '2027-01-07', type: 'D', amount: 500, status: 'CLEARED', key: 'q2', state: 'posted' },
    ]);
  });

  it("skips transactions outside the ledger's dates, with one warning naming the account", () => {
    const { plan } = sync(
      EMPTY,
      [tx('old', '2026-12-30', '-1.00'), tx('older', '2026-12-29', '-1.00'), tx('in', '2027-01-02', '-1.00')],
      '2027-01-02',
    );
    expect(plan.counts.added).toBe(1);
    expect(plan.warnings).toEqual([
      'Checking: 2 transactions dated outside the ledger (Fri, Jan 1, 2027 to Fri, Dec 31, 2027) were not added.',
    ]);
  });

  it('takes a transaction the bridge lists twice once', () => {
    const { plan } = sync(EMPTY, [tx('t1', '2027-01-05', '-3.00'), tx('t1', '2027-01-05', '-3.00')], '2027-01-05');
    expect(plan.counts.added).toBe(1);
    expect(plan.warnings).toEqual(['Checking: the bank listed 1 transaction twice; each was taken once.']);
  });
});

describe("a bank sync plan: matching the ledger's own rows", () => {
  it('matches a scheduled row of the same amount within the window instead of adding one, as a statement does', () => {
    const rent = {
      ...row('2027-01-01', 'Rent', 'D', 120_000),
      source: { kind: 'expense' as const, id: 'e1', occurrence: isoDate('2027-01-01'), edited: false },
    };
    const { plan, ledger } = sync(
      { rows: [rent], closed: [] },
      [tx('t1', '2027-01-03', '-1200.00', { description: 'ACH LANDLORD' })],
      '2027-01-03',
    );
    expect(plan.counts).toEqual({ added: 0, matched: 1, replaced: 0, flagged: 0 });
    expect(plan.changed).toEqual([
      {
        rowId: rent.id,
        kind: 'matched',
        changes: { date: '2027-01-03', name: 'Rent', amount: 120_000, status: 'CLEARED' },
        bank: { key: { account: CHECKING, transaction: 't1' }, state: 'posted', missingSince: null },
      },
    ]);
    expect(ledger.rows).toHaveLength(1);
  });

  it('pays an unpaid row a pending transaction matches, and clears it when that posts under a new id with a tip', () => {
    const dinner = row('2027-01-10', 'Dinner out', 'D', 4_000);
    const first = sync({ rows: [dinner], closed: [] }, [tx('p1', '2027-01-10', '-40.00', { pending: true })], '2027-01-10');
    expect(first.plan.counts.matched).toBe(1);
    expect(seen(first.ledger)).toEqual([{ date: '2027-01-10', type: 'D', amount: 4_000, status: 'PAID', key: 'p1', state: 'pending' }]);
    const posted = sync(first.ledger, [tx('q1', '2027-01-12', '-47.00')], '2027-01-12');
    expect(posted.plan.counts).toEqual({ added: 0, matched: 0, replaced: 1, flagged: 0 });
    expect(seen(posted.ledger)).toEqual([{ date: '2027-01-12', type: 'D', amount: 4_700, status: 'CLEARED', key: 'q1', state: 'posted' }]);
    expect(posted.ledger.rows[0]?.name).toBe('Dinner out');
  });

  it('flags a matched row whose pending the bank drops, and lets the later charge replace it', () => {
    const gym = row('2027-01-10', 'Gym', 'D', 3_000);
    let ledger = sync({ rows: [gym], closed: [] }, [tx('hold', '2027-01-10', '-30.00', { pending: true })], '2027-01-10').ledger;
    ledger = sync(ledger, [], '2027-01-11').ledger;
    const flagged = sync(ledger, [], '2027-01-19');
    expect(flagged.plan.changed).toEqual([expect.objectContaining({ rowId: gym.id, kind: 'flagged' })]);
    const charged = sync(flagged.ledger, [tx('charge', '2027-01-25', '-30.00')], '2027-01-25');
    expect(charged.plan.counts).toEqual({ added: 0, matched: 0, replaced: 1, flagged: 0 });
    expect(charged.ledger.rows.map((r) => [r.id, r.name, r.date, r.status, bankBadge(r)])).toEqual([
      [gym.id, 'Gym', '2027-01-25', 'CLEARED', null],
    ]);
  });

  it('never matches a cleared row, a row of another amount, or one past the window', () => {
    const rows = [
      row('2027-01-03', 'Cleared one', 'D', 1_000, 'CLEARED'),
      row('2027-01-03', 'Other amount', 'D', 1_001),
      row('2027-01-20', 'Too far', 'D', 1_000),
    ];
    const { plan } = sync({ rows, closed: [] }, [tx('t1', '2027-01-03', '-10.00')], '2027-01-03');
    expect(plan.counts).toEqual({ added: 1, matched: 0, replaced: 0, flagged: 0 });
  });
});

describe('a bank sync plan: a pending purchase that posts', () => {
  it('replaces a pending row by its posting under a new id: one row, never two', () => {
    const first = sync(EMPTY, [tx('p1', '2027-01-05', '-12.00', { pending: true })], '2027-01-05');
    const posted = sync(first.ledger, [tx('q1', '2027-01-07', '-12.00')], '2027-01-07');
    expect(posted.plan.counts).toEqual({ added: 0, matched: 0, replaced: 1, flagged: 0 });
    expect(seen(posted.ledger)).toEqual([{ date: '2027-01-07', type: 'D', amount: 1_200, status: 'CLEARED', key: 'q1', state: 'posted' }]);
    // The bridge listing the pending id again for a day brings no second row.
    const flaky = sync(
      posted.ledger,
      [tx('p1', '2027-01-05', '-12.00', { pending: true }), tx('q1', '2027-01-07', '-12.00')],
      '2027-01-08',
    );
    expect(flaky.plan.counts.added).toBe(0);
    expect(flaky.ledger.rows).toHaveLength(1);
  });

  it('replaces with a tip of up to 20% more, and not one of more, nor a smaller amount', () => {
    const pending = [
      tx('p1', '2027-01-05', '-40.00', { pending: true }),
      tx('p2', '2027-01-05', '-30.00', { pending: true }),
      tx('p3', '2027-01-05', '-20.00', { pending: true }),
    ];
    const first = sync(EMPTY, pending, '2027-01-05');
    // $48.00 is exactly 20% on $40.00; $36.01 is past 20% on $30.00; $19.00 is less than $20.00.
    const posted = sync(
      first.ledger,
      [tx('q1', '2027-01-06', '-48.00'), tx('q2', '2027-01-06', '-36.01'), tx('q3', '2027-01-06', '-19.00')],
      '2027-01-06',
    );
    expect(posted.plan.counts).toEqual({ added: 2, matched: 0, replaced: 1, flagged: 0 });
    expect(
      seen(posted.ledger)
        .filter((r) => r.state === 'posted')
        .map((r) => [r.key, r.amount]),
    ).toEqual([
      ['q1', 4_800],
      ['q2', 3_601],
      ['q3', 1_900],
    ]);
  });

  it('replaces only with a posting on or after the pending date, of the same direction', () => {
    const first = sync(EMPTY, [tx('p1', '2027-01-05', '-12.00', { pending: true })], '2027-01-05');
    const { plan } = sync(first.ledger, [tx('early', '2027-01-04', '-12.00'), tx('refund', '2027-01-06', '12.00')], '2027-01-06');
    expect(plan.counts).toEqual({ added: 2, matched: 0, replaced: 0, flagged: 0 });
  });

  it('clears a pending row that posts under its own id, taking the posted date and amount', () => {
    const first = sync(EMPTY, [tx('p1', '2027-01-05', '-12.00', { pending: true })], '2027-01-05');
    const posted = sync(first.ledger, [tx('p1', '2027-01-07', '-14.00')], '2027-01-07');
    expect(posted.plan.counts).toEqual({ added: 0, matched: 0, replaced: 0, flagged: 0 });
    expect(posted.plan.changed.map((change) => change.kind)).toEqual(['posted']);
    expect(seen(posted.ledger)).toEqual([{ date: '2027-01-07', type: 'D', amount: 1_400, status: 'CLEARED', key: 'p1', state: 'posted' }]);
  });

  it('breaks ties between fitting pendings by the smallest tip, then the fewest days, then ledger order', () => {
    const pending = [
      tx('far', '2027-01-02', '-10.00', { pending: true }),
      tx('near', '2027-01-05', '-10.00', { pending: true }),
      tx('tipped', '2027-01-05', '-9.00', { pending: true }),
    ];
    const first = sync(EMPTY, pending, '2027-01-05');
    const [far, near, tipped] = first.ledger.rows;
    const { plan } = sync(first.ledger, [tx('q1', '2027-01-06', '-10.00')], '2027-01-06');
    const replaced = plan.changed.filter((change) => change.kind === 'replaced').map((change) => change.rowId);
    // Same amount before a tip; of the two of the same amount, the nearer date.
    expect(replaced).toEqual([near?.id]);
    expect([far?.id, tipped?.id]).not.toContain(replaced[0]);
    // Two postings, two fitting pendings of one amount and date: the first posting (by date, then id) takes the first row.
    const twin = sync(
      EMPTY,
      [tx('x1', '2027-01-05', '-7.00', { pending: true }), tx('x2', '2027-01-05', '-7.00', { pending: true })],
      '2027-01-05',
    );
    const posted = sync(twin.ledger, [tx('y2', '2027-01-06', '-7.00'), tx('y1', '2027-01-06', '-7.00')], '2027-01-06');
    expect(seen(posted.ledger).map((r) => r.key)).toEqual(['y1', 'y2']);
  });
});

describe('a bank sync plan: a pending purchase the bank drops', () => {
  const pending = tx('p1', '2027-01-05', '-25.00', { pending: true });

  it(`marks it "No longer at the bank" after ${GONE_AFTER_DAYS} days missing, out of the balances, and keeps it`, () => {
    const first = sync(EMPTY, [pending], '2027-01-05');
    expect(balances(first.ledger).pendingBalance).toBe(OPENING - 2_500);
    const missed = sync(first.ledger, [], '2027-01-06');
    expect(missed.plan.changed.map((change) => [change.kind, change.bank.missingSince])).toEqual([['missing', '2027-01-06']]);
    const sevenDays = sync(missed.ledger, [], '2027-01-13');
    expect(sevenDays.plan.changed).toEqual([]);
    const eightDays = sync(sevenDays.ledger, [], '2027-01-14');
    expect(eightDays.plan.counts).toEqual({ added: 0, matched: 0, replaced: 0, flagged: 1 });
    const [gone] = eightDays.ledger.rows;
    expect(gone && bankBadge(gone)).toBe('No longer at the bank');
    expect(gone?.status).toBe('PAID');
    expect(balances(eightDays.ledger).pendingBalance).toBe(OPENING);
    expect(balances(eightDays.ledger).rows).toEqual([]);
    // Flagged once: later syncs leave it as it is.
    const later = sync(eightDays.ledger, [], '2027-01-20');
    expect(later.plan.changed).toEqual([]);
    expect(later.ledger.rows).toHaveLength(1);
  });

  it('does not count it missing while the window does not hold its date, nor while the bank lists it', () => {
    const first = sync(EMPTY, [pending], '2027-01-05');
    const outOfView = sync(first.ledger, [], '2027-01-20', { window: { from: isoDate('2027-01-15'), to: isoDate('2027-01-20') } });
    expect(outOfView.plan.changed).toEqual([]);
    expect(oldestPendingDate(first.ledger.rows, CHECKING, new Set())).toBe('2027-01-05');
    expect(oldestPendingDate(first.ledger.rows, 'ACT-other', new Set([CHECKING]))).toBeNull();
    const missed = sync(first.ledger, [], '2027-01-06');
    const back = sync(missed.ledger, [pending], '2027-01-10');
    expect(back.plan.changed.map((change) => [change.kind, change.bank.missingSince])).toEqual([['listed', null]]);
    const missedAgain = sync(back.ledger, [], '2027-01-11');
    expect(sync(missedAgain.ledger, [], '2027-01-18').plan.counts.flagged).toBe(0);
    expect(sync(missedAgain.ledger, [], '2027-01-19').plan.counts.flagged).toBe(1);
  });

  it('puts a flagged row back to "Pending at the bank" when the bank lists it again, once', () => {
    let ledger = sync(EMPTY, [pending], '2027-01-05').ledger;
    ledger = sync(ledger, [], '2027-01-06').ledger;
    ledger = sync(ledger, [], '2027-01-14').ledger;
    const back = sync(ledger, [pending, tx('q1', '2027-01-15', '-25.00')], '2027-01-15');
    expect(back.plan.changed.map((change) => [change.kind, change.bank.state])).toEqual([['listed', 'pending']]);
    expect(back.plan.counts).toEqual({ added: 1, matched: 0, replaced: 0, flagged: 0 });
    expect(back.ledger.rows.map((r) => bankBadge(r))).toEqual(['Pending at the bank', null]);
  });

  it('replaces a row already flagged when its posting comes late: still one row', () => {
    let ledger = sync(EMPTY, [pending], '2027-01-05').ledger;
    ledger = sync(ledger, [], '2027-01-06').ledger;
    ledger = sync(ledger, [], '2027-01-14').ledger;
    expect(ledger.rows[0]?.bank?.state).toBe('gone');
    const late = sync(ledger, [tx('q1', '2027-01-20', '-25.00')], '2027-01-20', {
      window: { from: isoDate('2027-01-15'), to: isoDate('2027-01-20') },
    });
    expect(late.plan.counts).toEqual({ added: 0, matched: 0, replaced: 1, flagged: 0 });
    expect(seen(late.ledger)).toEqual([{ date: '2027-01-20', type: 'D', amount: 2_500, status: 'CLEARED', key: 'q1', state: 'posted' }]);
  });
});

describe('a bank sync plan: rows the user deleted', () => {
  it('never brings a deleted row back', () => {
    const data = [tx('t1', '2027-01-05', '-9.99'), tx('t2', '2027-01-05', '-20.00')];
    const first = sync(EMPTY, data, '2027-01-05');
    const [deleted, kept] = first.ledger.rows;
    const closed = deleted && closedOnDelete(deleted);
    if (!closed || !kept) throw new Error('rows expected');
    expect(closed).toEqual({ key: { account: CHECKING, transaction: 't1' }, reason: 'deleted', pending: null });
    const afterDelete: Ledger = { rows: [kept], closed: [closed] };
    for (const today of ['2027-01-06', '2027-01-07', '2027-01-08']) {
      const again = sync(afterDelete, data, today);
      expect(again.plan.counts.added).toBe(0);
      expect(again.ledger.rows).toHaveLength(1);
    }
  });

  it('keeps a purchase deleted while pending deleted when it posts under a new id', () => {
    const first = sync(EMPTY, [tx('p1', '2027-01-05', '-30.00', { pending: true })], '2027-01-05');
    const deleted = first.ledger.rows[0];
    const closed = deleted && closedOnDelete(deleted);
    if (!closed) throw new Error('row expected');
    expect(closed.pending).toEqual({ date: '2027-01-05', type: 'D', amount: 3_000 });
    const afterDelete: Ledger = { rows: [], closed: [closed] };
    const posted = sync(afterDelete, [tx('q1', '2027-01-07', '-33.00')], '2027-01-07');
    expect(posted.plan.counts).toEqual({ added: 0, matched: 0, replaced: 0, flagged: 0 });
    expect(posted.ledger.rows).toEqual([]);
    expect(posted.ledger.closed.map((closed) => [closed.key.transaction, closed.pending])).toEqual([
      ['p1', null],
      ['q1', null],
    ]);
    // The posting names its pending: an undo of the delete opens both (decision 0086).
    expect(posted.ledger.closed.find((closed) => closed.key.transaction === 'q1')?.deletedWith).toEqual({
      account: CHECKING,
      transaction: 'p1',
    });
    // Spent: another purchase of the same amount is a purchase of its own.
    expect(sync(posted.ledger, [tx('q1', '2027-01-07', '-33.00'), tx('q9', '2027-01-09', '-33.00')], '2027-01-09').plan.counts.added).toBe(
      1,
    );
  });
});

describe('a bank sync plan: an account relinked', () => {
  const history = [tx('t1', '2027-01-03', '-12.00'), tx('t2', '2027-01-04', '-12.00'), tx('p3', '2027-01-05', '-8.00', { pending: true })];

  it('adds nothing when the same bridge account is linked again (a new connection, the same ids)', () => {
    const first = sync(EMPTY, history, '2027-01-05');
    const relinked = sync(first.ledger, history, '2027-01-06');
    expect(relinked.plan.counts).toEqual({ added: 0, matched: 0, replaced: 0, flagged: 0 });
  });

  it('takes over the rows of the former link when the bridge lists them under a new account and new ids', () => {
    const first = sync(EMPTY, history, '2027-01-05', { account: 'ACT-old' });
    const renamed = [
      tx('n1', '2027-01-03', '-12.00'),
      tx('n2', '2027-01-04', '-12.00'),
      tx('n3', '2027-01-05', '-8.00', { pending: true }),
    ];
    const relinked = sync(first.ledger, renamed, '2027-01-06', { account: 'ACT-new' });
    expect(relinked.plan.counts).toEqual({ added: 0, matched: 3, replaced: 0, flagged: 0 });
    expect(relinked.ledger.rows.map((r) => r.bank && `${r.bank.key.account}/${r.bank.key.transaction}/${r.bank.state}`)).toEqual([
      'ACT-new/n1/posted',
      'ACT-new/n2/posted',
      'ACT-new/n3/pending',
    ]);
    expect(sync(relinked.ledger, renamed, '2027-01-07', { account: 'ACT-new' }).plan.changed).toEqual([]);
  });

  it('leaves the rows of another bridge account linked to the same ledger alone', () => {
    const first = sync(EMPTY, history, '2027-01-05', { account: 'ACT-savings' });
    const other = sync(first.ledger, [tx('n1', '2027-01-03', '-12.00')], '2027-01-06', {
      account: CHECKING,
      alsoLinked: new Set(['ACT-savings']),
    });
    expect(other.plan.counts).toEqual({ added: 1, matched: 0, replaced: 0, flagged: 0 });
    expect(other.plan.changed).toEqual([]);
  });
});

describe('a bank sync plan: one bad account or transaction does not matter', () => {
  it('plans one account without touching the rows of another, whose sync failed', () => {
    const savings = sync(EMPTY, [tx('s1', '2027-01-05', '-3.00', { pending: true })], '2027-01-05', { account: 'ACT-savings' });
    // The savings account answered act.failed: only checking is planned, for days on end.
    let ledger = savings.ledger;
    for (const today of ['2027-01-06', '2027-01-10', '2027-01-20']) {
      const checking = sync(ledger, [tx('c1', '2027-01-06', '-1.00')], today, { alsoLinked: new Set(['ACT-savings']) });
      expect(checking.plan.changed).toEqual([]);
      ledger = checking.ledger;
    }
    expect(ledger.rows.find((r) => r.bank?.key.account === 'ACT-savings')?.bank).toEqual({
      key: { account: 'ACT-savings', transaction: 's1' },
      state: 'pending',
      missingSince: null,
    });
  });

  it('never misses a pending row whose transaction the client could not read this time', () => {
    const first = sync(EMPTY, [tx('p1', '2027-01-05', '-3.00', { pending: true })], '2027-01-05');
    const next = sync(first.ledger, [tx('t2', '2027-01-06', '-1.00')], '2027-01-06', { unreadable: new Set(['p1']) });
    expect(next.plan.counts).toEqual({ added: 1, matched: 0, replaced: 0, flagged: 0 });
    expect(next.plan.changed).toEqual([]);
  });
});

describe('a bank sync plan on hostile input', () => {
  // Pairing each posting with each pending row here would be 18 million pairs: bounded, the test
  // takes about half a second on 2 cores, far inside the test timeout.
  it('plans thousands of equal amounts on one day without pairing each with each', () => {
    const count = 3_000;
    const scheduled = Array.from({ length: count }, () => row('2027-01-05', 'Coffee', 'D', 500));
    const pending = Array.from({ length: count }, (_, index) => tx(`p${index}`, '2027-01-05', '-5.00', { pending: true }));
    const first = sync({ rows: scheduled, closed: [] }, pending, '2027-01-05');
    // The statements' matching ranks at most MAX_MATCH_CANDIDATES rows for each: the rest are added.
    expect(first.plan.counts.matched).toBeGreaterThanOrEqual(MAX_MATCH_CANDIDATES);
    expect(first.plan.counts.matched + first.plan.counts.added).toBe(count);
    const postings = Array.from({ length: count }, (_, index) => tx(`q${index}`, '2027-01-06', '-5.00'));
    const more = Array.from({ length: count }, (_, index) => tx(`r${index}`, '2027-01-06', '-5.00'));
    const posted = planFor(first.ledger, [...postings, ...more], '2027-01-06');
    // Every pending row is one of a group, so each is replaced once; the other postings match the
    // scheduled rows left open (as boundedly as above) or are added.
    expect(posted.counts.replaced).toBe(count);
    expect(posted.counts.matched + posted.counts.added).toBe(count);
  });

  it(`looks at no more than ${MAX_MATCH_CANDIDATES} groups of pending rows below a posting's amount`, () => {
    // 64 groups of $90.01 to $90.64 dated after the posting (so none fits), and one of $90.00 that fits, below them all.
    const later = Array.from({ length: MAX_MATCH_CANDIDATES }, (_, index) =>
      tx(`late${index}`, '2027-01-11', `-90.${String(index + 1).padStart(2, '0')}`, { pending: true }),
    );
    const fits = tx('fits', '2027-01-09', '-90.00', { pending: true });
    const ledger = sync(EMPTY, [...later, fits], '2027-01-11').ledger;
    const posting = tx('q1', '2027-01-10', '-100.00');
    // None listed any more: the fitting one is the 65th group looked at, not reached, so the posting is added.
    expect(planFor(ledger, [posting], '2027-01-11').counts.added).toBe(1);
    // One still listed (so no candidate) is one group fewer above it, and it is reached.
    expect(planFor(ledger, [later[0] as BridgeTransaction, posting], '2027-01-11').counts.replaced).toBe(1);
  });
});

describe('the bridge balance in words', () => {
  it('says by how much Leftover differs from the bank, and which way', () => {
    const rows = [row('2027-01-05', 'Cleared', 'D', 1_200, 'CLEARED')];
    const less = reconcileWithBridge(OPENING, rows, { balance: cents(100_000), balanceDate: isoDate('2027-01-08') });
    expect(bridgeBalanceText(less)).toBe("Leftover has $988.00, $12.00 less than the bank's balance of $1,000.00 on Fri, Jan 8, 2027");
    const more = reconcileWithBridge(OPENING, rows, { balance: cents(98_000), balanceDate: isoDate('2027-01-08') });
    expect(bridgeBalanceText(more)).toBe("Leftover has $988.00, $8.00 more than the bank's balance of $980.00 on Fri, Jan 8, 2027");
  });

  it('leaves out pending rows, rows no longer at the bank (even cleared), and rows after the balance date', () => {
    const mark = (state: BankState) => ({ key: { account: CHECKING, transaction: state }, state, missingSince: null });
    const rows: BankLedgerRow[] = [
      { ...row('2027-01-05', 'Pending', 'D', 700, 'PAID'), bank: mark('pending') },
      { ...row('2027-01-05', 'Gone', 'D', 900, 'CLEARED'), bank: mark('gone') },
      row('2027-01-09', 'Later', 'D', 100, 'CLEARED'),
    ];
    const reconciliation = reconcileWithBridge(cents(123_456), rows, { balance: cents(123_456), balanceDate: isoDate('2027-01-08') });
    expect(bridgeBalanceText(reconciliation)).toBe("Matches the bank's balance of $1,234.56 on Fri, Jan 8, 2027");
  });
});
