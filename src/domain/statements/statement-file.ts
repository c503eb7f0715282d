/**
 * The front door for a statement file: which format it is, and its rows and closing balance.
 * The server gets the file as text the page already decoded (UTF-8, or Windows-1252 for files
 * that are not valid UTF-8), so this sees characters, never bytes.
 */
import { type CsvColumns, type CsvMapping, readCsvStatement } from './csv-statement.js';
import { readOfxStatement } from './ofx-statement.js';
import { type BankBalance, type StatementRow, unreadable } from './statement-row.js';

export type StatementFormat = 'csv' | 'ofx';

export interface StatementFile {
  readonly format: StatementFormat;
  /** A CSV whose header was not recognised and no mapping given: choose columns from `columns`. */
  readonly needsMapping: boolean;
  /** Every CSV's columns, for choosing or changing the mapping; absent for OFX. */
  readonly columns?: CsvColumns;
  readonly rows: readonly StatementRow[];
  readonly bank: BankBalance | null;
  /**
   * An OFX or QFX file's account at its bank (ACCTID), absent for CSV and for an OFX file that
   * names none: the user's account it was imported into is remembered by it (issue 25).
   */
  readonly bankAccountId?: string;
}

/**
 * Reads a statement. The content decides the format (an OFX header or <OFX> element); failing
 * that, a .ofx or .qfx name means OFX, so a mislabelled file is refused as OFX rather than
 * misread as CSV. A mapping applies to CSV only. Throws InvalidInputError on `content` when the
 * file cannot be read, or on `mapping` when the mapping does not fit the file.
 */
export function readStatement(fileName: string, content: string, mapping?: CsvMapping): StatementFile {
  const text = content.replace(/^\uFEFF/, '');
  if (text.trim() === '') throw unreadable('The file is empty.');
  if (!looksLikeText(text)) throw unreadable('The file is not text: a statement is a CSV, OFX or QFX file.');
  if (detectFormat(fileName, text) === 'ofx') {
    const { rows, bank, bankAccountId } = readOfxStatement(text);
    return { format: 'ofx', needsMapping: false, rows, bank, ...(bankAccountId !== null && { bankAccountId }) };
  }
  const csv = readCsvStatement(text, mapping);
  return { format: 'csv', needsMapping: csv.needsMapping, columns: csv.columns, rows: csv.rows, bank: csv.bank };
}

export function detectFormat(fileName: string, content: string): StatementFormat {
  const opening = content.slice(0, 4096);
  if (/^\s*OFXHEADER\s*:/i.test(opening) || /<\?OFX[\s?]/i.test(opening) || /<OFX[\s>]/i.test(opening)) return 'ofx';
  return /\.(ofx|qfx)$/i.test(fileName.trim()) ? 'ofx' : 'csv';
}

const SAMPLE_LENGTH = 4096;

/**
 * Text has no NUL, and few control or replacement characters: a PDF or spreadsheet read as
 * text is full of them, while a few U+FFFD in descriptions are just badly decoded accents.
 */
function looksLikeText(content: string): boolean {
  if (content.includes('\u0000')) return false;
  const sample = content.slice(0, SAMPLE_LENGTH);
  // eslint-disable-next-line no-control-regex -- counting control characters is the point
  const junk = sample.match(/[\u0001-\u0008\u000b\u000e-\u001f\u007f\uFFFD]/g)?.length ?? 0;
  return junk <= sample.length / 10;
}
