/** The page's codecs (decision 0034): answers decode to Cents and IsoDate; what the page sends back encodes to the very wire it came from. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  centsFromDollars,
  depositsInfoCodec,
  encodeCents,
  encodeDeposit,
  encodeExpense,
  encodeLedger,
  encodeLedgerTransaction,
  expensesInfoCodec,
  ledgerInfoCodec,
} from './codecs.js';
import { ledgerInfoSchema } from './ledger.js';
import { ledgerChangesCodec } from './ledger-changes-codec.js';
import { statementImportCodec, statementPreviewCodec } from './statement-codecs.js';

const RENT = {
  id: 'rent',
  date: '2027-01-05',
  name: 'Rent',
  type: 'D',
  amount: 1200.07,
  balance: -1100.07,
  status: 'PENDING',
  source: { kind: 'expense', id: 'e1', occurrence: '2027-01-05', edited: false },
} as const;
const LEDGER = {
  startDate: '2027-01-01',
  endDate: '2027-01-31',
  openingBalance: 100,
  currentBalance: 0.1,
  pendingBalance: -0.29,
  transactions: [RENT],
};
const BANK = { balance: 1177.37, date: '2027-01-06' };
const RECONCILIATION = { bankBalance: 1177.37, date: '2027-01-06', leftover: 1182.12, difference: -4.75 };

describe('answer codecs', () => {
  it('decode money to integer cents and keep dates as the same strings', () => {
    const decoded = ledgerInfoCodec.parse({ ledger: LEDGER });
    expect(decoded.ledger).toEqual({
      ...LEDGER,
      openingBalance: 10_000,
      currentBalance: 10,
      pendingBalance: -29,
      transactions: [{ ...RENT, amount: 120_007, balance: -110_007 }],
    });
  });

  it.each([
    ['the ledger', ledgerInfoCodec, { ledger: LEDGER }],
    ['no ledger', ledgerInfoCodec, { ledger: null }],
    [
      'deposits',
      depositsInfoCodec,
      {
        deposits: [{ id: 'd1', name: 'Acme', type: 'Check', day: 'N/A', amount: 250.5, startDate: '2027-01-30', frequency: 'EOM' }],
        totalDeposits: 250.5,
      },
    ],
    [
      'expenses',
      expensesInfoCodec,
      {
        expenses: [
          { id: 'e1', name: 'Rent', type: 'Housing', frequency: 'M', day: 1, amount: 1200, startDate: null, endDate: '2099-12-31' },
        ],
        totalExpenses: 1200,
      },
    ],
    [
      'a statement preview',
      statementPreviewCodec,
      {
        format: 'ofx',
        needsMapping: false,
        rows: [{ index: 0, date: '2027-01-02', description: 'OAKWOOD', type: 'D', amount: 1200, action: 'match', matchId: 'rent' }],
        bank: BANK,
        reconciliation: RECONCILIATION,
      },
    ],
    [
      'a statement import',
      statementImportCodec,
      {
        ledger: LEDGER,
        imported: { matched: 1, added: 0, duplicates: 0, outside: 0, skipped: 0 },
        bank: BANK,
        reconciliation: RECONCILIATION,
      },
    ],
    [
      'a changes answer',
      ledgerChangesCodec,
      {
        changes: {
          basedOn: 'a',
          version: 'b',
          startDate: LEDGER.startDate,
          endDate: LEDGER.endDate,
          openingBalance: 100,
          currentBalance: 0.1,
          pendingBalance: -0.29,
          count: 1,
          rows: [{ ...RENT, position: 0 }],
          removed: ['x'],
        },
      },
    ],
  ])('decode %s', (_name, codec: z.ZodMiniType, answer) => {
    expect(codec.safeParse(answer).success).toBe(true);
  });

  it('encode what the page sends back (a ledger, its rows, a deposit, an expense) to exactly what the wire carried', () => {
    const ledger = ledgerInfoCodec.parse({ ledger: LEDGER }).ledger;
    if (ledger === null) throw new Error('no ledger decoded');
    expect(encodeLedger(ledger, ledger.transactions.map(encodeLedgerTransaction))).toEqual(LEDGER);
    const deposit = {
      id: 'd1',
      name: 'Acme',
      type: 'Check',
      day: 'N/A',
      amount: 250.5,
      startDate: '2027-01-30',
      frequency: 'EOM',
    } as const;
    const deposits = depositsInfoCodec.parse({ deposits: [deposit], totalDeposits: 250.5 });
    expect(deposits.deposits.map(encodeDeposit)).toEqual([deposit]);
    const expense = {
      id: 'e1',
      name: 'Rent',
      type: 'Housing',
      frequency: 'M',
      day: 1,
      amount: 1200,
      startDate: null,
      endDate: '2099-12-31',
    } as const;
    const expenses = expensesInfoCodec.parse({ expenses: [expense], totalExpenses: 1200 });
    expect(expenses.expenses.map(encodeExpense)).toEqual([expense]);
  });

  it('refuse what the page could not hold: a date that does not exist, a third decimal, an amount past 2^53 cents', () => {
    expect(ledgerInfoCodec.safeParse({ ledger: { ...LEDGER, endDate: '2027-02-30' } }).success).toBe(false);
    expect(ledgerInfoCodec.safeParse({ ledger: { ...LEDGER, transactions: [{ ...RENT, date: 'soon' }] } }).success).toBe(false);
    expect(ledgerInfoCodec.safeParse({ ledger: { ...LEDGER, openingBalance: 1.005 } }).success).toBe(false);
    expect(ledgerInfoCodec.safeParse({ ledger: { ...LEDGER, openingBalance: 1e20 } }).success).toBe(false);
    // The wire schema itself is as it was: the server still answers these.
    expect(ledgerInfoSchema.safeParse({ ledger: { ...LEDGER, endDate: '2027-02-30' } }).success).toBe(true);
  });

  it('round-trips every amount a ledger can hold', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), (amount) => {
        const dollars = encodeCents(centsFromDollars.parse(amount / 100));
        expect(dollars).toBe(amount / 100);
        expect(centsFromDollars.parse(JSON.parse(JSON.stringify(dollars)) as number)).toBe(amount);
      }),
    );
  });
});
