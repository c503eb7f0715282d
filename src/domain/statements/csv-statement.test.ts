import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors.js';
import { type CsvMapping, parseCsvAmount, parseCsvDate, readCsvStatement } from './csv-statement.js';
import { MAX_CSV_COLUMNS, MAX_CSV_LINES, MAX_PREVIEW_CELL_CHARACTERS, MAX_STATEMENT_ROWS } from './statement-bounds.js';
import { statementDescription } from './statement-row.js';

const csv = (...lines: string[]): string => lines.join('\n');
const summary = (content: string, mapping?: CsvMapping) =>
  readCsvStatement(content, mapping).rows.map((row) => [row.date, row.type, row.amount, row.description]);

function refusal(content: string, mapping?: CsvMapping): Readonly<Record<string, string>> {
  try {
    readCsvStatement(content, mapping);
  } catch (error) {
    if (error instanceof InvalidInputError) return error.fields;
    throw error;
  }
  throw new Error('the file was read');
}

describe('amount cells', () => {
  it.each([
    ['1000.00', 100_000],
    ['-54.23', -5_423],
    ['+25', 2_500],
    ['$1,234.56', 123_456],
    ['-$1,200.00', -120_000],
    ['$-4.75', -475],
    ['(12.34)', -1_234],
    ['($1,000.00)', -100_000],
    ['54.23-', -5_423],
    ['.5', 50],
    [' 1 000.00 ', 100_000],
    ['12,345,678.9', 1_234_567_890],
    ['0.00', 0],
    ['54.2300', 5_423],
    // The plain shape read without the general pattern: leading zeros, 13 whole digits, and past them.
    ['-0054.20', -5_420],
    ['9999999999999.99', 999_999_999_999_999],
    ['00000000000001.00', 100],
    ['99999999999999.00', Number.MAX_SAFE_INTEGER],
  ])('%s is %i cents', (text, expected) => {
    expect(parseCsvAmount(text)).toBe(expected);
  });

  it.each(['abc', '', '$', '-', '1,00', '12,3456.00', '--5', '-(5)', '(-5)', '5.235', '1.2.3', '€5', '5e3', '0x10'])(
    '%j is not a number',
    (text) => {
      expect(parseCsvAmount(text)).toBeNull();
    },
  );
});

describe('date cells', () => {
  it('reads ISO and US month-first dates without a format', () => {
    expect(parseCsvDate('2027-01-05', null)).toBe('2027-01-05');
    expect(parseCsvDate('2027-1-5', null)).toBe('2027-01-05');
    expect(parseCsvDate('01/05/2027', null)).toBe('2027-01-05');
    expect(parseCsvDate('1/5/2027', null)).toBe('2027-01-05');
    expect(parseCsvDate('13/05/2027', null)).toBe('no such date');
    expect(parseCsvDate('2027-02-30', null)).toBe('no such date');
    expect(parseCsvDate('Jan 5, 2027', null)).toBeNull();
    expect(parseCsvDate('01/05/27', null)).toBeNull();
  });

  it('reads only the chosen format when there is one', () => {
    expect(parseCsvDate('05/01/2027', 'DD/MM/YYYY')).toBe('2027-01-05');
    expect(parseCsvDate('05/01/2027', 'MM/DD/YYYY')).toBe('2027-05-01');
    expect(parseCsvDate('5/1/2027', 'M/D/YYYY')).toBe('2027-05-01');
    expect(parseCsvDate('2027-05-01', 'MM/DD/YYYY')).toBeNull();
    expect(parseCsvDate('05/01/2027', 'YYYY-MM-DD')).toBeNull();
    expect(parseCsvDate('29/02/2027', 'DD/MM/YYYY')).toBe('no such date');
    expect(parseCsvDate('29/02/2028', 'DD/MM/YYYY')).toBe('2028-02-29');
  });
});

describe('recognising the header', () => {
  it('takes names in any case, with spaces around', () => {
    expect(summary(csv('  POSTING DATE , description ,AMOUNT', '01/02/2027,Coffee,-4.75'))).toEqual([['2027-01-02', 'D', 475, 'Coffee']]);
  });

  it.each(['Date', 'Posting Date', 'Transaction Date', 'Posted Date', 'Post Date'])('knows %j as the date', (name) => {
    expect(summary(csv(`${name},Description,Amount`, '2027-01-02,Coffee,-4.75'))).toHaveLength(1);
  });

  it.each(['Description', 'Payee', 'Name', 'Memo'])('knows %j as the description', (name) => {
    expect(summary(csv(`Date,${name},Amount`, '2027-01-02,Coffee,-4.75'))[0]?.[3]).toBe('Coffee');
  });

  it('prefers the posting date over the transaction date, and Description over Memo', () => {
    const content = csv(
      'Transaction Date,Post Date,Memo,Description,Category,Type,Amount',
      '01/02/2027,01/03/2027,Card 1234,COFFEE,Food,Sale,-4.75',
    );
    expect(summary(content)).toEqual([['2027-01-03', 'D', 475, 'COFFEE']]);
  });

  it('names a row from Memo when its Description is empty, or Deposit / Withdrawal when both are', () => {
    const content = csv('Date,Description,Memo,Amount', '2027-01-02,,Card purchase,-4.75', '2027-01-03,,,-1.00', '2027-01-04,  ,,2.00');
    expect(summary(content).map((row) => row[3])).toEqual(['Card purchase', 'Withdrawal', 'Deposit']);
  });

  it('prefers one Amount column over Debit and Credit', () => {
    expect(summary(csv('Date,Description,Debit,Credit,Amount', '2027-01-02,Coffee,4.75,,-4.75'))).toEqual([
      ['2027-01-02', 'D', 475, 'Coffee'],
    ]);
  });

  it('needs a description column and an amount, or both Debit and Credit', () => {
    expect(readCsvStatement(csv('Date,Amount,Memo2', '2027-01-02,-4.75,x')).needsMapping).toBe(true);
    expect(readCsvStatement(csv('Date,Description,Debit', '2027-01-02,Coffee,4.75')).needsMapping).toBe(true);
    expect(readCsvStatement(csv('When,What,How much', '2027-01-02,Coffee,4.75')).needsMapping).toBe(true);
  });

  it('skips a summary block above the header and lines without an amount below it', () => {
    const content = csv(
      'Account:,Checking',
      'Amount owed:,0.00',
      '',
      'Date,Description,Amount,Balance',
      '01/01/2027,Beginning balance,,500.00',
      '',
      '01/02/2027,Coffee,-4.75,495.25',
      ',,,',
    );
    expect(summary(content)).toEqual([['2027-01-02', 'D', 475, 'Coffee']]);
    expect(readCsvStatement(content).columns.firstRows[0]).toEqual(['Date', 'Description', 'Amount', 'Balance']);
  });

  it('reads tab-separated and semicolon-separated files too', () => {
    expect(summary('Date\tDescription\tAmount\n2027-01-02\tCoffee, large\t-4.75')).toEqual([['2027-01-02', 'D', 475, 'Coffee, large']]);
    expect(summary('Date;Description;Amount\n2027-01-02;Coffee;-4.75')).toEqual([['2027-01-02', 'D', 475, 'Coffee']]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const content = csv('Date,Description,Amount', '2027-01-02,"JOE\'S ""BEST"", INC.\nSPRINGFIELD","-1,004.75"');
    expect(summary(content)).toEqual([['2027-01-02', 'D', 100_475, 'JOE\'S "BEST", INC. SPRINGFIELD']]);
  });
});

describe('Debit and Credit columns', () => {
  it('takes the direction from the column, whatever the sign', () => {
    const content = csv(
      'Date,Description,Debit,Credit',
      '2027-01-02,A,4.75,',
      '2027-01-03,B,-4.75,',
      '2027-01-04,C,,25.00',
      '2027-01-05,D,,-25.00',
    );
    expect(summary(content).map((row) => [row[1], row[2]])).toEqual([
      ['D', 475],
      ['D', 475],
      ['C', 2_500],
      ['C', 2_500],
    ]);
  });

  it('treats 0.00 in the other column as empty, and skips a row with neither', () => {
    const content = csv(
      'Date,Description,Debit,Credit',
      '2027-01-02,A,4.75,0.00',
      '2027-01-03,B,0,25',
      '2027-01-04,C,,',
      '2027-01-05,Hold,0.00,0.00',
    );
    expect(summary(content).map((row) => row[3])).toEqual(['A', 'B']);
  });

  it('refuses a row with both a debit and a credit', () => {
    expect(refusal(csv('Date,Description,Debit,Credit', '2027-01-02,A,4.75,1.00'))).toEqual({
      content: 'Line 2: both the debit "4.75" and the credit "1.00" have an amount.',
    });
  });
});

describe('rows that are not transactions', () => {
  it('skips zero amounts (no money moved)', () => {
    expect(summary(csv('Date,Description,Amount', '2027-01-02,Card check,0.00', '2027-01-03,Coffee,-4.75')).map((row) => row[3])).toEqual([
      'Coffee',
    ]);
  });

  it('keeps indexes counting transactions only, in file order', () => {
    const rows = readCsvStatement(
      csv('Date,Description,Amount', '2027-01-03,A,-1', '2027-01-01,Skip,', '2027-01-02,B,0', '2027-01-02,C,2'),
    ).rows;
    expect(rows.map((row) => [row.index, row.description])).toEqual([
      [0, 'A'],
      [1, 'C'],
    ]);
  });
});

describe('the closing balance', () => {
  it('is the latest-dated row’s, wherever it is in the file', () => {
    const content = csv(
      'Date,Description,Amount,Balance',
      '01/15/2027,A,10.00,110.00',
      '01/16/2027,B,-5.00,105.00',
      '01/10/2027,C,100.00,100.00',
    );
    expect(readCsvStatement(content).bank).toEqual({ balance: 10_500, date: '2027-01-16' });
  });

  it('of several rows on the latest date, is the first in a newest-first file', () => {
    const content = csv(
      'Date,Description,Amount,Balance',
      '01/16/2027,B,-5.00,95.00',
      '01/16/2027,A,-5.00,100.00',
      '01/10/2027,C,105.00,105.00',
    );
    expect(readCsvStatement(content).bank).toEqual({ balance: 9_500, date: '2027-01-16' });
  });

  it('of several rows on the latest date, is the last in an oldest-first file', () => {
    const content = csv(
      'Date,Description,Amount,Balance',
      '01/10/2027,C,105.00,105.00',
      '01/16/2027,A,-5.00,100.00',
      '01/16/2027,B,-5.00,95.00',
    );
    expect(readCsvStatement(content).bank).toEqual({ balance: 9_500, date: '2027-01-16' });
  });

  it('may be negative, and is absent without a Balance column or values', () => {
    expect(readCsvStatement(csv('Date,Description,Amount,Balance', '2027-01-02,A,-5.00,(5.00)')).bank).toEqual({
      balance: -500,
      date: '2027-01-02',
    });
    expect(readCsvStatement(csv('Date,Description,Amount,Balance', '2027-01-02,A,-5.00,')).bank).toBeNull();
    expect(readCsvStatement(csv('Date,Description,Amount', '2027-01-02,A,-5.00')).bank).toBeNull();
  });
});

describe('import ids', () => {
  it('fingerprint date, signed amount and description, numbered among identical rows', () => {
    const rows = readCsvStatement(
      csv('Date,Description,Amount', '2027-01-03,COFFEE,-4.75', '2027-01-03,COFFEE,-4.75', '2027-01-03,COFFEE,4.75'),
    ).rows;
    expect(rows.map((row) => row.importId)).toEqual([
      'csv:2027-01-03:-475:COFFEE:1',
      'csv:2027-01-03:-475:COFFEE:2',
      'csv:2027-01-03:475:COFFEE:1',
    ]);
  });

  it('do not depend on where other rows are in the file', () => {
    const lines = ['2027-01-03,COFFEE,-4.75', '2027-01-04,TEA,-3.00', '2027-01-03,COFFEE,-4.75', '2027-01-05,RENT,-1200'];
    const ids = (order: number[]) =>
      readCsvStatement(csv('Date,Description,Amount', ...order.map((i) => lines[i] ?? '')))
        .rows.map((row) => row.importId)
        .sort();
    expect(ids([3, 2, 1, 0])).toEqual(ids([0, 1, 2, 3]));
  });
});

describe('lines that cannot be read say where', () => {
  it.each([
    [csv('Date,Description,Amount', '2027-01-02,A,-1', '2027-01-03,B,abc'), 'Line 3: the amount "abc" is not a number.'],
    [csv('Date,Description,Amount', '2027-02-30,A,-1'), 'Line 2: the date "2027-02-30" does not exist.'],
    [csv('Date,Description,Amount', 'Jan 2 2027,A,-1'), 'Line 2: the date "Jan 2 2027" is not a date in MM/DD/YYYY or YYYY-MM-DD.'],
    [csv('Date,Description,Amount', ',A,-1'), 'Line 2: the date is missing.'],
    [csv('Date,Description,Amount', '2027-01-02,A,"100,000,000.00"'), 'Line 2: the amount "100,000,000.00" is over $99,999,999.99.'],
    [
      csv('Date,Description,Amount', '2027-01-02,A,99999999.99', '2027-01-02,B,-100000000'),
      'Line 3: the amount "-100000000" is over $99,999,999.99.',
    ],
    [csv('Date,Description,Amount,Balance', '2027-01-02,A,-1,n/a'), 'Line 2: the balance "n/a" is not a number.'],
    [csv('Date,Description,Debit,Credit', '2027-01-02,A,x,'), 'Line 2: the debit "x" is not a number.'],
    [csv('Date,Description,Amount', '2027-01-02,"A\nB",-1', '', '2027-01-03,C,?'), 'Line 5: the amount "?" is not a number.'],
    ['Date,Description,Amount\r\n2027-01-02,A,-1\r\n2027-01-03,"B,-1\r\n2027-01-04,C,-1', 'Line 3: a quoted field is not closed.'],
    [csv('Date,Description,Amount', `2027-01-02,A,${'9'.repeat(60)}`), `Line 2: the amount "${'9'.repeat(40)}…" is over $99,999,999.99.`],
  ])('%j', (content, message) => {
    expect(refusal(content)).toEqual({ content: message });
  });
});

describe('a file without a recognised header', () => {
  const noHeader = csv('Account 1234', '', '01/02/2027,COFFEE,-4.75,*', '01/03/2027,RENT,"-1,200.00",', '01/04/2027,PAY,1000,,');

  it('asks for columns and shows the table’s first lines, not the lines above it', () => {
    const statement = readCsvStatement(noHeader);
    expect(statement).toMatchObject({ needsMapping: true, rows: [], bank: null });
    expect(statement.columns).toEqual({
      count: 4,
      firstRows: [
        ['01/02/2027', 'COFFEE', '-4.75', '*'],
        ['01/03/2027', 'RENT', '-1,200.00', ''],
        ['01/04/2027', 'PAY', '1000', ''],
      ],
    });
  });

  it('reads the rows with a mapping, skipping the lines before the first date', () => {
    expect(summary(noHeader, { date: 0, description: 1, amount: 2, dateFormat: 'M/D/YYYY' })).toEqual([
      ['2027-01-02', 'D', 475, 'COFFEE'],
      ['2027-01-03', 'D', 120_000, 'RENT'],
      ['2027-01-04', 'C', 100_000, 'PAY'],
    ]);
  });

  it('skips a header line with a mapping too, and reads Debit and Credit columns and day-first dates', () => {
    const content = csv('Datum,Text,Out,In', '02/01/2027,COFFEE,4.75,', '03/01/2027,PAY,,1000');
    expect(summary(content, { date: 0, description: 1, debit: 2, credit: 3, dateFormat: 'DD/MM/YYYY' })).toEqual([
      ['2027-01-02', 'D', 475, 'COFFEE'],
      ['2027-01-03', 'C', 100_000, 'PAY'],
    ]);
  });

  it('lets a mapping override a recognised header', () => {
    const content = csv('Date,Description,Amount,Other', '2027-01-02,COFFEE,-4.75,OTHER');
    expect(summary(content, { date: 0, description: 3, amount: 2, dateFormat: 'YYYY-MM-DD' })).toEqual([['2027-01-02', 'D', 475, 'OTHER']]);
  });

  it('refuses a date in another format after the first data line', () => {
    expect(refusal(csv('01/02/2027,A,-1', '2027-01-03,B,-1'), { date: 0, description: 1, amount: 2, dateFormat: 'MM/DD/YYYY' })).toEqual({
      content: 'Line 2: the date "2027-01-03" is not a date in MM/DD/YYYY.',
    });
  });

  it('refuses a mapping that does not fit the file', () => {
    const mapping = (columns: Partial<{ date: number; description: number; amount: number }>): CsvMapping => ({
      date: 0,
      description: 1,
      amount: 2,
      dateFormat: 'MM/DD/YYYY',
      ...columns,
    });
    expect(refusal(noHeader, mapping({ amount: 4 }))).toEqual({ mapping: 'Column 4 does not exist: the file has 4 columns (0 to 3).' });
    expect(refusal(noHeader, mapping({ amount: -1 }))).toEqual({ mapping: 'Column -1 does not exist: the file has 4 columns (0 to 3).' });
    expect(refusal(noHeader, mapping({ amount: 1.5 }))).toEqual({ mapping: 'Column 1.5 does not exist: the file has 4 columns (0 to 3).' });
    expect(refusal(noHeader, mapping({ amount: 1 }))).toEqual({
      mapping: 'The date, description and amount columns must all be different.',
    });
  });

  it('gives no rows when no line has a date in the chosen format', () => {
    expect(readCsvStatement(noHeader, { date: 0, description: 1, amount: 2, dateFormat: 'YYYY-MM-DD' }).rows).toEqual([]);
  });
});

describe('files over the bounds of a statement', () => {
  const LINES_MESSAGE = 'The file has more than 20,000 lines: export a shorter period.';
  const COLUMNS_MESSAGE = 'A line of the file has more than 100 columns: a bank statement has far fewer.';
  const TRANSACTIONS_MESSAGE = 'The statement has more than 10,000 transactions: export a shorter period.';
  const rowLines = (count: number): string[] => Array.from({ length: count }, () => '2027-01-05,x,-1.00');

  it('refuse more than 20,000 lines with something on them, blank lines not counted', () => {
    expect(MAX_CSV_LINES).toBe(20_000);
    expect(refusal(rowLines(130_000).join('\n'))).toEqual({ content: LINES_MESSAGE });
    // Without a header nothing is read as a transaction yet: the lines alone are counted.
    const noHeader = (count: number) => ['Account 1234', ...Array.from({ length: count - 1 }, () => '01/02/2027,COFFEE,-4.75')];
    expect(refusal(noHeader(20_001).join('\r\n'))).toEqual({ content: LINES_MESSAGE });
    expect(refusal(csv(...noHeader(20_001), ' \t'))).toEqual({ content: LINES_MESSAGE });
    const atTheLimit = readCsvStatement(noHeader(20_000).join('\n \r\n\t\n\n'));
    expect(atTheLimit.needsMapping).toBe(true);
    expect(atTheLimit.columns.firstRows).toHaveLength(5);
  });

  it('refuse a line of more than 100 cells, rather than answering a preview of them', () => {
    expect(MAX_CSV_COLUMNS).toBe(100);
    expect(refusal(`${'a,'.repeat(999_999)}a\n2027-01-05,x,-1.00`)).toEqual({ content: COLUMNS_MESSAGE });
    expect(refusal(`${','.repeat(999_999)}\n2027-01-05,x,-1.00`)).toEqual({ content: COLUMNS_MESSAGE });
    const header = (cells: number) =>
      ['Date', 'Description', 'Amount', ...Array.from({ length: cells - 3 }, (_, n) => `Extra ${n}`)].join(',');
    expect(refusal(csv(header(101), '2027-01-05,x,-1.00'))).toEqual({ content: COLUMNS_MESSAGE });
    expect(refusal(csv(header(3), '2027-01-05,x,-1.00', `2027-01-06,y,-2.00${','.repeat(100)}`))).toEqual({ content: COLUMNS_MESSAGE });
    expect(summary(csv(header(100), '2027-01-05,x,-1.00'))).toEqual([['2027-01-05', 'D', 100, 'x']]);
  });

  it('refuse more than 10,000 transactions, zero amounts counted as the file lists them', () => {
    expect(MAX_STATEMENT_ROWS).toBe(10_000);
    const statement = readCsvStatement(csv('Date,Description,Amount', ...rowLines(10_000), 'Total,,'));
    expect(statement.rows).toHaveLength(10_000);
    expect(new Set(statement.rows.map((row) => row.importId)).size).toBe(10_000);
    expect(refusal(csv('Date,Description,Amount', ...rowLines(10_001)))).toEqual({ content: TRANSACTIONS_MESSAGE });
    expect(refusal(csv('Date,Description,Amount', ...rowLines(10_000), '2027-01-06,zero,0.00'))).toEqual({
      content: TRANSACTIONS_MESSAGE,
    });
    const mapping: CsvMapping = { date: 0, description: 1, amount: 2, dateFormat: 'YYYY-MM-DD' };
    expect(refusal(rowLines(10_001).join('\n'), mapping)).toEqual({ content: TRANSACTIONS_MESSAGE });
  });

  it('show preview cells cut to 200 characters, never half of a two-unit character', () => {
    expect(MAX_PREVIEW_CELL_CHARACTERS).toBe(200);
    const long = 'x'.repeat(5_000);
    const emoji = `${'y'.repeat(199)}😀z`;
    const { columns } = readCsvStatement(csv(`01/02/2027,${long},-4.75,${emoji}`, `01/03/2027,"${'w'.repeat(200)}",-1,😀`));
    expect(columns).toEqual({
      count: 4,
      firstRows: [
        ['01/02/2027', 'x'.repeat(200), '-4.75', 'y'.repeat(199)],
        ['01/03/2027', 'w'.repeat(200), '-1', '😀'],
      ],
    });
  });

  it('read rows whose cells are longer than the preview shows, in full', () => {
    const description = `${'PAYEE '.repeat(100)}END`;
    expect(summary(csv('Date,Description,Amount', `2027-01-05,${description},-1.00`))[0]?.[3]).toBe(statementDescription(description));
  });
});
