import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRows } from '../balances.js';
import { addDays, daysBetween, type IsoDate, isoDate, toDayNumber } from '../calendar-date.js';
import { InvalidInputError } from '../errors.js';
import { type LedgerRow, type TransactionStatus, type TransactionType } from '../ledger.js';
import { type Cents, cents } from '../money.js';
import { compareNames } from '../names.js';
import { reconcile } from './reconciliation.js';
import { readStatement } from './statement-file.js';
import {
  applyDecisions,
  type Decision,
  MATCH_WINDOW_DAYS,
  MAX_MATCH_CANDIDATES,
  type MatchOptions,
  matchStatement,
  matchStatementWithin,
  type Proposal,
  wordsOf,
} from './statement-matching.js';
import { type StatementRow } from './statement-row.js';

/** Property runs: modest in CI, more under `npm run fuzz`. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const FIXTURES = new URL('../../../tests/fixtures/statements/', import.meta.url);
const JANUARY = { startDate: isoDate('2027-01-01'), endDate: isoDate('2027-01-31'), importedIds: new Set<string>() };

let sequence = 0;
const ledgerRow = (date: string, name: string, type: TransactionType, amount: number, status: TransactionStatus = 'PENDING'): LedgerRow => {
  sequence += 1;
  return { id: `L${sequence}`, sequence, date: isoDate(date), name, type, amount: cents(amount), status };
};
const statementRow = (index: number, date: string, description: string, type: TransactionType, amount: number): StatementRow => ({
  index,
  date: isoDate(date),
  description,
  type,
  amount: cents(amount),
  importId: `S${index}`,
});
const actions = (proposals: readonly Proposal[]): string[] =>
  proposals.map((p) => (p.action === 'match' ? `match ${p.matchId}` : p.action));

describe('proposals', () => {
  it('match an open row of the same type and amount within 5 days either way', () => {
    const rows = [ledgerRow('2027-01-10', 'Rent', 'D', 1000)];
    const on = (date: string) => actions(matchStatement([statementRow(0, date, 'RENT', 'D', 1000)], rows, JANUARY));
    expect(on('2027-01-05')).toEqual([`match ${rows[0]?.id}`]);
    expect(on('2027-01-15')).toEqual([`match ${rows[0]?.id}`]);
    expect(on('2027-01-04')).toEqual(['new']);
    expect(on('2027-01-16')).toEqual(['new']);
  });

  it('never match a CLEARED row, another type or another amount', () => {
    const rows = [
      ledgerRow('2027-01-10', 'A', 'D', 1000, 'CLEARED'),
      ledgerRow('2027-01-10', 'B', 'C', 1000),
      ledgerRow('2027-01-10', 'C', 'D', 1001),
    ];
    expect(actions(matchStatement([statementRow(0, '2027-01-10', 'A', 'D', 1000)], rows, JANUARY))).toEqual(['new']);
  });

  it('never match a row no longer at the bank, and refuse a decision that names one (decision 0084)', () => {
    const gone = { ...ledgerRow('2027-01-10', 'HOTEL HOLD', 'D', 15_000, 'PAID'), bank: { state: 'gone' as const } };
    const statement = [statementRow(0, '2027-01-10', 'HOTEL', 'D', 15_000)];
    const proposals = matchStatement(statement, [gone], JANUARY);
    expect(actions(proposals)).toEqual(['new']);
    expect(() => applyDecisions(proposals, [{ index: 0, action: 'match', matchId: gone.id }], statement, [gone])).toThrow(
      InvalidInputError,
    );
  });

  it('match PENDING and PAID rows alike', () => {
    const paid = ledgerRow('2027-01-10', 'A', 'D', 1000, 'PAID');
    expect(actions(matchStatement([statementRow(0, '2027-01-10', 'A', 'D', 1000)], [paid], JANUARY))).toEqual([`match ${paid.id}`]);
  });

  it('say "duplicate" for an id imported before, even outside the ledger, and "outside" past either end', () => {
    const options = { ...JANUARY, importedIds: new Set(['S0', 'S3']) };
    const rows = [
      statementRow(0, '2027-01-10', 'A', 'D', 1),
      statementRow(1, '2026-12-31', 'B', 'D', 1),
      statementRow(2, '2027-02-01', 'C', 'D', 1),
      statementRow(3, '2027-02-01', 'D', 'D', 1),
      statementRow(4, '2027-01-01', 'E', 'D', 1),
      statementRow(5, '2027-01-31', 'F', 'D', 1),
    ];
    expect(actions(matchStatement(rows, [], options))).toEqual(['duplicate', 'outside', 'outside', 'duplicate', 'new', 'new']);
  });

  it('prefer the nearest date, then the most shared words, then row order', () => {
    const far = ledgerRow('2027-01-07', 'Acme Paycheck', 'C', 500);
    const near = ledgerRow('2027-01-12', 'Other', 'C', 500);
    expect(actions(matchStatement([statementRow(0, '2027-01-10', 'ACME PAYROLL', 'C', 500)], [far, near], JANUARY))).toEqual([
      `match ${near.id}`,
    ]);

    const words = ledgerRow('2027-01-12', 'Acme Paycheck', 'C', 500);
    expect(actions(matchStatement([statementRow(0, '2027-01-10', 'ACME PAYROLL', 'C', 500)], [near, words], JANUARY))).toEqual([
      `match ${words.id}`,
    ]);

    // Same distance, no shared words: row order (date, credits first, name, creation) decides, not the input order.
    const zebra = ledgerRow('2027-01-08', 'Zebra', 'C', 500);
    const apple = ledgerRow('2027-01-12', 'Apple', 'C', 500);
    expect(actions(matchStatement([statementRow(0, '2027-01-10', 'DEPOSIT', 'C', 500)], [apple, zebra], JANUARY))).toEqual([
      `match ${zebra.id}`,
    ]);
  });

  it('give each ledger row to one statement row: the nearer one, the other takes what is left', () => {
    const first = ledgerRow('2027-01-10', 'Coffee', 'D', 475);
    const second = ledgerRow('2027-01-14', 'Coffee', 'D', 475);
    const statement = [statementRow(0, '2027-01-12', 'COFFEE', 'D', 475), statementRow(1, '2027-01-10', 'COFFEE', 'D', 475)];
    expect(actions(matchStatement(statement, [first, second], JANUARY))).toEqual([`match ${second.id}`, `match ${first.id}`]);
    const three = [...statement, statementRow(2, '2027-01-11', 'COFFEE', 'D', 475)];
    expect(actions(matchStatement(three, [first, second], JANUARY))).toEqual([`match ${second.id}`, `match ${first.id}`, 'new']);
  });

  it('treat words as letters and digits in any case', () => {
    expect([...wordsOf('WAL-MART #1234, Café')]).toEqual(['wal', 'mart', '1234', 'café']);
  });
});

describe('the samples’ matching ledger', () => {
  // Acme every other Friday from 2027-01-01, Rent on the 1st, Phone on the 15th, January 2027.
  const ledger = (): LedgerRow[] => [
    ledgerRow('2027-01-01', 'Acme Paycheck', 'C', 100_000),
    ledgerRow('2027-01-01', 'Rent', 'D', 120_000),
    ledgerRow('2027-01-15', 'Acme Paycheck', 'C', 100_000),
    ledgerRow('2027-01-15', 'Phone', 'D', 5_055),
    ledgerRow('2027-01-29', 'Acme Paycheck', 'C', 100_000),
  ];

  it.each(['checking-ofx1-sgml.ofx', 'checking-ofx2-xml.ofx', 'checking-posting-date.csv', 'credit-union-debit-credit.csv'])(
    '%s: two paychecks, Rent and Phone matched, four added, reconciled',
    (name) => {
      const rows = ledger();
      const [jan1, rent, jan15, phone] = rows;
      const statement = readStatement(name, fs.readFileSync(new URL(name, FIXTURES), 'utf8'));
      const proposals = matchStatement(statement.rows, rows, JANUARY);
      const byDate = new Map(statement.rows.map((row) => [row.date, proposals[statement.rows.indexOf(row)]]));
      expect(byDate.get(isoDate('2027-01-01'))?.matchId).toBe(jan1?.id);
      expect(byDate.get(isoDate('2027-01-02'))?.matchId).toBe(rent?.id);
      expect(byDate.get(isoDate('2027-01-15'))?.matchId).toBe(jan15?.id);
      expect(byDate.get(isoDate('2027-01-16'))?.matchId).toBe(phone?.id);

      const plan = applyDecisions(proposals, [], statement.rows, rows);
      expect(plan.counts).toEqual({ matched: 4, added: 4, duplicates: 0, outside: 0, skipped: 0 });
      expect(plan.added.map((row) => row.amount)).toEqual(expect.arrayContaining([5_423, 475, 3_810, 2_500]));

      const after = applyPlan(rows, plan);
      const bank = statement.bank ?? { balance: cents(0), date: isoDate('2027-01-16') };
      expect(reconcile(cents(50_000), after, bank)).toEqual({ bankBalance: 117_737, date: '2027-01-16', leftover: 117_737, difference: 0 });

      // Importing the same file again changes nothing: every row was imported before.
      const importedIds = new Set([...plan.matched, ...plan.added].map((row) => row.importId));
      const again = matchStatement(statement.rows, after, { ...JANUARY, importedIds });
      expect(applyDecisions(again, [], statement.rows, after).counts).toEqual({
        matched: 0,
        added: 0,
        duplicates: 8,
        outside: 0,
        skipped: 0,
      });
    },
  );
});

/** What the server's import does with a plan, as plain rows. */
function applyPlan(rows: readonly LedgerRow[], plan: ReturnType<typeof applyDecisions>): LedgerRow[] {
  const matched = new Map(plan.matched.map((row) => [row.ledgerRowId, row]));
  const updated = rows.map((row) => {
    const match = matched.get(row.id);
    return match ? { ...row, date: match.date, status: 'CLEARED' as const } : row;
  });
  const added = plan.added.map((row, position) => ({
    id: `new-${position}`,
    sequence: 1000 + position,
    date: row.date,
    name: row.name,
    type: row.type,
    amount: row.amount,
    status: 'CLEARED' as const,
  }));
  return [...updated, ...added];
}

describe('decisions', () => {
  const rent = ledgerRow('2027-01-01', 'Rent', 'D', 120_000);
  const lateRent = ledgerRow('2027-01-20', 'Rent again', 'D', 120_000);
  const cleared = ledgerRow('2027-01-03', 'Old rent', 'D', 120_000, 'CLEARED');
  const phone = ledgerRow('2027-01-15', 'Phone', 'D', 5_055);
  const ledgerRows = [rent, lateRent, cleared, phone];
  const statement = [
    statementRow(0, '2027-01-02', 'OAKWOOD APTS', 'D', 120_000),
    statementRow(1, '2027-01-16', 'VERIZON', 'D', 5_055),
    statementRow(2, '2027-01-09', 'SHELL', 'D', 3_810),
    statementRow(3, '2027-01-10', 'ZELLE', 'C', 2_500),
    statementRow(4, '2027-02-02', 'LATER', 'D', 100),
  ];
  const options = { ...JANUARY, importedIds: new Set(['S3']) };
  const proposals = matchStatement(statement, ledgerRows, options);
  const plan = (decisions: Decision[]) => applyDecisions(proposals, decisions, statement, ledgerRows);
  const refusal = (decisions: Decision[]): Readonly<Record<string, string>> => {
    try {
      plan(decisions);
    } catch (error) {
      if (error instanceof InvalidInputError) return error.fields;
      throw error;
    }
    throw new Error('the decisions were applied');
  };

  it('without any, follow the proposals', () => {
    expect(actions(proposals)).toEqual([`match ${rent.id}`, `match ${phone.id}`, 'new', 'duplicate', 'outside']);
    expect(plan([])).toEqual({
      matched: [
        { index: 0, ledgerRowId: rent.id, date: '2027-01-02', importId: 'S0' },
        { index: 1, ledgerRowId: phone.id, date: '2027-01-16', importId: 'S1' },
      ],
      added: [{ index: 2, date: '2027-01-09', name: 'SHELL', type: 'D', amount: 3_810, importId: 'S2' }],
      counts: { matched: 2, added: 1, duplicates: 1, outside: 1, skipped: 0 },
    });
  });

  it('may match any open row of the same type and amount, however far, or add, or skip', () => {
    const result = plan([
      { index: 0, action: 'match', matchId: lateRent.id },
      { index: 1, action: 'new' },
      { index: 2, action: 'skip' },
      { index: 3, action: 'skip' },
      { index: 4, action: 'skip' },
    ]);
    expect(result.matched).toEqual([{ index: 0, ledgerRowId: lateRent.id, date: '2027-01-02', importId: 'S0' }]);
    expect(result.added.map((row) => row.index)).toEqual([1]);
    expect(result.counts).toEqual({ matched: 1, added: 1, duplicates: 1, outside: 1, skipped: 1 });
  });

  it('may swap two proposed matches', () => {
    const two = [statementRow(0, '2027-01-02', 'A', 'D', 120_000), statementRow(1, '2027-01-19', 'B', 'D', 120_000)];
    const proposed = matchStatement(two, ledgerRows, JANUARY);
    expect(actions(proposed)).toEqual([`match ${rent.id}`, `match ${lateRent.id}`]);
    const swapped = applyDecisions(
      proposed,
      [
        { index: 0, action: 'match', matchId: lateRent.id },
        { index: 1, action: 'match', matchId: rent.id },
      ],
      two,
      ledgerRows,
    );
    expect(swapped.matched.map((row) => [row.index, row.ledgerRowId])).toEqual([
      [0, lateRent.id],
      [1, rent.id],
    ]);
  });

  it('refuse what cannot be done, one message per decision', () => {
    expect(
      refusal([
        { index: 9, action: 'new' },
        { index: 3, action: 'new' },
        { index: 4, action: 'match', matchId: rent.id },
        { index: 2, action: 'match' },
        { index: 1, action: 'new', matchId: phone.id },
        { index: 0, action: 'match', matchId: 'nope' },
      ]),
    ).toEqual({
      'decisions.0': 'The statement has no row 9.',
      'decisions.1': 'Row 3 was imported before: it can only be skipped.',
      'decisions.2': "Row 4 is outside the ledger's dates: it can only be skipped.",
      'decisions.3': 'A match needs the ledger row it matches.',
      'decisions.4': 'Only a match names a ledger row.',
      'decisions.5': 'The ledger has no row nope.',
    });
    expect(refusal([{ index: 0, action: 'match', matchId: cleared.id }])).toEqual({
      'decisions.0': 'Old rent (2027-01-03) is already cleared.',
    });
    expect(refusal([{ index: 2, action: 'match', matchId: phone.id }])).toEqual({
      'decisions.0': 'Phone (2027-01-15) is not a debit of the same amount.',
    });
    expect(
      refusal([
        { index: 0, action: 'skip' },
        { index: 0, action: 'new' },
      ]),
    ).toEqual({ 'decisions.1': 'Row 0 has another decision.' });
  });

  it('refuse a ledger row matched twice, on the decision that did it', () => {
    const other = [statementRow(0, '2027-01-16', 'VERIZON', 'D', 5_055), statementRow(1, '2027-01-15', 'VERIZON', 'D', 5_055)];
    const proposed = matchStatement(other, ledgerRows, JANUARY);
    expect(actions(proposed)).toEqual(['new', `match ${phone.id}`]);
    const decide = (decisions: Decision[]) => () => applyDecisions(proposed, decisions, other, ledgerRows);
    expect(decide([{ index: 0, action: 'match', matchId: phone.id }])).toThrow(
      expect.objectContaining({ fields: { 'decisions.0': 'Phone (2027-01-15) is already matched to row 1.' } }),
    );
    expect(
      decide([
        { index: 1, action: 'match', matchId: phone.id },
        { index: 0, action: 'match', matchId: phone.id },
      ]),
    ).toThrow(expect.objectContaining({ fields: { 'decisions.1': 'Phone (2027-01-15) is already matched to row 1.' } }));
    // Moving the match is fine once the other row lets go of it.
    expect(
      decide([
        { index: 0, action: 'match', matchId: phone.id },
        { index: 1, action: 'new' },
      ])().counts,
    ).toMatchObject({ matched: 1, added: 1 });
  });
});

describe('matching properties', () => {
  const BASE = isoDate('2027-01-01');
  const WORDS = ['acme', 'rent', 'coffee', 'phone', 'shell'];
  const AMOUNTS = [100, 200, 300];
  const nameArbitrary = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' '));

  const ledgerArbitrary = fc
    .array(
      fc.record({
        offset: fc.integer({ min: 0, max: 30 }),
        name: nameArbitrary,
        type: fc.constantFrom<TransactionType>('C', 'D'),
        amount: fc.constantFrom(...AMOUNTS),
        status: fc.constantFrom<TransactionStatus>('PENDING', 'PAID', 'CLEARED'),
      }),
      { maxLength: 14 },
    )
    .map((drafts) =>
      drafts.map((draft, position): LedgerRow => ({
        id: `L${position}`,
        sequence: position,
        date: addDays(BASE, draft.offset),
        name: draft.name,
        type: draft.type,
        amount: cents(draft.amount),
        status: draft.status,
      })),
    );

  // Some statement rows repeat one another exactly but for their import id.
  const statementArbitrary = fc
    .array(
      fc.record({
        offset: fc.integer({ min: -3, max: 34 }),
        description: nameArbitrary,
        type: fc.constantFrom<TransactionType>('C', 'D'),
        amount: fc.constantFrom(...AMOUNTS),
        copies: fc.integer({ min: 1, max: 3 }),
      }),
      { maxLength: 10 },
    )
    .map((drafts) =>
      drafts
        .flatMap((draft) => Array.from({ length: draft.copies }, () => draft))
        .map((draft, position): StatementRow => ({
          index: position,
          date: addDays(BASE, draft.offset),
          description: draft.description,
          type: draft.type,
          amount: cents(draft.amount),
          importId: `S${position}`,
        })),
    );

  const scenario = fc.record({
    ledgerRows: ledgerArbitrary,
    statementRows: statementArbitrary,
    startOffset: fc.integer({ min: -2, max: 5 }),
    endOffset: fc.integer({ min: 25, max: 32 }),
    imported: fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 5 }),
  });
  const optionsOf = (startOffset: number, endOffset: number, imported: number[]) => ({
    startDate: addDays(BASE, startOffset),
    endDate: addDays(BASE, endOffset),
    importedIds: new Set(imported.map((n) => `S${n}`)),
  });

  it('never put two statement rows on one ledger row, nor match a CLEARED, other-typed, other-amount or far row', () => {
    fc.assert(
      fc.property(scenario, ({ ledgerRows, statementRows, startOffset, endOffset, imported }) => {
        const options = optionsOf(startOffset, endOffset, imported);
        const proposals = matchStatement(statementRows, ledgerRows, options);
        expect(proposals.map((proposal) => proposal.index)).toEqual(statementRows.map((row) => row.index));
        const matchIds = proposals.flatMap((proposal) => (proposal.matchId === undefined ? [] : [proposal.matchId]));
        expect(new Set(matchIds).size).toBe(matchIds.length);
        proposals.forEach((proposal, position) => {
          const row = statementRows[position] as StatementRow;
          const duplicate = options.importedIds.has(row.importId);
          const outside = row.date < options.startDate || row.date > options.endDate;
          if (duplicate) expect(proposal.action).toBe('duplicate');
          else if (outside) expect(proposal.action).toBe('outside');
          else expect(['match', 'new']).toContain(proposal.action);
          expect(proposal.action === 'match').toBe(proposal.matchId !== undefined);
          if (proposal.matchId === undefined) return;
          const match = ledgerRows.find((ledgerRow) => ledgerRow.id === proposal.matchId) as LedgerRow;
          expect(match.status).not.toBe('CLEARED');
          expect(match.type).toBe(row.type);
          expect(match.amount).toBe(row.amount);
          expect(Math.abs(daysBetween(row.date, match.date))).toBeLessThanOrEqual(MATCH_WINDOW_DAYS);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('leave a row "new" only when every row it could match went to a row at least as near', () => {
    fc.assert(
      fc.property(scenario, ({ ledgerRows, statementRows, startOffset, endOffset, imported }) => {
        const proposals = matchStatement(statementRows, ledgerRows, optionsOf(startOffset, endOffset, imported));
        const takenBy = new Map(
          proposals.flatMap((proposal, position) => (proposal.matchId ? [[proposal.matchId, position] as const] : [])),
        );
        proposals.forEach((proposal, position) => {
          if (proposal.action !== 'new') return;
          const row = statementRows[position] as StatementRow;
          for (const candidate of ledgerRows) {
            const distance = Math.abs(daysBetween(row.date, candidate.date));
            if (
              candidate.status === 'CLEARED' ||
              candidate.type !== row.type ||
              candidate.amount !== row.amount ||
              distance > MATCH_WINDOW_DAYS
            )
              continue;
            const holder = takenBy.get(candidate.id);
            expect(holder).toBeDefined();
            const holderRow = statementRows[holder ?? -1] as StatementRow;
            expect(Math.abs(daysBetween(holderRow.date, candidate.date))).toBeLessThanOrEqual(distance);
          }
        });
      }),
      { numRuns: RUNS },
    );
  });

  // "Does not depend on the statement's order": permuting the statement rows (each keeping its
  // import id) permutes the proposals the same way, so every row gets the same proposal. Rows
  // identical but for their import id are told apart by it, so this holds for them too.
  it('do not depend on the order of the statement rows, nor of the ledger rows', () => {
    fc.assert(
      fc.property(
        scenario.chain((value) =>
          fc.record({
            value: fc.constant(value),
            statementOrder: fc.shuffledSubarray(value.statementRows, { minLength: value.statementRows.length }),
            ledgerOrder: fc.shuffledSubarray(value.ledgerRows, { minLength: value.ledgerRows.length }),
          }),
        ),
        ({ value, statementOrder, ledgerOrder }) => {
          const options = optionsOf(value.startOffset, value.endOffset, value.imported);
          const byImportId = (rows: readonly StatementRow[], proposals: readonly Proposal[]) =>
            new Map(rows.map((row, position) => [row.importId, proposals[position]]));
          const original = byImportId(value.statementRows, matchStatement(value.statementRows, value.ledgerRows, options));
          const shuffled = byImportId(statementOrder, matchStatement(statementOrder, ledgerOrder, options));
          expect(shuffled).toEqual(original);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('within a candidate budget, propose exactly what matching does, and nothing once the candidates pass it (decision 0114)', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 40 }), ({ ledgerRows, statementRows, startOffset, endOffset, imported }, budget) => {
        const options = optionsOf(startOffset, endOffset, imported);
        // Brute force: each row that is neither imported before nor outside counts the open rows of
        // its type and amount within the window, at most 64.
        const candidates = statementRows.reduce((sum, row) => {
          if (options.importedIds.has(row.importId) || row.date < options.startDate || row.date > options.endDate) return sum;
          const open = ledgerRows.filter(
            (ledgerRow) =>
              ledgerRow.status !== 'CLEARED' &&
              ledgerRow.type === row.type &&
              ledgerRow.amount === row.amount &&
              Math.abs(daysBetween(row.date, ledgerRow.date)) <= MATCH_WINDOW_DAYS,
          ).length;
          return sum + Math.min(open, MAX_MATCH_CANDIDATES);
        }, 0);
        const within = matchStatementWithin(statementRows, ledgerRows, options, budget);
        if (candidates > budget) expect(within).toBeUndefined();
        else expect(within).toEqual(matchStatement(statementRows, ledgerRows, options));
        expect(matchStatementWithin(statementRows, ledgerRows, options, Number.POSITIVE_INFINITY)).toEqual(
          matchStatement(statementRows, ledgerRows, options),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('turn into a plan that counts every row once, and accepts the proposals as decisions', () => {
    fc.assert(
      fc.property(scenario, ({ ledgerRows, statementRows, startOffset, endOffset, imported }) => {
        const proposals = matchStatement(statementRows, ledgerRows, optionsOf(startOffset, endOffset, imported));
        const plan = applyDecisions(proposals, [], statementRows, ledgerRows);
        const { matched, added, duplicates, outside, skipped } = plan.counts;
        expect(matched + added + duplicates + outside + skipped).toBe(statementRows.length);
        const restated: Decision[] = proposals.flatMap((proposal): Decision[] => {
          if (proposal.action === 'match') return [{ index: proposal.index, action: 'match', matchId: proposal.matchId }];
          return [{ index: proposal.index, action: proposal.action === 'new' ? 'new' : 'skip' }];
        });
        expect(applyDecisions(proposals, restated, statementRows, ledgerRows)).toEqual(plan);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('reconciliation', () => {
  it('counts CLEARED rows on or before the bank’s date only', () => {
    const rows = [
      ledgerRow('2027-01-01', 'Pay', 'C', 100_000, 'CLEARED'),
      ledgerRow('2027-01-02', 'Rent', 'D', 60_000, 'CLEARED'),
      ledgerRow('2027-01-03', 'Pending', 'D', 1_000, 'PENDING'),
      ledgerRow('2027-01-04', 'Paid', 'D', 2_000, 'PAID'),
      ledgerRow('2027-01-06', 'Later', 'D', 3_000, 'CLEARED'),
    ];
    expect(reconcile(cents(10_000), rows, { balance: cents(49_000), date: isoDate('2027-01-05') })).toEqual({
      bankBalance: 49_000,
      date: '2027-01-05',
      leftover: 50_000,
      difference: -1_000,
    });
  });

  it('equals the opening balance plus a brute-force sum', () => {
    const rowArbitrary = fc.record({
      offset: fc.integer({ min: 0, max: 40 }),
      type: fc.constantFrom<TransactionType>('C', 'D'),
      amount: fc.integer({ min: 1, max: 1_000_000 }),
      status: fc.constantFrom<TransactionStatus>('PENDING', 'PAID', 'CLEARED'),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        fc.array(rowArbitrary, { maxLength: 30 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: -5_000_000, max: 5_000_000 }),
        (opening, drafts, bankOffset, bankBalance) => {
          const date: IsoDate = addDays(isoDate('2027-01-01'), bankOffset);
          const rows = drafts.map((draft) => ({
            ...draft,
            date: addDays(isoDate('2027-01-01'), draft.offset),
            amount: cents(draft.amount) as Cents,
          }));
          let expected = opening;
          for (const row of rows) {
            if (row.status !== 'CLEARED' || daysBetween(row.date, date) < 0) continue;
            expected += row.type === 'C' ? row.amount : -row.amount;
          }
          const result = reconcile(cents(opening), rows, { balance: cents(bankBalance), date });
          expect(result).toEqual({ bankBalance, date, leftover: expected, difference: bankBalance - expected });
        },
      ),
      { numRuns: RUNS },
    );
  });
});

/**
 * matchStatement as it was before candidates were capped: every (statement row, open ledger row)
 * pair of one type and amount within the window, ranked, taken best first while both are free.
 */
function matchEveryPair(statementRows: readonly StatementRow[], ledgerRows: readonly LedgerRow[], options: MatchOptions): Proposal[] {
  const open = [...ledgerRows].sort(compareRows).flatMap((row, order) => (row.status === 'CLEARED' ? [] : [{ row, order }]));
  const proposals: Proposal[] = [];
  const pairs: { position: number; ledgerRow: LedgerRow; order: number; distance: number; shared: number }[] = [];
  statementRows.forEach((statementRow, position) => {
    const { index } = statementRow;
    if (options.importedIds.has(statementRow.importId)) return void proposals.push({ index, action: 'duplicate' });
    if (statementRow.date < options.startDate || statementRow.date > options.endDate) {
      return void proposals.push({ index, action: 'outside' });
    }
    proposals.push({ index, action: 'new' });
    const words = wordsOf(statementRow.description);
    for (const { row, order } of open) {
      const distance = Math.abs(toDayNumber(row.date) - toDayNumber(statementRow.date));
      if (row.type !== statementRow.type || row.amount !== statementRow.amount || distance > MATCH_WINDOW_DAYS) continue;
      const shared = [...wordsOf(row.name)].filter((word) => words.has(word)).length;
      pairs.push({ position, ledgerRow: row, order, distance, shared });
    }
  });
  const compareStatementRows = (a: number, b: number): number => {
    const rowA = statementRows[a] as StatementRow;
    const rowB = statementRows[b] as StatementRow;
    if (rowA.date !== rowB.date) return rowA.date < rowB.date ? -1 : 1;
    return compareNames(rowA.description, rowB.description) || (rowA.importId < rowB.importId ? -1 : rowA.importId > rowB.importId ? 1 : 0);
  };
  pairs.sort(
    (a, b) =>
      a.distance - b.distance ||
      b.shared - a.shared ||
      a.order - b.order ||
      compareStatementRows(a.position, b.position) ||
      a.position - b.position,
  );
  const taken = new Set<string>();
  for (const pair of pairs) {
    const proposal = proposals[pair.position] as Proposal;
    if (proposal.action !== 'new' || taken.has(pair.ledgerRow.id)) continue;
    taken.add(pair.ledgerRow.id);
    proposals[pair.position] = { index: proposal.index, action: 'match', matchId: pair.ledgerRow.id };
  }
  return proposals;
}

describe('matching a large statement against a large ledger', () => {
  const BASE = isoDate('2027-01-01');

  it('ranks at most 64 candidates a row: 3,000 rows of one amount on one day against 20,000 open rows of it', () => {
    expect(MAX_MATCH_CANDIDATES).toBe(64);
    const ledgerRows = Array.from({ length: 20_000 }, (_, position): LedgerRow => ({
      id: `L${position}`,
      sequence: position,
      date: isoDate('2027-01-05'),
      name: 'x',
      type: 'D',
      amount: cents(100),
      status: 'PENDING',
    }));
    const statementRows = Array.from({ length: 3_000 }, (_, position) => ({ ...statementRow(position, '2027-01-05', 'x', 'D', 100) }));
    const proposals = matchStatement(statementRows, ledgerRows, JANUARY);
    expect(proposals.map((proposal) => proposal.index)).toEqual(statementRows.map((row) => row.index));
    const matchIds = proposals.flatMap((proposal) => (proposal.matchId === undefined ? [] : [proposal.matchId]));
    expect(new Set(matchIds).size).toBe(matchIds.length);
    expect(matchIds.length).toBeGreaterThanOrEqual(MAX_MATCH_CANDIDATES);
    expect(matchIds.length).toBeLessThanOrEqual(statementRows.length);
    // The user may still match any of the other open rows by a decision.
    const farthest = ledgerRows.at(-1) as LedgerRow;
    const unmatched = proposals.find((proposal) => proposal.action === 'new') as Proposal;
    const plan = applyDecisions(proposals, [{ index: unmatched.index, action: 'match', matchId: farthest.id }], statementRows, ledgerRows);
    expect(plan.matched).toContainEqual(expect.objectContaining({ index: unmatched.index, ledgerRowId: farthest.id }));
  });

  it('past 64 candidates, ranks the nearest ones in row order, then words among them', () => {
    const before = Array.from({ length: 40 }, (_, n) => ledgerRow('2027-01-09', `Coffee ${n}`, 'D', 475));
    const after = Array.from({ length: 24 }, (_, n) => ledgerRow('2027-01-11', `Coffee ${n}`, 'D', 475));
    const sharesWords = ledgerRow('2027-01-11', 'Zz Bakery', 'D', 475);
    const statement = [statementRow(0, '2027-01-10', 'BAKERY', 'D', 475)];
    // 64 rows as near, the day before first: the 65th, last in row order, is not ranked, though it shares a word.
    expect(actions(matchStatement(statement, [...before, ...after, sharesWords], JANUARY))).toEqual([`match ${before[0]?.id}`]);
    // One row fewer: it is ranked, and its word wins.
    expect(actions(matchStatement(statement, [...before.slice(1), ...after, sharesWords], JANUARY))).toEqual([`match ${sharesWords.id}`]);
    // A nearer row is always ranked, however many rows are farther.
    const onTheDay = ledgerRow('2027-01-10', 'Zz Other', 'D', 475);
    expect(actions(matchStatement(statement, [...before, ...after, sharesWords, onTheDay], JANUARY))).toEqual([`match ${onTheDay.id}`]);
  });

  it('proposes what ranking every pair proposes whenever no row has more than 64 candidates', () => {
    // At most 64 ledger rows, so no statement row has more candidates; half the time 48 or more,
    // all open, of one type and amount and on one day, so rows at or near the cap are common.
    const draftArbitrary = (crowded: boolean) =>
      fc.record({
        offset: crowded ? fc.constant(5) : fc.integer({ min: 0, max: 14 }),
        // Crowded, Rent is rare and last in row order: a cap that left out the last rows would miss it.
        name: crowded
          ? fc.oneof(
              { arbitrary: fc.constantFrom('Coffee', 'Acme Pay', 'Coffee Shop', 'Acme'), weight: 15 },
              { arbitrary: fc.constant('Rent'), weight: 1 },
            )
          : fc.constantFrom('Coffee', 'Rent', 'Acme Pay', 'Coffee Shop'),
        type: crowded ? fc.constant<TransactionType>('D') : fc.constantFrom<TransactionType>('C', 'D', 'D'),
        amount: crowded ? fc.constant(100) : fc.constantFrom(100, 100, 100, 200),
        status: crowded ? fc.constant<TransactionStatus>('PENDING') : fc.constantFrom<TransactionStatus>('PENDING', 'PAID', 'CLEARED'),
      });
    const ledgerArbitrary = fc
      .boolean()
      .chain((crowded) => fc.array(draftArbitrary(crowded), { minLength: crowded ? 48 : 0, maxLength: MAX_MATCH_CANDIDATES, size: 'max' }))
      .map((drafts) =>
        drafts.map((draft, position): LedgerRow => ({
          id: `L${position}`,
          sequence: position,
          date: addDays(BASE, draft.offset),
          name: draft.name,
          type: draft.type,
          amount: cents(draft.amount),
          status: draft.status,
        })),
      );
    const statementArbitrary = fc
      .array(
        fc.record({
          offset: fc.integer({ min: -2, max: 16 }),
          description: fc.constantFrom('COFFEE', 'RENT', 'ACME PAYROLL', 'SHOP'),
          type: fc.constantFrom<TransactionType>('C', 'D', 'D'),
          amount: fc.constantFrom(100, 100, 200),
        }),
        { maxLength: 40, size: 'max' },
      )
      .map((drafts) =>
        drafts.map((draft, position): StatementRow => ({
          index: position,
          date: addDays(BASE, draft.offset),
          description: draft.description,
          type: draft.type,
          amount: cents(draft.amount),
          importId: `S${position}`,
        })),
      );
    fc.assert(
      fc.property(
        ledgerArbitrary,
        statementArbitrary,
        fc.array(fc.nat({ max: 40 }), { maxLength: 4 }),
        (ledgerRows, statementRows, imported) => {
          const options = { startDate: BASE, endDate: addDays(BASE, 14), importedIds: new Set(imported.map((n) => `S${n}`)) };
          expect(matchStatement(statementRows, ledgerRows, options)).toEqual(matchEveryPair(statementRows, ledgerRows, options));
        },
      ),
      { numRuns: RUNS },
    );
  });
});
