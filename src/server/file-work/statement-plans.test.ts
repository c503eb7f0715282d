import { describe, expect, it } from 'vitest';
import { addDays, isoDate } from '../../domain/calendar-date.js';
import { InvalidInputError } from '../../domain/errors.js';
import type { LedgerRow } from '../../domain/ledger.js';
import { cents } from '../../domain/money.js';
import type { StatementFile } from '../../domain/statements/statement-file.js';
import type { StatementRow } from '../../domain/statements/statement-row.js';
import { runFileTask } from './file-tasks.js';
import { PLAN_HERE_MAX_CANDIDATES, PLAN_HERE_MAX_ROWS, type PlanStatementTask, planHere } from './statement-plans.js';

const START = isoDate('2027-01-01');
const END = isoDate('2031-12-31');

/** A ledger of a rent and a phone bill each month, and a paycheck every other Friday-ish: about 100 rows a year. */
function ledgerOf(months: number): LedgerRow[] {
  const rows: LedgerRow[] = [];
  const add = (date: string, name: string, type: 'C' | 'D', amount: number) =>
    rows.push({ id: `L${rows.length}`, sequence: rows.length, date: isoDate(date), name, type, amount: cents(amount), status: 'PENDING' });
  for (let month = 0; month < months; month += 1) {
    const first = addDays(START, month * 31).slice(0, 8);
    add(`${first}01`, 'Rent', 'D', 125_000);
    add(`${first}05`, 'Acme Paycheck', 'C', 210_000);
    add(`${first}12`, 'Phone', 'D', 6_500);
    add(`${first}19`, 'Acme Paycheck', 'C', 210_000);
  }
  return rows;
}

/** The bank's side: each ledger row posted a day late, and card purchases the ledger does not know. */
function statementOf(ledger: readonly LedgerRow[], purchases: number): StatementFile {
  const rows: StatementRow[] = ledger.map((row, index) => ({
    index,
    date: addDays(row.date, 1),
    description: `${row.name.toUpperCase()} PPD`,
    type: row.type,
    amount: row.amount,
    importId: `bank-${index}`,
  }));
  for (let purchase = 0; purchase < purchases; purchase += 1) {
    const index = rows.length;
    rows.push({
      index,
      date: addDays(START, purchase % 700),
      description: `CARD PURCHASE ${purchase}`,
      type: 'D',
      amount: cents(101 + (purchase % 900)),
      importId: `bank-${index}`,
    });
  }
  return { format: 'csv', needsMapping: false, rows, bank: { balance: cents(50_000), date: isoDate('2027-03-31') } };
}

function taskOf<K extends PlanStatementTask['kind']>(
  kind: K,
  file: StatementFile,
  rows: readonly LedgerRow[],
  decisions: PlanStatementTask['decisions'] = [],
): PlanStatementTask & { readonly kind: K } {
  return { kind, file, ledger: { startDate: START, endDate: END, openingBalance: cents(0) }, rows, importedIds: ['bank-3'], decisions };
}

/** What the file's worker answers for the task (file-worker.ts runs exactly this). */
function inTheWorker(task: PlanStatementTask) {
  const outcome = runFileTask(task);
  if (!outcome.ok) throw new Error(`the worker refused: ${JSON.stringify(outcome.failure)}`);
  return outcome.answer;
}

describe('statement plans in the request thread (decision 0114)', () => {
  it('answers a preview and an import of a real-sized statement exactly as the worker does', () => {
    const ledger = ledgerOf(24);
    const file = statementOf(ledger, 400);
    for (const kind of ['plan-statement', 'plan-import'] as const) {
      const here = planHere(taskOf(kind, file, ledger));
      expect(here).toBeDefined();
      expect(here).toEqual(inTheWorker(taskOf(kind, file, ledger)));
    }
    const plan = planHere(taskOf('plan-import', file, ledger));
    expect(plan?.counts).toEqual(expect.objectContaining({ matched: ledger.length - 1, added: 400, duplicates: 1 }));
  });

  it('leaves to the worker a file whose candidates pass the budget, and one that with the ledger passes the rows', () => {
    // Thousands of rows of one amount on one day against as many: 64 candidates a row.
    const crowdedLedger = Array.from({ length: 1_000 }, (_, position): LedgerRow => ({
      id: `L${position}`,
      sequence: position,
      date: isoDate('2027-02-01'),
      name: 'Coffee',
      type: 'D',
      amount: cents(450),
      status: 'PENDING',
    }));
    const crowdedRows = Array.from({ length: 1_000 }, (_, index): StatementRow => ({
      index,
      date: isoDate('2027-02-01'),
      description: 'COFFEE',
      type: 'D',
      amount: cents(450),
      importId: `c-${index}`,
    }));
    const crowded = taskOf('plan-import', { format: 'csv', needsMapping: false, rows: crowdedRows, bank: null }, crowdedLedger);
    expect(crowdedLedger.length + crowdedRows.length).toBeLessThanOrEqual(PLAN_HERE_MAX_ROWS);
    expect(crowdedRows.length * 64).toBeGreaterThan(PLAN_HERE_MAX_CANDIDATES);
    expect(planHere(crowded)).toBeUndefined();
    // The worker works it out: each row ranks the same 64 nearest rows, so 64 are matched and the rest added.
    expect(inTheWorker(crowded)).toEqual(expect.objectContaining({ counts: expect.objectContaining({ matched: 64, added: 936 }) }));

    const bigLedger = ledgerOf(60 * 22);
    const large = taskOf('plan-statement', statementOf(bigLedger.slice(0, 10), 0), bigLedger);
    expect(large.rows.length + large.file.rows.length).toBeGreaterThan(PLAN_HERE_MAX_ROWS);
    expect(planHere(large)).toBeUndefined();
  });

  it('refuses an invalid decision with the same message per field as the worker', () => {
    const ledger = ledgerOf(3);
    const file = statementOf(ledger, 2);
    const decisions = [{ index: 0, action: 'match' as const, matchId: 'no-such-row' }];
    const outcome = runFileTask(taskOf('plan-import', file, ledger, decisions));
    expect(outcome.ok).toBe(false);
    const refusal = (() => {
      try {
        planHere(taskOf('plan-import', file, ledger, decisions));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(InvalidInputError);
    expect(outcome.ok ? undefined : outcome.failure).toEqual({
      kind: 'invalid',
      message: (refusal as InvalidInputError).message,
      fields: { ...(refusal as InvalidInputError).fields },
    });
  });
});
