import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths, fromDayNumber, type IsoDate, isoDate, toDayNumber } from './calendar-date.js';
import { generateLedgerDrafts, type Occurrence, type ScheduleRef, type TransactionDraft } from './ledger.js';
import {
  followsSchedule,
  type LedgerSchedules,
  type ProjectedDraft,
  occurrenceKey,
  projectSchedules,
  reprojectSchedule,
  type SourcedRow,
} from './ledger-projection.js';
import { cents } from './money.js';
import { EXPENSE_FREQUENCIES, FREQUENCIES } from './schedules.js';

/** Property runs: modest in CI, more under `npm run fuzz`. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const BASE = toDayNumber(isoDate('2026-11-01'));
const day = (offset: number): IsoDate => fromDayNumber(BASE + offset);

const schedulesArbitrary: fc.Arbitrary<LedgerSchedules> = fc.record({
  deposits: fc.array(
    fc.record({
      id: fc.uuid(),
      name: fc.constantFrom('Acme', 'Side Job', 'Acme Paycheck'),
      amount: fc.integer({ min: 1, max: 500_000 }).map(cents),
      startDate: fc.integer({ min: -60, max: 400 }).map(day),
      frequency: fc.constantFrom(...FREQUENCIES),
    }),
    { maxLength: 3 },
  ),
  expenses: fc.array(
    fc.record({
      id: fc.uuid(),
      name: fc.constantFrom('Rent', 'rent', 'Gym', 'Phone'),
      amount: fc.integer({ min: 1, max: 200_000 }).map(cents),
      day: fc.integer({ min: 1, max: 31 }),
      endDate: fc.option(fc.integer({ min: -30, max: 600 }).map(day), { nil: null }),
      frequency: fc.constantFrom(...EXPENSE_FREQUENCIES),
      startDate: fc.integer({ min: -60, max: 400 }).map(day),
    }),
    { maxLength: 4 },
  ),
});

/** Three dates a <= b < c within about two years. */
const splitRange = fc
  .tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 300 }))
  .map(([start, first, second]) => ({ a: day(start), b: day(start + first), c: day(start + first + second) }));

const withoutSource = (draft: ProjectedDraft): TransactionDraft => ({
  date: draft.date,
  name: draft.name,
  type: draft.type,
  amount: draft.amount,
});

describe('projecting schedules', () => {
  it('gives the rows of generation, each naming its schedule and occurrence', () => {
    const schedules: LedgerSchedules = {
      deposits: [{ id: 'd1', name: 'Acme', amount: cents(150_000), startDate: isoDate('2026-12-04'), frequency: 'BW' }],
      expenses: [{ id: 'e1', name: 'Rent', amount: cents(120_000), day: 4, endDate: null }],
    };
    const range = { from: isoDate('2026-12-01'), to: isoDate('2026-12-31') };
    const drafts = projectSchedules(schedules, range);
    expect(drafts.map(withoutSource)).toEqual(generateLedgerDrafts(schedules.deposits, schedules.expenses, range));
    expect(drafts.map((draft) => draft.source)).toEqual([
      { kind: 'deposit', id: 'd1', occurrence: '2026-12-04' },
      { kind: 'expense', id: 'e1', occurrence: '2026-12-04' },
      { kind: 'deposit', id: 'd1', occurrence: '2026-12-18' },
    ]);
  });

  it('creating over [a, c] gives the rows of creating over [a, b] and extending to c (property)', () => {
    fc.assert(
      fc.property(schedulesArbitrary, splitRange, (schedules, { a, b, c }) => {
        const whole = projectSchedules(schedules, { from: a, to: c });
        const created = projectSchedules(schedules, { from: a, to: b });
        const extended = projectSchedules(schedules, { from: addDays(b, 1), to: c });
        expect([...created, ...extended]).toEqual(whole);
        expect(whole.map(withoutSource)).toEqual(generateLedgerDrafts(schedules.deposits, schedules.expenses, { from: a, to: c }));
      }),
      { numRuns: RUNS },
    );
  });
});

/** A ledger as a user lives in it: generated rows, some paid, cleared, edited or skipped, and rows added by hand. */
const livedLedgerArbitrary = fc
  .tuple(
    schedulesArbitrary,
    fc.integer({ min: 0, max: 200 }),
    fc.integer({ min: 1, max: 300 }),
    fc.integer({ min: -20, max: 320 }),
    fc.infiniteStream(fc.constantFrom('keep', 'keep', 'paid', 'cleared', 'edited', 'skipped', 'edited-paid')),
    fc.array(fc.record({ offset: fc.integer({ min: 0, max: 300 }), amount: fc.integer({ min: 1, max: 9_999 }) }), { maxLength: 4 }),
  )
  .map(([schedules, start, length, todayOffset, fates, handAdded]) => {
    const range = { from: day(start), to: day(start + length) };
    const rows: SourcedRow[] = [];
    const skipped = new Set<string>();
    let sequence = 0;
    const iterator = fates[Symbol.iterator]();
    for (const draft of projectSchedules(schedules, range)) {
      const fate = iterator.next().value as string;
      if (fate === 'skipped') {
        skipped.add(occurrenceKey(draft.source));
        continue;
      }
      const edited = fate.startsWith('edited');
      sequence += 1;
      rows.push({
        ...draft,
        id: `row-${sequence}`,
        sequence,
        name: edited ? `${draft.name} (moved)` : draft.name,
        status: fate === 'paid' || fate === 'edited-paid' ? 'PAID' : fate === 'cleared' ? 'CLEARED' : 'PENDING',
        source: { ...draft.source, edited },
      });
    }
    for (const row of handAdded) {
      sequence += 1;
      const date = day(start + Math.min(row.offset, length));
      rows.push({
        id: `row-${sequence}`,
        sequence,
        date,
        name: 'Zelle',
        type: 'D',
        amount: cents(row.amount),
        status: 'PENDING',
        source: null,
      });
    }
    const today = day(todayOffset);
    return { schedules, range, rows, skipped, window: { from: today > range.from ? today : range.from, to: range.to } };
  });

/** A change to one schedule: its new amount and dates, or its deletion. */
function changed(schedules: LedgerSchedules, target: ScheduleRef, deleted: boolean, shift: number): LedgerSchedules {
  if (deleted) {
    return {
      deposits: schedules.deposits.filter((deposit) => deposit.id !== target.id),
      expenses: schedules.expenses.filter((expense) => expense.id !== target.id),
    };
  }
  return {
    deposits: schedules.deposits.map((deposit) =>
      deposit.id === target.id ? { ...deposit, amount: cents(deposit.amount + 1), startDate: addDays(deposit.startDate, shift) } : deposit,
    ),
    expenses: schedules.expenses.map((expense) =>
      expense.id === target.id
        ? { ...expense, amount: cents(expense.amount + 1), day: ((expense.day + shift + 31 * 40) % 31) + 1 }
        : expense,
    ),
  };
}

describe('re-projecting one schedule', () => {
  const changeArbitrary = fc.tuple(livedLedgerArbitrary, fc.nat(), fc.boolean(), fc.integer({ min: -20, max: 20 }));

  function pick(schedules: LedgerSchedules, index: number): ScheduleRef | undefined {
    const all: ScheduleRef[] = [
      ...schedules.deposits.map((deposit) => ({ kind: 'deposit' as const, id: deposit.id })),
      ...schedules.expenses.map((expense) => ({ kind: 'expense' as const, id: expense.id })),
    ];
    return all.length === 0 ? undefined : all[index % all.length];
  }

  it('never touches PAID, CLEARED, edited, hand-added, past or other schedules’ rows, and never brings back a skipped occurrence (property)', () => {
    fc.assert(
      fc.property(changeArbitrary, ([ledger, index, deleted, shift]) => {
        const target = pick(ledger.schedules, index);
        if (!target) return;
        const result = reprojectSchedule(
          ledger.rows,
          target,
          ledger.schedules,
          changed(ledger.schedules, target, deleted, shift),
          ledger.window,
          ledger.skipped,
        );
        const removed = new Set(result.removed);
        for (const row of ledger.rows.filter((each) => removed.has(each.id))) {
          expect(row.status).toBe('PENDING');
          expect(row.source).toMatchObject({ kind: target.kind, id: target.id, edited: false });
          expect(row.date >= ledger.window.from).toBe(true);
        }
        for (const draft of result.added) {
          expect(ledger.skipped.has(occurrenceKey(draft.source))).toBe(false);
          expect(draft.source).toMatchObject(target);
          expect(draft.date >= ledger.window.from && draft.date <= ledger.window.to).toBe(true);
        }
        if (deleted) expect(result.added).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('leaves the schedule with exactly one row per occurrence it now has in the window, less the skipped ones (property)', () => {
    fc.assert(
      fc.property(changeArbitrary, ([ledger, index, deleted, shift]) => {
        const target = pick(ledger.schedules, index);
        if (!target) return;
        const now = changed(ledger.schedules, target, deleted, shift);
        const result = reprojectSchedule(ledger.rows, target, ledger.schedules, now, ledger.window, ledger.skipped);
        const removed = new Set(result.removed);
        const stillFollowing = ledger.rows
          .filter((row) => !removed.has(row.id) && followsSchedule(row, target, ledger.window.from))
          .map((row) => row.source as Occurrence);
        const followingKeys = [...stillFollowing, ...result.added.map((draft) => draft.source)].map(occurrenceKey);
        expect(new Set(followingKeys).size).toBe(followingKeys.length);
        // Every unpaid, unedited row still following the schedule is one of its occurrences as it now is.
        const expected = new Set(projectSchedules(now, ledger.window).map((draft) => occurrenceKey(draft.source)));
        for (const key of followingKeys) expect(expected.has(key)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps the rows that already match, so an unchanged schedule changes nothing', () => {
    fc.assert(
      fc.property(livedLedgerArbitrary, fc.nat(), (ledger, index) => {
        const target = pick(ledger.schedules, index);
        if (!target) return;
        expect(reprojectSchedule(ledger.rows, target, ledger.schedules, ledger.schedules, ledger.window, ledger.skipped)).toEqual({
          removed: [],
          added: [],
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('replaces the future unpaid rows of a changed expense and keeps the paid one', () => {
    const rent = { id: 'e1', name: 'Rent', amount: cents(100_000), day: 1, endDate: null };
    const range = { from: isoDate('2026-12-01'), to: isoDate('2027-03-31') };
    const rows: SourcedRow[] = projectSchedules({ deposits: [], expenses: [rent] }, range).map((draft, index) => ({
      ...draft,
      id: `r${index}`,
      sequence: index + 1,
      status: index === 1 ? 'PAID' : 'PENDING',
      source: { ...draft.source, edited: false },
    }));
    const window = { from: isoDate('2026-12-15'), to: range.to };
    const result = reprojectSchedule(
      rows,
      { kind: 'expense', id: 'e1' },
      { deposits: [], expenses: [rent] },
      { deposits: [], expenses: [{ ...rent, amount: cents(110_000) }] },
      window,
      new Set(),
    );
    // December is past, January is paid: February and March follow the new amount.
    expect(result.removed).toEqual(['r2', 'r3']);
    expect(result.added.map((draft) => [draft.date, draft.amount])).toEqual([
      ['2027-02-01', 110_000],
      ['2027-03-01', 110_000],
    ]);
  });
});

describe('re-projecting when a schedule moves its dates', () => {
  const phone = { id: 'e1', name: 'Phone', amount: cents(4_500), day: 15, endDate: null };
  const range = { from: isoDate('2026-11-01'), to: isoDate('2027-01-31') };
  const window = { from: isoDate('2026-11-21'), to: range.to };
  const rows: SourcedRow[] = projectSchedules({ deposits: [], expenses: [phone] }, range).map((draft, index) => ({
    ...draft,
    id: `r${index}`,
    sequence: index + 1,
    // November's is past; December's was paid early.
    status: draft.date === '2026-12-15' ? 'PAID' : 'PENDING',
    source: { ...draft.source, edited: false },
  }));

  it('keeps a paid month at one row when the bill moves to another day', () => {
    const result = reprojectSchedule(
      rows,
      { kind: 'expense', id: 'e1' },
      { deposits: [], expenses: [phone] },
      { deposits: [], expenses: [{ ...phone, day: 20 }] },
      window,
      new Set(),
    );
    expect(result.removed).toEqual(['r2']);
    expect(result.added.map((draft) => draft.date)).toEqual(['2027-01-20']);
  });

  it('keeps a skipped month skipped when the bill moves to another day', () => {
    const unpaid = rows.filter((row) => row.date !== '2027-01-15');
    const skipped = new Set([occurrenceKey({ kind: 'expense', id: 'e1', occurrence: isoDate('2027-01-15') })]);
    const result = reprojectSchedule(
      unpaid,
      { kind: 'expense', id: 'e1' },
      { deposits: [], expenses: [phone] },
      { deposits: [], expenses: [{ ...phone, day: 22 }] },
      window,
      skipped,
    );
    expect(result.added).toEqual([]);
  });

  it('lets a twice-a-month deposit fill each half of a month once, whatever weekend moved its payday', () => {
    const pay = { id: 'd1', name: 'Acme', amount: cents(100_000), startDate: isoDate('2026-10-01'), frequency: 'SM' as const };
    const paid: SourcedRow[] = projectSchedules({ deposits: [pay], expenses: [] }, range).map((draft, index) => ({
      ...draft,
      id: `p${index}`,
      sequence: index + 1,
      status: 'CLEARED',
      source: { ...draft.source, edited: false },
    }));
    // Every payday is already cleared: a change of amount projects nothing again.
    const result = reprojectSchedule(
      paid,
      { kind: 'deposit', id: 'd1' },
      { deposits: [pay], expenses: [] },
      { deposits: [{ ...pay, amount: cents(1) }], expenses: [] },
      window,
      new Set(),
    );
    expect(result).toEqual({ removed: [], added: [] });
  });
});

describe('re-projecting a schedule that changes its frequency', () => {
  it('gives it its new dates even where an old paid one stood: a new rhythm fills no old period', () => {
    const phone = { id: 'e1', name: 'Phone', amount: cents(4_500), day: 15, endDate: null };
    const range = { from: isoDate('2026-11-01'), to: isoDate('2027-01-31') };
    const rows: SourcedRow[] = projectSchedules({ deposits: [], expenses: [phone] }, range).map((draft, index) => ({
      ...draft,
      id: `r${index}`,
      sequence: index + 1,
      status: draft.date === '2026-12-15' ? 'PAID' : 'PENDING',
      source: { ...draft.source, edited: false },
    }));
    // Monthly on the 15th becomes weekly from Monday 2026-12-14: December's paid 15th fills no week.
    const weekly = { ...phone, frequency: 'W' as const, startDate: isoDate('2026-12-14') };
    const result = reprojectSchedule(
      rows,
      { kind: 'expense', id: 'e1' },
      { deposits: [], expenses: [phone] },
      { deposits: [], expenses: [weekly] },
      { from: isoDate('2026-11-21'), to: range.to },
      new Set(),
    );
    expect(result.removed).toEqual(['r2']);
    expect(result.added.map((draft) => draft.date)).toEqual([
      '2026-12-14',
      '2026-12-21',
      '2026-12-28',
      '2027-01-04',
      '2027-01-11',
      '2027-01-18',
      '2027-01-25',
    ]);
  });
});

describe('months', () => {
  it('adds months, keeping the day or taking the last day of a shorter month', () => {
    expect(addMonths(isoDate('2026-11-30'), 3)).toBe('2027-02-28');
    expect(addMonths(isoDate('2027-11-30'), 3)).toBe('2028-02-29');
    expect(addMonths(isoDate('2026-12-15'), 1)).toBe('2027-01-15');
    expect(addMonths(isoDate('2026-01-31'), -2)).toBe('2025-11-30');
  });
});
