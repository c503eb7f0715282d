/**
 * The transfer rules (decision 0043): which type the other side has, when two rows are each
 * other's sides, what an edit or a delete of one side does to the other, and how a recurring
 * transfer's rows pair up. The pairing has a property too: after its changes every debit with a
 * free credit of its occurrence is mutually linked, nothing is named twice, rows kept paired are
 * never touched, and pairing again changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type IsoDate, isoDate } from './calendar-date.js';
import { type LedgerRow, type TransactionStatus, type TransferLink, TRANSACTION_STATUSES } from './ledger.js';
import { cents } from './money.js';
import {
  followDelete,
  followEdit,
  isPairedWith,
  type LinkChange,
  otherType,
  type PairableRow,
  pairRecurringSides,
  type ScheduleSide,
} from './transfers.js';

/** Property runs: modest in CI, more under `npm run fuzz`. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);

const d = isoDate;

/** A PENDING $100 debit on 2026-11-25 named "Transfer to Savings", with the given link. */
function row(id: string, extra: Partial<LedgerRow> = {}): LedgerRow {
  return {
    id,
    sequence: 1,
    date: d('2026-11-25'),
    name: 'Transfer to Savings',
    type: 'D',
    amount: cents(10_000),
    status: 'PENDING',
    source: null,
    transfer: null,
    ...extra,
  };
}

/** A debit in Checking and its credit in Savings, each naming the other. */
function pair(): { debit: LedgerRow; credit: LedgerRow } {
  return {
    debit: row('debit', { transfer: { id: 'credit', accountId: 'savings' } }),
    credit: row('credit', { type: 'C', sequence: 7, transfer: { id: 'debit', accountId: 'checking' } }),
  };
}

describe('otherType', () => {
  it('answers a credit for a debit and a debit for a credit', () => {
    expect(otherType('D')).toBe('C');
    expect(otherType('C')).toBe('D');
    expect(otherType(otherType('D'))).toBe('D');
  });
});

describe('isPairedWith', () => {
  it('holds both ways for two rows that name each other, of other types, sharing date, amount and name', () => {
    const { debit, credit } = pair();
    expect(isPairedWith(debit, credit)).toBe(true);
    expect(isPairedWith(credit, debit)).toBe(true);
  });

  it('holds whatever each side’s status, sequence or source: those are each side’s own', () => {
    const { debit, credit } = pair();
    const occurrence = { kind: 'expense' as const, id: 'e', occurrence: d('2026-11-25'), edited: false };
    expect(isPairedWith({ ...debit, status: 'CLEARED', source: occurrence }, { ...credit, status: 'PAID', sequence: 99 })).toBe(true);
  });

  it('fails when either side does not name the other, or names another row', () => {
    const { debit, credit } = pair();
    expect(isPairedWith({ ...debit, transfer: null }, credit)).toBe(false);
    expect(isPairedWith(debit, { ...credit, transfer: null })).toBe(false);
    expect(isPairedWith({ ...debit, transfer: undefined }, credit)).toBe(false);
    expect(isPairedWith(debit, { ...credit, transfer: { id: 'someone-else', accountId: 'checking' } })).toBe(false);
    expect(isPairedWith({ ...debit, transfer: { id: 'someone-else', accountId: 'savings' } }, credit)).toBe(false);
    // A row never pairs with itself, even one that names itself.
    const selfish = row('self', { transfer: { id: 'self', accountId: 'checking' } });
    expect(isPairedWith(selfish, selfish)).toBe(false);
  });

  it('fails when the types are the same, or the date, amount or name differ', () => {
    const { debit, credit } = pair();
    expect(isPairedWith(debit, { ...credit, type: 'D' })).toBe(false);
    expect(isPairedWith({ ...debit, type: 'C' }, credit)).toBe(false);
    expect(isPairedWith(debit, { ...credit, date: d('2026-11-26') })).toBe(false);
    expect(isPairedWith(debit, { ...credit, amount: cents(10_001) })).toBe(false);
    expect(isPairedWith(debit, { ...credit, name: 'Transfer to savings' })).toBe(false);
  });
});

describe('followEdit', () => {
  const edited = { date: d('2026-12-03'), name: 'Rainy day', amount: cents(15_050) };

  it('gives a PENDING other side the edited date, name and amount, keeping its own status', () => {
    const { credit } = pair();
    expect(followEdit(edited, credit)).toEqual({ changes: { ...edited, status: 'PENDING' } });
  });

  it('takes nothing but the date, name and amount from the edit: not its status', () => {
    const { credit } = pair();
    // The server hands the edited side's whole change (status included) to the rule.
    const withStatus = { ...edited, status: 'PAID' as TransactionStatus, type: 'C' };
    expect(followEdit(withStatus, credit)).toEqual({ changes: { ...edited, status: 'PENDING' } });
  });

  it.each(['PAID', 'CLEARED'] as const)('refuses while the other side is %s, naming that status', (status) => {
    const { credit } = pair();
    expect(followEdit(edited, { ...credit, status })).toEqual({ kind: 'other-side-settled', status });
  });

  it('refuses exactly the statuses that cannot be edited', () => {
    const { credit } = pair();
    const refused = TRANSACTION_STATUSES.filter((status) => 'kind' in followEdit(edited, { ...credit, status }));
    expect(refused).toEqual(['PAID', 'CLEARED']);
  });
});

describe('followDelete', () => {
  it('lets a PENDING other side go with the deleted one', () => {
    expect(followDelete(pair().credit)).toBeUndefined();
  });

  it.each(['PAID', 'CLEARED'] as const)('refuses while the other side is %s, naming that status', (status) => {
    expect(followDelete({ ...pair().credit, status })).toEqual({ kind: 'other-side-settled', status });
  });
});

/** A row of a recurring transfer: an occurrence (or none, for a row added by hand) and a link. */
function side(accountId: string, id: string, occurrence: string | null, transfer: TransferLink | null = null): ScheduleSide {
  return { accountId, row: { id, transfer, source: occurrence === null ? null : { occurrence: d(occurrence) } } };
}

const FROM_TO = { from: 'checking', to: 'savings' };
const NONE_PAIRED = new Set<string>();
const ON_1 = '2026-12-01';
const ON_2 = '2027-01-01';

/** The changes as [row id, new link] in the order answered. */
const written = (changes: readonly LinkChange[]) => changes.map(({ side, link }) => [side.row.id, link]);

describe('pairRecurringSides', () => {
  it('links each debit in From with the credit in To of the same occurrence, both ways', () => {
    const sides = [side('checking', 'd1', ON_1), side('checking', 'd2', ON_2), side('savings', 'c2', ON_2), side('savings', 'c1', ON_1)];
    const changes = pairRecurringSides(sides, FROM_TO, NONE_PAIRED);
    expect(written(changes)).toEqual([
      ['d1', { id: 'c1', accountId: 'savings' }],
      ['c1', { id: 'd1', accountId: 'checking' }],
      ['d2', { id: 'c2', accountId: 'savings' }],
      ['c2', { id: 'd2', accountId: 'checking' }],
    ]);
    // The change names the side as given, so the caller can write that very row.
    expect(changes[0]?.side).toBe(sides[0]);
  });

  it('answers only the links that change: rows already linked right stay out of the answer', () => {
    const sides = [
      side('checking', 'd1', ON_1, { id: 'c1', accountId: 'savings' }),
      side('savings', 'c1', ON_1, { id: 'd1', accountId: 'checking' }),
      side('checking', 'd2', ON_2),
      side('savings', 'c2', ON_2),
      side('savings', 'lonely', '2027-02-01'),
    ];
    expect(written(pairRecurringSides(sides, FROM_TO, NONE_PAIRED))).toEqual([
      ['d2', { id: 'c2', accountId: 'savings' }],
      ['c2', { id: 'd2', accountId: 'checking' }],
    ]);
  });

  it('rewrites a link that names the right row in the wrong account', () => {
    const sides = [
      side('checking', 'd1', ON_1, { id: 'c1', accountId: 'cash' }),
      side('savings', 'c1', ON_1, { id: 'd1', accountId: 'checking' }),
    ];
    expect(written(pairRecurringSides(sides, FROM_TO, NONE_PAIRED))).toEqual([['d1', { id: 'c1', accountId: 'savings' }]]);
  });

  it('re-pairs rows linked across occurrences, each with its own occurrence', () => {
    const sides = [
      side('checking', 'd1', ON_1, { id: 'c2', accountId: 'savings' }),
      side('checking', 'd2', ON_2, { id: 'c1', accountId: 'savings' }),
      side('savings', 'c1', ON_1, { id: 'd2', accountId: 'checking' }),
      side('savings', 'c2', ON_2, { id: 'd1', accountId: 'checking' }),
    ];
    expect(written(pairRecurringSides(sides, FROM_TO, NONE_PAIRED))).toEqual([
      ['d1', { id: 'c1', accountId: 'savings' }],
      ['c1', { id: 'd1', accountId: 'checking' }],
      ['d2', { id: 'c2', accountId: 'savings' }],
      ['c2', { id: 'd2', accountId: 'checking' }],
    ]);
  });

  it('unlinks a debit with no credit of its occurrence, and a credit with no debit of its own', () => {
    const sides = [
      side('checking', 'd1', ON_1, { id: 'gone', accountId: 'savings' }),
      side('savings', 'c2', ON_2, { id: 'd1', accountId: 'checking' }),
    ];
    expect(written(pairRecurringSides(sides, FROM_TO, NONE_PAIRED))).toEqual([
      ['d1', null],
      ['c2', null],
    ]);
  });

  it('pairs the first debit and the first credit of an occurrence when there are more; the others carry no link', () => {
    const sides = [
      side('savings', 'c1', ON_1, { id: 'd2', accountId: 'checking' }),
      side('checking', 'd1', ON_1),
      side('checking', 'd2', ON_1, { id: 'c1', accountId: 'savings' }),
      side('savings', 'c1b', ON_1, { id: 'd2', accountId: 'checking' }),
    ];
    expect(written(pairRecurringSides(sides, FROM_TO, NONE_PAIRED))).toEqual([
      ['d1', { id: 'c1', accountId: 'savings' }],
      ['c1', { id: 'd1', accountId: 'checking' }],
      ['d2', null],
      ['c1b', null],
    ]);
  });

  it('unlinks every row once the expense is an ordinary bill again (no transfer)', () => {
    const sides = [
      side('checking', 'd1', ON_1, { id: 'c1', accountId: 'savings' }),
      side('savings', 'c1', ON_1, { id: 'd1', accountId: 'checking' }),
      side('checking', 'plain', ON_2),
    ];
    expect(written(pairRecurringSides(sides, undefined, NONE_PAIRED))).toEqual([
      ['d1', null],
      ['c1', null],
    ]);
  });

  it('unlinks rows in a ledger the expense no longer pays from or into', () => {
    const sides = [
      side('cash', 'old-debit', ON_1, { id: 'c1', accountId: 'savings' }),
      side('checking', 'd1', ON_1),
      side('savings', 'c1', ON_1, { id: 'old-debit', accountId: 'cash' }),
    ];
    expect(written(pairRecurringSides(sides, FROM_TO, NONE_PAIRED))).toEqual([
      ['d1', { id: 'c1', accountId: 'savings' }],
      ['c1', { id: 'd1', accountId: 'checking' }],
      ['old-debit', null],
    ]);
  });

  it('leaves the rows in `paired` exactly as they are, and keeps them from pairing with anything else', () => {
    const sides = [
      // A debit kept paired with a credit in a ledger the expense paid into before.
      side('checking', 'kept', ON_1, { id: 'elsewhere', accountId: 'cash' }),
      side('savings', 'c1', ON_1, { id: 'kept', accountId: 'checking' }),
      side('checking', 'kept-too', ON_2, { id: 'c2', accountId: 'savings' }),
      side('savings', 'c2', ON_2, { id: 'kept-too', accountId: 'checking' }),
      side('checking', 'd2', ON_2),
    ];
    const paired = new Set(['kept', 'kept-too', 'c2']);
    expect(written(pairRecurringSides(sides, FROM_TO, paired))).toEqual([
      // c1 is free but its occurrence's debit is kept: it has no debit to pair with.
      ['c1', null],
    ]);
    expect(written(pairRecurringSides(sides, undefined, paired))).toEqual([['c1', null]]);
  });

  it('never touches rows added by hand (no occurrence), linked or not', () => {
    const sides = [side('checking', 'hand', null, { id: 'x', accountId: 'savings' }), side('savings', 'hand-c', null)];
    expect(pairRecurringSides(sides, FROM_TO, NONE_PAIRED)).toEqual([]);
    expect(pairRecurringSides(sides, undefined, NONE_PAIRED)).toEqual([]);
  });

  it('answers nothing for no rows', () => {
    expect(pairRecurringSides([], FROM_TO, NONE_PAIRED)).toEqual([]);
  });
});

describe('pairRecurringSides, as a property', () => {
  const ACCOUNTS = ['checking', 'savings', 'cash'] as const;
  const OCCURRENCES = ['2026-12-01', '2027-01-01', '2027-02-01', '2027-03-01'] as const;

  interface Generated {
    readonly sides: ScheduleSide[];
    readonly paired: Set<string>;
    readonly transfer: { from: string; to: string } | undefined;
  }

  /**
   * Rows in three accounts with random occurrences (a few added by hand), random links to any row
   * or to rows elsewhere, and some kept pairs: mutual ones among the rows, and rows whose other
   * side is in a ledger not read (both named in `paired`, as the follower finds them).
   */
  const generated: fc.Arbitrary<Generated> = fc
    .record({
      rows: fc.array(
        fc.record({
          account: fc.constantFrom(...ACCOUNTS),
          occurrence: fc.option(fc.constantFrom(...OCCURRENCES), { freq: 8 }),
          link: fc.option(fc.record({ target: fc.nat(40), account: fc.constantFrom(...ACCOUNTS) }), { freq: 2 }),
          keep: fc.nat(9),
        }),
        { maxLength: 24 },
      ),
      transfer: fc.option(
        fc.constantFrom(
          { from: 'checking', to: 'savings' },
          { from: 'savings', to: 'checking' },
          { from: 'cash', to: 'checking' },
          { from: 'checking', to: 'elsewhere' },
        ),
        { freq: 5 },
      ),
    })
    .map(({ rows, transfer }) => {
      const ids = rows.map((_, index) => `r${index}`);
      const links: (TransferLink | null)[] = rows.map(({ link }) =>
        link === null ? null : { id: link.target < ids.length ? `r${link.target}` : `gone${link.target}`, accountId: link.account },
      );
      const paired = new Set<string>();
      rows.forEach(({ keep, account }, index) => {
        const id = `r${index}`;
        if (paired.has(id)) return;
        if (keep === 0) {
          // Kept with a row in a ledger not read.
          links[index] = { id: `far${index}`, accountId: 'old' };
          paired.add(id);
        } else if (keep === 1) {
          // Kept with the next row not yet kept: both name each other.
          const partner = rows.findIndex((_, other) => other > index && !paired.has(`r${other}`));
          if (partner < 0) return;
          links[index] = { id: `r${partner}`, accountId: rows[partner]?.account ?? 'old' };
          links[partner] = { id, accountId: account };
          paired.add(id).add(`r${partner}`);
        }
      });
      const sides = rows.map(({ account, occurrence }, index): ScheduleSide => ({
        accountId: account,
        row: { id: ids[index] as string, transfer: links[index], source: occurrence === null ? null : { occurrence: d(occurrence) } },
      }));
      return { sides, paired, transfer: transfer ?? undefined };
    });

  /** The sides with the changes written, as the follower writes them. */
  function applied(sides: readonly ScheduleSide[], changes: readonly LinkChange[]): ScheduleSide[] {
    const links = new Map(changes.map(({ side, link }) => [side.row.id, link]));
    return sides.map((one) => (links.has(one.row.id) ? { ...one, row: { ...one.row, transfer: links.get(one.row.id) ?? null } } : one));
  }

  const linkOf = (row: PairableRow): TransferLink | null => row.transfer ?? null;
  const occurrenceOf = (row: PairableRow): IsoDate | undefined => row.source?.occurrence;

  it('links every debit that has a free credit of its occurrence, names no row twice, keeps `paired`, and is idempotent', () => {
    fc.assert(
      fc.property(generated, ({ sides, paired, transfer }) => {
        const changes = pairRecurringSides(sides, transfer, paired);

        // Each change is a real change, of a free generated row, written once.
        const changed = changes.map(({ side }) => side.row.id);
        expect(new Set(changed).size).toBe(changed.length);
        for (const { side: one, link } of changes) {
          expect(sides).toContain(one);
          expect(paired.has(one.row.id)).toBe(false);
          expect(one.row.source).toBeTruthy();
          expect(link).not.toEqual(linkOf(one.row));
        }

        const after = applied(sides, changes);
        const byId = new Map(after.map((one) => [one.row.id, one]));
        const isFree = (one: ScheduleSide) => Boolean(one.row.source) && !paired.has(one.row.id);

        // Rows in `paired` and rows added by hand end exactly as they began.
        after.forEach((one, index) => {
          if (!isFree(one)) expect(one).toBe(sides[index]);
        });

        // Every free row ends either unlinked or mutually linked across From and To, on one occurrence.
        for (const one of after.filter(isFree)) {
          const link = linkOf(one.row);
          if (link === null) continue;
          expect(transfer).toBeDefined();
          const other = byId.get(link.id);
          expect(other && isFree(other)).toBe(true);
          if (!other || !transfer) continue;
          expect(linkOf(other.row)).toEqual({ id: one.row.id, accountId: one.accountId });
          expect(link.accountId).toBe(other.accountId);
          expect(occurrenceOf(other.row)).toBe(occurrenceOf(one.row));
          expect([one.accountId, other.accountId].sort()).toEqual([transfer.from, transfer.to].sort());
        }

        // Per occurrence, a debit with a free credit of its occurrence is linked to it. A schedule
        // puts one row per occurrence in a ledger; should there be more, the first debit takes the
        // first credit and the others carry no link.
        if (transfer) {
          for (const occurrence of OCCURRENCES) {
            const free = (account: string) =>
              after.filter((one) => isFree(one) && one.accountId === account && occurrenceOf(one.row) === occurrence);
            const [debit, ...otherDebits] = free(transfer.from);
            const [credit, ...otherCredits] = free(transfer.to);
            if (debit) expect(linkOf(debit.row)).toEqual(credit ? { id: credit.row.id, accountId: transfer.to } : null);
            for (const one of [...otherDebits, ...otherCredits]) expect(linkOf(one.row)).toBeNull();
          }
        } else {
          for (const one of after.filter(isFree)) expect(linkOf(one.row)).toBeNull();
        }

        // No row is named by two rows, free or kept (rows added by hand keep whatever they had).
        const named = after
          .filter((one) => one.row.source)
          .map((one) => linkOf(one.row)?.id)
          .filter((id): id is string => id !== undefined && byId.has(id));
        expect(new Set(named).size).toBe(named.length);

        // Again: nothing more to change.
        expect(pairRecurringSides(after, transfer, paired)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});
