import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors.js';
import { detectFormat, readStatement } from './statement-file.js';
import { bankAccountEnding } from './statement-row.js';

const FIXTURES = new URL('../../../tests/fixtures/statements/', import.meta.url);
const fixture = (name: string): string => fs.readFileSync(new URL(name, FIXTURES), 'utf8');

/** The samples' README table, as date, type and cents. */
const SAMPLE_TRANSACTIONS = [
  ['2027-01-01', 'C', 100_000],
  ['2027-01-02', 'D', 120_000],
  ['2027-01-03', 'D', 5_423],
  ['2027-01-06', 'D', 475],
  ['2027-01-09', 'D', 3_810],
  ['2027-01-10', 'C', 2_500],
  ['2027-01-15', 'C', 100_000],
  ['2027-01-16', 'D', 5_055],
] as const;

/** What the OFX samples name each row: the README's descriptions, as NAME gives them. */
const OFX_DESCRIPTIONS = [
  'ACME CORP PAYROLL',
  'OAKWOOD APTS',
  'WAL-MART #1234',
  'STARBUCKS STORE 05678',
  'SHELL OIL 57444',
  'ZELLE FROM JOHN DOE',
  'ACME CORP PAYROLL',
  'VERIZON WIRELESS',
];

const SAMPLE_BANK = { balance: 117_737, date: '2027-01-16' };

function inDateOrder(fileName: string, content = fixture(fileName)) {
  const statement = readStatement(fileName, content);
  return { ...statement, rows: [...statement.rows].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)) };
}

function expectSampleTransactions(rows: readonly { date: string; type: string; amount: number }[]): void {
  expect(rows.map((row) => [row.date, row.type, row.amount])).toEqual(SAMPLE_TRANSACTIONS.map((row) => [...row]));
}

describe('the four samples', () => {
  it('checking-ofx1-sgml.ofx: OFX 1 with CRLF, time-zoned dates, FITIDs and a LEDGERBAL', () => {
    const content = fixture('checking-ofx1-sgml.ofx');
    expect(content).toContain('\r\n');
    const statement = readStatement('checking-ofx1-sgml.ofx', content);
    expect(statement.format).toBe('ofx');
    expect(statement.needsMapping).toBe(false);
    expect(statement.columns).toBeUndefined();
    expectSampleTransactions(statement.rows);
    expect(statement.rows.map((row) => row.description)).toEqual(OFX_DESCRIPTIONS);
    expect(statement.rows.map((row) => row.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(statement.rows[0]?.importId).toBe('ofx:000123456789:202701010001');
    expect(statement.bank).toEqual(SAMPLE_BANK);
  });

  it('checking-ofx2-xml.ofx: OFX 2 with plain dates', () => {
    const statement = readStatement('checking-ofx2-xml.ofx', fixture('checking-ofx2-xml.ofx'));
    expect(statement.format).toBe('ofx');
    expectSampleTransactions(statement.rows);
    expect(statement.rows.map((row) => row.description)).toEqual(OFX_DESCRIPTIONS);
    expect(statement.rows.map((row) => row.importId)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `ofx:9988776655:A100${n}`));
    expect(statement.bank).toEqual(SAMPLE_BANK);
  });

  it('checking-posting-date.csv: newest first, a signed Amount, a Balance, trailing empty columns', () => {
    const statement = readStatement('checking-posting-date.csv', fixture('checking-posting-date.csv'));
    expect(statement).toMatchObject({ format: 'csv', needsMapping: false, bank: SAMPLE_BANK });
    // Rows keep the file's order: index 0 is the file's first transaction.
    expect(statement.rows.map((row) => [row.index, row.date, row.description])).toEqual([
      [0, '2027-01-15', 'ACME CORP PAYROLL PPD ID: 9876543210'],
      [1, '2027-01-16', 'VERIZON WIRELESS PAYMENTS PPD ID: 2223334444'],
      [2, '2027-01-10', 'Zelle payment from JOHN DOE 7H8K2L9'],
      [3, '2027-01-09', 'SHELL OIL 57444 SPRINGFIELD IL'],
      [4, '2027-01-06', 'STARBUCKS STORE 05678 SPRINGFIELD IL'],
      [5, '2027-01-03', 'WAL-MART #1234 SPRINGFIELD IL'],
      [6, '2027-01-02', 'ONLINE PAYMENT 1234567 TO OAKWOOD APTS'],
      [7, '2027-01-01', 'ACME CORP PAYROLL PPD ID: 9876543210'],
    ]);
    expectSampleTransactions(inDateOrder('checking-posting-date.csv').rows);
    expect(statement.rows[5]?.importId).toBe('csv:2027-01-03:-5423:WAL-MART #1234 SPRINGFIELD IL:1');
  });

  it('credit-union-debit-credit.csv: oldest first, ISO dates, Debit and Credit both positive', () => {
    const statement = readStatement('credit-union-debit-credit.csv', fixture('credit-union-debit-credit.csv'));
    expect(statement).toMatchObject({ format: 'csv', needsMapping: false, bank: SAMPLE_BANK });
    expectSampleTransactions(statement.rows);
    expect(statement.rows.map((row) => row.description)).toEqual([
      'ACME CORP PAYROLL',
      'OAKWOOD APTS',
      'WAL-MART #1234',
      'STARBUCKS STORE 05678',
      'SHELL OIL 57444',
      'ZELLE JOHN DOE',
      'ACME CORP PAYROLL',
      'VERIZON WIRELESS',
    ]);
  });

  it('gives the same ids every time a file is read, all different within it', () => {
    for (const name of ['checking-ofx1-sgml.ofx', 'checking-ofx2-xml.ofx', 'checking-posting-date.csv', 'credit-union-debit-credit.csv']) {
      const ids = readStatement(name, fixture(name)).rows.map((row) => row.importId);
      expect(new Set(ids).size).toBe(8);
      expect(readStatement(name, fixture(name)).rows.map((row) => row.importId)).toEqual(ids);
    }
  });
});

describe('the README variations, through the front door', () => {
  it.each([
    ['summary-block-above-header.csv', SAMPLE_BANK],
    ['quoted-thousands.csv', null],
    ['utf8-bom.csv', null],
    ['parentheses-negatives.csv', SAMPLE_BANK],
    ['windows-1252-descriptions.csv', null],
    ['quicken-intuit.qfx', SAMPLE_BANK],
    ['ofx1-some-closing-tags.ofx', SAMPLE_BANK],
    ['ofx1-lf-line-ends.ofx', SAMPLE_BANK],
  ])('%s gives the eight sample transactions', (name, bank) => {
    const statement = inDateOrder(name);
    expect(statement.needsMapping).toBe(false);
    expectSampleTransactions(statement.rows);
    expect(statement.bank).toEqual(bank);
  });

  it('a file with no header asks for columns, then reads them', () => {
    const content = fixture('no-header.csv');
    const asked = readStatement('no-header.csv', content);
    expect(asked).toMatchObject({ format: 'csv', needsMapping: true, rows: [], bank: null });
    expect(asked.columns?.count).toBe(5);
    expect(asked.columns?.firstRows[0]).toEqual(['01/01/2027', '1000.00', '*', '', 'ACME CORP PAYROLL']);
    const mapped = readStatement('no-header.csv', content, { date: 0, description: 4, amount: 1, dateFormat: 'MM/DD/YYYY' });
    expect(mapped.needsMapping).toBe(false);
    expectSampleTransactions(mapped.rows);
  });

  it('a Windows-1252 file survives whichever way the page decodes it', () => {
    const bytes = fs.readFileSync(new URL('windows-1252-bytes.csv', FIXTURES));
    const decoded = new TextDecoder('windows-1252').decode(bytes);
    const latin1 = bytes.toString('latin1');
    const expected = readStatement('x.csv', fixture('windows-1252-descriptions.csv')).rows.map((row) => row.description);
    expect(expected).toContain('PEÑA’S “BEST” TACOS');
    expect(readStatement('x.csv', decoded).rows.map((row) => row.description)).toEqual(expected);
    expect(readStatement('x.csv', latin1).rows.map((row) => row.description)).toEqual(expected);
  });

  it('an OFX credit card statement reads purchases as debits and the balance owed as negative', () => {
    const statement = readStatement('card.qfx', fixture('credit-card.ofx'));
    expect(statement.rows.map((row) => [row.date, row.type, row.amount])).toEqual([
      ['2027-01-04', 'D', 2_345],
      ['2027-01-11', 'D', 6_120],
      ['2027-01-20', 'C', 10_000],
    ]);
    expect(statement.bank).toEqual({ balance: -18_465, date: '2027-01-31' });
  });

  it('an unreadable OFX says which transaction and which tag', () => {
    expect(() => readStatement('bad.ofx', fixture('ofx1-missing-dtposted.ofx'))).toThrow(
      expect.objectContaining({ fields: { content: 'STMTTRN 3: DTPOSTED is missing.' } }),
    );
  });
});

describe('the bank account a file is a statement of (issue 25)', () => {
  it('is the ACCTID of an OFX or QFX file, bank or card, and nothing for a CSV', () => {
    expect(readStatement('checking-ofx1-sgml.ofx', fixture('checking-ofx1-sgml.ofx')).bankAccountId).toBe('000123456789');
    expect(readStatement('checking-ofx2-xml.ofx', fixture('checking-ofx2-xml.ofx')).bankAccountId).toBe('9988776655');
    expect(readStatement('quicken-intuit.qfx', fixture('quicken-intuit.qfx')).bankAccountId).toBe('000123456789');
    expect(readStatement('credit-card.ofx', fixture('credit-card.ofx')).bankAccountId).toBe('4111111111111111');
    expect(readStatement('checking-posting-date.csv', fixture('checking-posting-date.csv'))).not.toHaveProperty('bankAccountId');
    const withoutAccount = fixture('checking-ofx1-sgml.ofx').replace(/<ACCTID>\d+/, '');
    expect(readStatement('statement.ofx', withoutAccount)).not.toHaveProperty('bankAccountId');
  });

  it('is shown by its last four characters, or all of it when shorter, never half a character', () => {
    expect(bankAccountEnding('000123456789')).toBe('6789');
    expect(bankAccountEnding('555')).toBe('555');
    expect(bankAccountEnding('12-34')).toBe('2-34');
    expect(bankAccountEnding('acct\u{1F4B3}\u{1F4B3}\u{1F4B3}\u{1F4B3}')).toBe('\u{1F4B3}\u{1F4B3}\u{1F4B3}\u{1F4B3}');
    expect(bankAccountEnding('abcdefg\u{1F4B3}')).toBe('efg\u{1F4B3}');
    expect(bankAccountEnding('9'.repeat(100_000))).toBe('9999');
  });
});

describe('which format a file is', () => {
  it('goes by content first', () => {
    expect(detectFormat('statement.csv', fixture('checking-ofx1-sgml.ofx'))).toBe('ofx');
    expect(detectFormat('statement.txt', fixture('checking-ofx2-xml.ofx'))).toBe('ofx');
    expect(detectFormat('statement.txt', '<OFX>\n<BANKMSGSRSV1>')).toBe('ofx');
    expect(detectFormat('statement.ofx', 'Date,Description,Amount')).toBe('ofx');
    expect(detectFormat('statement.QFX ', 'Date,Description,Amount')).toBe('ofx');
    expect(detectFormat('statement.csv', 'Date,Description,Amount')).toBe('csv');
    expect(detectFormat('statement', 'Date,Description,Amount')).toBe('csv');
  });

  it('refuses a .ofx that holds no OFX, rather than reading it as CSV', () => {
    expect(() => readStatement('x.ofx', 'Date,Description,Amount\n2027-01-01,A,1')).toThrow(
      'The file is not OFX: it has no <OFX> element.',
    );
  });

  it('ignores a mapping for an OFX file', () => {
    const statement = readStatement('x.ofx', fixture('checking-ofx2-xml.ofx'), {
      date: 0,
      description: 1,
      amount: 2,
      dateFormat: 'YYYY-MM-DD',
    });
    expect(statement.rows).toHaveLength(8);
  });
});

describe('files that cannot be read', () => {
  const refusal = (fileName: string, content: string): InvalidInputError => {
    try {
      readStatement(fileName, content);
    } catch (error) {
      if (error instanceof InvalidInputError) return error;
      throw error;
    }
    throw new Error('the file was read');
  };

  it('an empty file, or only a byte order mark and spaces', () => {
    expect(refusal('x.csv', '').fields).toEqual({ content: 'The file is empty.' });
    expect(refusal('x.ofx', '\uFEFF \r\n\t').fields).toEqual({ content: 'The file is empty.' });
  });

  it('binary junk', () => {
    expect(refusal('x.csv', 'PK\u0003\u0004\u0000\u0000binary').fields.content).toBe(
      'The file is not text: a statement is a CSV, OFX or QFX file.',
    );
    const replaced = '%PDF-1.7 ' + '\uFFFD\u0001'.repeat(50);
    expect(refusal('x.csv', replaced).fields.content).toBe('The file is not text: a statement is a CSV, OFX or QFX file.');
  });

  it('a text that is not a table', () => {
    expect(refusal('notes.csv', 'Dear customer,\nyour statement is attached.\n').fields.content).toBe(
      'The file is not a statement: no line has a date, a description and an amount.',
    );
  });

  it('an OFX with neither transactions nor balance', () => {
    expect(
      refusal('x.ofx', 'OFXHEADER:100\n\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>15500</SONRS></SIGNONMSGSRSV1></OFX>').fields.content,
    ).toBe('The file has no transactions (STMTTRN) and no balance (LEDGERBAL).');
  });
});

describe('files over the bounds of a statement', () => {
  const refusal = (fileName: string, content: string): InvalidInputError => {
    try {
      readStatement(fileName, content);
    } catch (error) {
      if (error instanceof InvalidInputError) return error;
      throw error;
    }
    throw new Error('the file was read');
  };

  it.each([
    [
      'a CSV of 130,000 short lines',
      'long.csv',
      '2027-01-05,x,-1.00\n'.repeat(130_000),
      'The file has more than 20,000 lines: export a shorter period.',
    ],
    [
      'a CSV whose first line has 1,000,000 cells',
      'wide.csv',
      `${'a,'.repeat(999_999)}a\n2027-01-05,x,-1.00`,
      'A line of the file has more than 100 columns: a bank statement has far fewer.',
    ],
    [
      'a CSV of 10,001 transactions',
      'many.csv',
      `Date,Description,Amount\n${'2027-01-05,x,-1.00\n'.repeat(10_001)}`,
      'The statement has more than 10,000 transactions: export a shorter period.',
    ],
    [
      'an OFX nested 3,000 deep',
      'deep.ofx',
      `OFXHEADER:100\n\n<OFX>${'<A>'.repeat(3_000)}${'</A>'.repeat(3_000)}</OFX>`,
      'The file nests its elements more than 64 deep: it is not a bank statement.',
    ],
  ])('%s: refused on content, naming the limit', (_what, fileName, content, message) => {
    const error = refusal(fileName, content);
    expect(error.message).toBe(message);
    expect(error.fields).toEqual({ content: message });
  });
});
