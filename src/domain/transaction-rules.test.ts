import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoDate } from './calendar-date.js';
import { ConflictError, InvalidInputError } from './errors.js';
import { canEdit, isAllowedStatusMove, type LedgerRow, TRANSACTION_STATUSES, TRANSACTION_TYPES } from './ledger.js';
import { cents } from './money.js';
import {
  checkDateWithinLedger,
  checkDeletion,
  checkExtension,
  decideUpdate,
  refusalError,
  type RequestedRow,
} from './transaction-rules.js';

const range = { from: isoDate('2026-12-01'), to: isoDate('2026-12-31') };
const rent: LedgerRow = {
  id: 'rent',
  sequence: 1,
  date: isoDate('2026-12-04'),
  name: 'Rent',
  type: 'D',
  amount: cents(120_000),
  status: 'PENDING',
};
const asRequested = (row: LedgerRow, changes: Partial<RequestedRow> = {}): RequestedRow => ({
  date: row.date,
  name: row.name,
  type: row.type,
  amount: row.amount,
  status: row.status,
  ...changes,
});

describe('deciding an update of a ledger row', () => {
  it('writes nothing when nothing changes, whatever the status', () => {
    for (const status of TRANSACTION_STATUSES) {
      const row = { ...rent, status };
      expect(decideUpdate(row, asRequested(row), range)).toEqual({ kind: 'unchanged' });
    }
  });

  it('applies an edit of a PENDING row and a status move on its own', () => {
    expect(decideUpdate(rent, asRequested(rent, { name: 'Rent Dec', amount: cents(1) }), range)).toEqual({
      kind: 'change',
      changes: { date: rent.date, name: 'Rent Dec', amount: cents(1), status: 'PENDING' },
      edits: true,
    });
    expect(decideUpdate(rent, asRequested(rent, { status: 'PAID' }), range)).toEqual({
      kind: 'change',
      changes: { date: rent.date, name: 'Rent', amount: rent.amount, status: 'PAID' },
      edits: false,
    });
  });

  it('refuses in order: type, status move, edit of a paid row, edit with a move, date outside the ledger', () => {
    const paid = { ...rent, status: 'PAID' as const };
    const outside = isoDate('2027-01-01');
    expect(decideUpdate(rent, asRequested(rent, { type: 'C', status: 'PAID' }), range)).toEqual({
      kind: 'refused',
      refusal: { kind: 'typeFixed', type: 'D' },
    });
    expect(decideUpdate(paid, asRequested(paid, { status: 'PENDING', name: 'x' }), range)).toEqual({
      kind: 'refused',
      refusal: { kind: 'statusMove', from: 'PAID', to: 'PENDING' },
    });
    expect(decideUpdate(paid, asRequested(paid, { name: 'x' }), range)).toEqual({
      kind: 'refused',
      refusal: { kind: 'notEditable', status: 'PAID' },
    });
    expect(decideUpdate(rent, asRequested(rent, { name: 'x', status: 'PAID', date: outside }), range)).toEqual({
      kind: 'refused',
      refusal: { kind: 'editAndMove' },
    });
    expect(decideUpdate(rent, asRequested(rent, { date: outside }), range)).toEqual({
      kind: 'refused',
      refusal: { kind: 'dateOutsideLedger', range },
    });
  });

  it('keeps a row whose date already lies outside the ledger editable in its other fields', () => {
    const early = { ...rent, date: isoDate('2026-11-30') };
    expect(decideUpdate(early, asRequested(early, { name: 'x' }), range).kind).toBe('change');
  });

  it('for any row and request: a change is accepted exactly when the status rules allow it', () => {
    const status = fc.constantFrom(...TRANSACTION_STATUSES);
    const day = fc.integer({ min: 1, max: 31 }).map((value) => isoDate(`2026-12-${String(value).padStart(2, '0')}`));
    fc.assert(
      fc.property(
        status,
        status,
        fc.constantFrom(...TRANSACTION_TYPES),
        day,
        fc.constantFrom('Rent', 'Gym'),
        fc.integer({ min: 1, max: 200_000 }),
        (from, to, type, date, name, amount) => {
          const row = { ...rent, status: from };
          const requested = { date, name, type, amount: cents(amount), status: to };
          const decision = decideUpdate(row, requested, range);
          const edited = date !== row.date || name !== row.name || amount !== row.amount;
          if (decision.kind === 'change') {
            expect(type).toBe(row.type);
            expect(isAllowedStatusMove(from, to)).toBe(true);
            expect(edited ? canEdit(from) && from === to : from !== to).toBe(true);
          }
          if (decision.kind === 'unchanged') expect(edited || from !== to).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('other row checks', () => {
  it('accepts a date on the first and last days and refuses one outside', () => {
    expect(checkDateWithinLedger(range.from, range)).toBeUndefined();
    expect(checkDateWithinLedger(range.to, range)).toBeUndefined();
    expect(checkDateWithinLedger(isoDate('2026-11-30'), range)).toEqual({ kind: 'dateOutsideLedger', range });
  });

  it('lets only PENDING rows be deleted', () => {
    expect(checkDeletion(rent)).toBeUndefined();
    expect(checkDeletion({ status: 'CLEARED' })).toEqual({ kind: 'notDeletable', status: 'CLEARED' });
  });
});

describe('refusals as errors', () => {
  it('reports bad input per field and refused moves as conflicts, in the words users read', () => {
    const outside = refusalError({ kind: 'dateOutsideLedger', range });
    expect(outside).toBeInstanceOf(InvalidInputError);
    expect(outside).toMatchObject({
      message: 'The date is outside the ledger.',
      fields: { date: 'Date must be between 2026-12-01 and 2026-12-31.' },
    });
    expect(refusalError({ kind: 'typeFixed', type: 'C' })).toMatchObject({ fields: { type: expect.stringContaining('it is C') } });
    const move = refusalError({ kind: 'statusMove', from: 'CLEARED', to: 'PENDING' });
    expect(move).toBeInstanceOf(ConflictError);
    expect(move.message).toBe('A CLEARED transaction cannot become PENDING: nothing returns to PENDING.');
    expect(refusalError({ kind: 'notDeletable', status: 'PAID' }).message).toBe(
      'A PAID transaction cannot be deleted: only PENDING transactions can.',
    );
  });
});

describe('extending a ledger', () => {
  const ledger = { startDate: isoDate('2026-12-01'), endDate: isoDate('2027-02-28') };

  it('takes an end date after the current one, up to five years after the start', () => {
    expect(checkExtension(ledger, isoDate('2027-03-01'))).toBeUndefined();
    expect(checkExtension(ledger, isoDate('2031-12-01'))).toBeUndefined();
  });

  it('refuses an end date on or before the current one, or past five years, on endDate', () => {
    expect(refusalError(checkExtension(ledger, ledger.endDate) ?? fail())).toMatchObject({
      fields: { endDate: "End Date must be after the ledger's current end date, 2027-02-28." },
    });
    expect(refusalError(checkExtension(ledger, isoDate('2031-12-02')) ?? fail())).toMatchObject({
      fields: { endDate: 'A ledger spans at most 5 years: End Date must be on or before 2031-12-01.' },
    });
  });
});

function fail(): never {
  throw new Error('expected a refusal');
}
