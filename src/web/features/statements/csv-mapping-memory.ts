/**
 * The columns the user chose for a CSV the server could not read alone, remembered in this browser
 * for the next file of the same shape: the same column count and the same header line (issue 14
 * item 2). As the expense sort is remembered: blocked storage only means choosing again.
 */
import { csvMappingSchema } from '../../../contract/statement-requests.js';
import type { CsvMapping } from '../../../domain/statements/csv-statement.js';

export const CSV_MAPPING_STORAGE_KEY = 'leftover.statementColumns';

/** A few banks' exports are plenty; the oldest choice goes first. */
const MAX_REMEMBERED = 20;

interface CsvColumns {
  readonly count: number;
  readonly firstRows: readonly (readonly string[])[];
}

// A header names its columns: a line with a date or an amount in it is already a transaction.
const DATE_LIKE = /^\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}$/;
const AMOUNT_LIKE = /^[-+(]?\$?\s*[\d,]+(\.\d+)?\)?$/;

/**
 * The file's shape: its column count and its header line. A file without a header has only its
 * column count, since its first line is a transaction that the next file will not repeat.
 */
export function fileShape(columns: CsvColumns): string {
  const first = columns.firstRows[0] ?? [];
  const isHeader =
    first.some((cell) => cell.trim() !== '') && !first.some((cell) => DATE_LIKE.test(cell.trim()) || AMOUNT_LIKE.test(cell.trim()));
  return JSON.stringify([columns.count, isHeader ? first.map((cell) => cell.trim()) : null]);
}

function readAll(): Record<string, unknown> {
  try {
    const stored: unknown = JSON.parse(window.localStorage.getItem(CSV_MAPPING_STORAGE_KEY) ?? '{}');
    return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  } catch {
    // Blocked storage, or something else under our key: nothing remembered.
    return {};
  }
}

/** The mapping chosen before for a file of this shape, if it still fits the file. */
export function rememberedMapping(columns: CsvColumns): CsvMapping | null {
  const parsed = csvMappingSchema.safeParse(readAll()[fileShape(columns)]);
  if (!parsed.success) return null;
  const mapping = parsed.data;
  const used =
    'amount' in mapping
      ? [mapping.date, mapping.description, mapping.amount]
      : [mapping.date, mapping.description, mapping.debit, mapping.credit];
  return used.every((column) => column < columns.count) ? mapping : null;
}

export function rememberMapping(columns: CsvColumns, mapping: CsvMapping): void {
  const shape = fileShape(columns);
  const entries = Object.entries(readAll()).filter(([key]) => key !== shape);
  entries.push([shape, mapping]);
  try {
    window.localStorage.setItem(CSV_MAPPING_STORAGE_KEY, JSON.stringify(Object.fromEntries(entries.slice(-MAX_REMEMBERED))));
  } catch {
    // Blocked storage: the next file of this shape asks again.
  }
}
