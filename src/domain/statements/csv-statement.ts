/**
 * CSV statements as US banks and credit unions export them. papaparse splits the text (quotes,
 * delimiters, line ends); this module decides which line is the header, what each column means,
 * and turns cells into dates and cents. Decision 0020 says why each rule is what it is.
 */
import type { CsvDateFormat } from './csv-date-formats.js';
import Papa from 'papaparse';
import { type IsoDate, isIsoDate } from '../calendar-date.js';
import { InvalidInputError } from '../errors.js';
import { type TransactionType } from '../ledger.js';
import { type Cents, cents } from '../money.js';
import {
  MAX_CSV_COLUMNS,
  MAX_CSV_LINES,
  MAX_PREVIEW_CELL_CHARACTERS,
  MAX_STATEMENT_ROWS,
  TOO_MANY_COLUMNS,
  TOO_MANY_LINES,
  TOO_MANY_TRANSACTIONS,
} from './statement-bounds.js';
import {
  amountProblem,
  type BankBalance,
  decimalCents,
  numberRepeats,
  statementDescription,
  type StatementRow,
  unnamedRowDescription,
  unreadable,
} from './statement-row.js';

/** The user's choice of columns (0-based) for a file whose header is not recognised. */
export type CsvMapping =
  | { readonly date: number; readonly description: number; readonly amount: number; readonly dateFormat: CsvDateFormat }
  | {
      readonly date: number;
      readonly description: number;
      readonly debit: number;
      readonly credit: number;
      readonly dateFormat: CsvDateFormat;
    };

/** What the page shows to choose columns from. */
export interface CsvColumns {
  /** Columns in the widest line, trailing empty cells left out: a mapping's indexes are below it. */
  readonly count: number;
  /**
   * Up to 5 lines from the start of the table (its header when one was recognised), `count` cells
   * each, every cell cut to MAX_PREVIEW_CELL_CHARACTERS.
   */
  readonly firstRows: readonly (readonly string[])[];
}

export interface CsvStatement {
  /** True when no header was recognised and no mapping given: `rows` is empty until the user maps columns. */
  readonly needsMapping: boolean;
  readonly columns: CsvColumns;
  readonly rows: StatementRow[];
  readonly bank: BankBalance | null;
}

interface CsvLine {
  readonly cells: readonly string[];
  /** 1-based line of the file where the record starts, as a text editor counts. */
  readonly lineNumber: number;
}

/** Which column holds what; `dateFormat` null reads both YYYY-MM-DD and US month-first dates. */
interface ColumnPlan {
  readonly date: number;
  readonly description: number;
  /** Read when the description cell is empty (a Memo column next to a Description). */
  readonly fallbackDescription: number | null;
  readonly amount: { readonly signed: number } | { readonly debit: number; readonly credit: number };
  readonly balance: number | null;
  readonly dateFormat: CsvDateFormat | null;
}

// Header names, lower case, in order of preference when a file has several. A posting date comes
// first: the bank's balance and an OFX file's DTPOSTED both follow it.
const DATE_HEADERS = ['posting date', 'posted date', 'post date', 'date', 'transaction date'];
const DESCRIPTION_HEADERS = ['description', 'payee', 'name', 'memo'];
const BALANCE_HEADERS = ['balance', 'running balance', 'running bal.'];
const PREVIEW_LINES = 5;
const QUOTED_CELL_LENGTH = 40;

/**
 * Throws InvalidInputError on `content` when the file cannot be read or is over a bound of
 * statement-bounds.ts, or on `mapping` when the mapping does not fit the file.
 */
export function readCsvStatement(content: string, mapping?: CsvMapping): CsvStatement {
  const text = content.replace(/^\uFEFF/, '');
  if (countFilledLines(text) > MAX_CSV_LINES) throw unreadable(TOO_MANY_LINES);
  const lines = splitLines(text);
  const header = findHeader(lines);
  if (mapping) {
    const columns = previewColumns(lines, null);
    const plan = planFromMapping(mapping, columns.count);
    const firstData = lines.findIndex((line) => parseCsvDate(cell(line, plan.date), plan.dateFormat) !== null);
    return { needsMapping: false, columns, ...readTransactions(firstData < 0 ? [] : lines.slice(firstData), plan) };
  }
  if (header) {
    const columns = previewColumns(lines, header.lineIndex);
    return { needsMapping: false, columns, ...readTransactions(lines.slice(header.lineIndex + 1), header.plan) };
  }
  const columns = previewColumns(lines, null);
  if (columns.count < 3) {
    throw unreadable('The file is not a statement: no line has a date, a description and an amount.');
  }
  return { needsMapping: true, columns, rows: [], bank: null };
}

function splitLines(content: string): CsvLine[] {
  const lines: CsvLine[] = [];
  let recordStart = 0;
  let lineNumber = 1;
  let unclosedQuoteLine: number | null = null;
  let tooManyColumns = false;
  Papa.parse<string[]>(content, {
    step: (result, parser) => {
      if (result.errors.some((error) => error.code === 'MissingQuotes')) {
        unclosedQuoteLine = lineNumber;
        parser.abort();
        return;
      }
      if (result.data.length > MAX_CSV_COLUMNS) {
        tooManyColumns = true;
        parser.abort();
        return;
      }
      lines.push({ cells: result.data.map((text) => text.trim()), lineNumber });
      lineNumber += countLineBreaks(content, recordStart, result.meta.cursor);
      recordStart = result.meta.cursor;
    },
  });
  if (unclosedQuoteLine !== null) throw unreadable(`Line ${unclosedQuoteLine}: a quoted field is not closed.`);
  if (tooManyColumns) throw unreadable(TOO_MANY_COLUMNS);
  return lines;
}

/**
 * Lines with anything but spaces and tabs on them, counted on the text before papaparse splits
 * it into cells: a file of a million short lines is refused without building a million arrays.
 */
function countFilledLines(content: string): number {
  let filled = 0;
  let lineHasText = false;
  for (let index = 0; index < content.length; index += 1) {
    const code = content.charCodeAt(index);
    if (code === LF || code === CR) {
      if (lineHasText) filled += 1;
      lineHasText = false;
    } else if (code !== SPACE && code !== TAB) {
      lineHasText = true;
    }
  }
  return lineHasText ? filled + 1 : filled;
}

const CR = 13;
const LF = 10;
const SPACE = 32;
const TAB = 9;

/** Line breaks (CRLF, CR or LF, a CRLF counting once) in content[start, end), without copying it out. */
function countLineBreaks(content: string, start: number, end: number): number {
  let breaks = 0;
  for (let index = start; index < end; index += 1) {
    const code = content.charCodeAt(index);
    if (code === LF) breaks += 1;
    else if (code === CR) {
      breaks += 1;
      if (index + 1 < end && content.charCodeAt(index + 1) === LF) index += 1;
    }
  }
  return breaks;
}

const cell = (line: CsvLine, column: number): string => line.cells[column] ?? '';
const isBlank = (line: CsvLine): boolean => line.cells.every((text) => text === '');
const quoted = (text: string): string => `"${text.length > QUOTED_CELL_LENGTH ? `${text.slice(0, QUOTED_CELL_LENGTH)}…` : text}"`;

function findHeader(lines: readonly CsvLine[]): { lineIndex: number; plan: ColumnPlan } | null {
  for (const [lineIndex, line] of lines.entries()) {
    const names = line.cells.map((text) => text.toLowerCase().replace(/\s+/g, ' '));
    const columnOf = (candidates: readonly string[]): number | null => {
      for (const candidate of candidates) {
        const column = names.indexOf(candidate);
        if (column >= 0) return column;
      }
      return null;
    };
    const date = columnOf(DATE_HEADERS);
    const description = columnOf(DESCRIPTION_HEADERS);
    const signed = columnOf(['amount']);
    const debit = columnOf(['debit']);
    const credit = columnOf(['credit']);
    if (date === null || description === null) continue;
    const amount = signed !== null ? { signed } : debit !== null && credit !== null ? { debit, credit } : null;
    if (amount === null) continue;
    const memo = columnOf(['memo']);
    return {
      lineIndex,
      plan: {
        date,
        description,
        fallbackDescription: memo !== description ? memo : null,
        amount,
        balance: columnOf(BALANCE_HEADERS),
        dateFormat: null,
      },
    };
  }
  return null;
}

function previewColumns(lines: readonly CsvLine[], headerIndex: number | null): CsvColumns {
  // A loop, not Math.max(...widths): spreading one argument per line overflows the call stack.
  let count = 0;
  // A table line has at least a date, a description and an amount; shorter lines above it are a
  // summary block (account number, date range), which is no help in choosing columns.
  let firstTableLine = -1;
  for (const [lineIndex, line] of lines.entries()) {
    const width = line.cells.findLastIndex((text) => text !== '') + 1;
    if (width > count) count = width;
    if (firstTableLine < 0 && width >= 3) firstTableLine = lineIndex;
  }
  const tableStart = headerIndex ?? Math.max(0, firstTableLine);
  const firstRows: string[][] = [];
  for (let lineIndex = tableStart; lineIndex < lines.length && firstRows.length < PREVIEW_LINES; lineIndex += 1) {
    const line = lines[lineIndex];
    if (!line || isBlank(line)) continue;
    firstRows.push(Array.from({ length: count }, (_, column) => previewCell(cell(line, column))));
  }
  return { count, firstRows };
}

/** The cell cut to MAX_PREVIEW_CELL_CHARACTERS, without splitting a character made of two UTF-16 units. */
function previewCell(text: string): string {
  if (text.length <= MAX_PREVIEW_CELL_CHARACTERS) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(MAX_PREVIEW_CELL_CHARACTERS - 1))
    ? MAX_PREVIEW_CELL_CHARACTERS - 1
    : MAX_PREVIEW_CELL_CHARACTERS;
  return text.slice(0, end);
}

function planFromMapping(mapping: CsvMapping, columnCount: number): ColumnPlan {
  const amount = 'amount' in mapping ? { signed: mapping.amount } : { debit: mapping.debit, credit: mapping.credit };
  const chosen = [mapping.date, mapping.description, ...Object.values(amount)];
  const refuse = (message: string): never => {
    throw new InvalidInputError(message, { mapping: message });
  };
  for (const column of chosen) {
    if (!Number.isInteger(column) || column < 0 || column >= columnCount) {
      refuse(`Column ${column} does not exist: the file has ${columnCount} columns (0 to ${columnCount - 1}).`);
    }
  }
  if (new Set(chosen).size !== chosen.length) refuse('The date, description and amount columns must all be different.');
  return {
    date: mapping.date,
    description: mapping.description,
    fallbackDescription: null,
    amount,
    balance: null,
    dateFormat: mapping.dateFormat,
  };
}

interface ReadRow {
  readonly date: IsoDate;
  readonly signedCents: number;
  readonly description: string | null;
  readonly balance: Cents | null;
}

function readTransactions(lines: readonly CsvLine[], plan: ColumnPlan): { rows: StatementRow[]; bank: BankBalance | null } {
  const read: ReadRow[] = [];
  for (const line of lines) {
    if (isBlank(line)) continue;
    const signedCents = readAmount(line, plan);
    if (signedCents === null) continue;
    // Counted as the file lists them, zero amounts included, as OFX counts its STMTTRN elements.
    if (read.length === MAX_STATEMENT_ROWS) throw unreadable(TOO_MANY_TRANSACTIONS);
    const description = statementDescription(cell(line, plan.description));
    const fallback = plan.fallbackDescription === null ? '' : statementDescription(cell(line, plan.fallbackDescription));
    read.push({
      date: readDate(line, plan),
      signedCents,
      description: description || fallback || null,
      balance: plan.balance === null ? null : readBalance(line, plan.balance),
    });
  }
  const bank = closingBalance(read);
  // A zero amount moves no money: it is not a transaction, and a ledger amount is never zero.
  const transactions = read.filter((row) => row.signedCents !== 0);
  // Worked out where needed rather than spread into a copy of every row: for a large file the copies cost more than the reading.
  const typeOf = (row: ReadRow): TransactionType => (row.signedCents > 0 ? 'C' : 'D');
  const descriptionOf = (row: ReadRow): string => row.description ?? unnamedRowDescription(typeOf(row));
  const importIds = numberRepeats(
    transactions.map((row) => `csv:${row.date}:${row.signedCents}:${descriptionOf(row)}`),
    true,
  );
  const rows = transactions.map((row, index): StatementRow => ({
    index,
    date: row.date,
    description: descriptionOf(row),
    type: typeOf(row),
    amount: cents(Math.abs(row.signedCents)),
    importId: importIds[index] ?? '',
  }));
  return { rows, bank };
}

/**
 * The balance of the latest-dated row. Several rows on that date: the file's own order says which
 * came last (newest-first files start with a later date than they end with).
 */
function closingBalance(rows: readonly ReadRow[]): BankBalance | null {
  const withBalance = rows.filter((row): row is ReadRow & { balance: Cents } => row.balance !== null);
  const first = rows[0];
  const last = rows.at(-1);
  if (withBalance.length === 0 || !first || !last) return null;
  const newestFirst = first.date > last.date;
  const latestDate = withBalance.reduce((latest, row) => (row.date > latest ? row.date : latest), withBalance[0]?.date ?? first.date);
  const onLatestDate = withBalance.filter((row) => row.date === latestDate);
  const closing = newestFirst ? onLatestDate[0] : onLatestDate.at(-1);
  return closing ? { balance: closing.balance, date: closing.date } : null;
}

/** Signed cents, or null when the row has no amount (and so is no transaction). */
function readAmount(line: CsvLine, plan: ColumnPlan): number | null {
  if ('signed' in plan.amount) {
    const text = cell(line, plan.amount.signed);
    return text === '' ? null : checkedAmount(line, text, 'amount');
  }
  const debitText = cell(line, plan.amount.debit);
  const creditText = cell(line, plan.amount.credit);
  // The column says the direction: a debit shown as -54.23 is money out all the same.
  const debit = debitText === '' ? 0 : Math.abs(checkedAmount(line, debitText, 'debit'));
  const credit = creditText === '' ? 0 : Math.abs(checkedAmount(line, creditText, 'credit'));
  if (debit !== 0 && credit !== 0) {
    throw unreadable(`Line ${line.lineNumber}: both the debit ${quoted(debitText)} and the credit ${quoted(creditText)} have an amount.`);
  }
  if (debitText === '' && creditText === '') return null;
  return credit - debit;
}

function checkedAmount(line: CsvLine, text: string, what: 'amount' | 'debit' | 'credit'): number {
  const amount = parseCsvAmount(text);
  if (amount === null) throw unreadable(`Line ${line.lineNumber}: the ${what} ${quoted(text)} is not a number.`);
  const problem = amountProblem(amount);
  if (problem) throw unreadable(`Line ${line.lineNumber}: the ${what} ${quoted(text)} ${problem}.`);
  return amount;
}

function readBalance(line: CsvLine, column: number): Cents | null {
  const text = cell(line, column);
  if (text === '') return null;
  const balance = parseCsvAmount(text);
  if (balance === null) throw unreadable(`Line ${line.lineNumber}: the balance ${quoted(text)} is not a number.`);
  const problem = amountProblem(balance);
  if (problem) throw unreadable(`Line ${line.lineNumber}: the balance ${quoted(text)} ${problem}.`);
  return cents(balance);
}

function readDate(line: CsvLine, plan: ColumnPlan): IsoDate {
  const text = cell(line, plan.date);
  const where = `Line ${line.lineNumber}`;
  if (text === '') throw unreadable(`${where}: the date is missing.`);
  const date = parseCsvDate(text, plan.dateFormat);
  if (date === 'no such date') throw unreadable(`${where}: the date ${quoted(text)} does not exist.`);
  if (date === null) {
    throw unreadable(`${where}: the date ${quoted(text)} is not a date in ${plan.dateFormat ?? 'MM/DD/YYYY or YYYY-MM-DD'}.`);
  }
  return date;
}

const ISO_SHAPE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const SLASH_SHAPE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** The date a cell names, 'no such date' for a well-formed one that does not exist (02/30/2027), null otherwise. */
export function parseCsvDate(text: string, format: CsvDateFormat | null): IsoDate | 'no such date' | null {
  const iso = format === null || format === 'YYYY-MM-DD' ? ISO_SHAPE.exec(text) : null;
  // A text of the ISO shape cannot also have the slash shape: no need to try it.
  const slash = format !== 'YYYY-MM-DD' && !iso ? SLASH_SHAPE.exec(text) : null;
  let parts: [string, string, string] | null = null;
  if (iso) parts = [iso[1] ?? '', iso[2] ?? '', iso[3] ?? ''];
  else if (slash && format === 'DD/MM/YYYY') parts = [slash[3] ?? '', slash[2] ?? '', slash[1] ?? ''];
  else if (slash) parts = [slash[3] ?? '', slash[1] ?? '', slash[2] ?? ''];
  if (!parts) return null;
  const [year, month, day] = parts;
  const date = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  return isIsoDate(date) ? date : 'no such date';
}

// An optional sign, an optional "$", digits with or without thousands separators, and a
// fraction; a sign may also come after the "$" or after the number ("54.23-").
const CSV_AMOUNT = /^([+-]?)\$?([+-]?)(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?(-?)$/;

/** The common plain amount ("-54.23", "1200.00"): what CSV_AMOUNT reads, with no "$", separators or spaces. */
const PLAIN_AMOUNT = /^(-?)(\d{1,13})\.(\d\d)$/;

/** Signed cents of an amount cell ("$1,234.56", "(12.34)", "-$5", "54.23-"), or null when it is not a number. */
export function parseCsvAmount(text: string): number | null {
  const plain = PLAIN_AMOUNT.exec(text);
  if (plain) {
    // As below: at most 13 whole digits are a safe number of cents, and two fraction digits always fit.
    const magnitude = Number(plain[2]) * 100 + Number(plain[3]);
    return plain[1] === '-' ? -magnitude : magnitude;
  }
  let compact = text.replace(/\s+/g, '');
  const parenthesised = /^\(.*\)$/.test(compact);
  if (parenthesised) compact = compact.slice(1, -1);
  const match = CSV_AMOUNT.exec(compact);
  if (!match) return null;
  const [, before = '', afterDollar = '', whole = '', fraction = '', after = ''] = match;
  const signs = before + afterDollar + after;
  if (whole === '' && fraction === '') return null;
  if (signs.length > 1 || (parenthesised && signs !== '')) return null;
  const magnitude = decimalCents(whole.replaceAll(',', ''), fraction);
  if (magnitude === null) return null;
  return parenthesised || signs === '-' ? -magnitude : magnitude;
}
