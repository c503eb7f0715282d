/**
 * The statement calls' requests (issue 14): the server's check, and the types the page sends.
 * Apart from statements.ts (the answers) so the page's first view does not carry them (benchmark 4a).
 */
import * as z from 'zod/mini';
import { CSV_DATE_FORMATS } from '../domain/statements/csv-date-formats.js';
import type { CsvMapping } from '../domain/statements/csv-statement.js';
import { idSchema } from './common.js';
import { OBJECT_BODY, trimmedText, wholeNumberField } from './request-fields.js';

/** Far beyond any bank export; a mapping's columns are checked against the file's own count later. */
const MAX_COLUMN = 9_999;
const MAX_FILE_NAME_LENGTH = 255;

const column = (label: string) => z.optional(wholeNumberField(label, 0, MAX_COLUMN));

/**
 * The user's choice of columns for a CSV whose header is not recognised: one signed Amount column,
 * or Debit and Credit columns. Column indexes start at 0.
 */
export const csvMappingSchema = z.pipe(
  z
    .object(
      {
        date: wholeNumberField('Date column', 0, MAX_COLUMN),
        description: wholeNumberField('Description column', 0, MAX_COLUMN),
        amount: column('Amount column'),
        debit: column('Debit column'),
        credit: column('Credit column'),
        dateFormat: z.enum(CSV_DATE_FORMATS, { error: `Date format must be one of ${CSV_DATE_FORMATS.join(', ')}.` }),
      },
      { error: 'The mapping must be an object with date, description, amount (or debit and credit) and dateFormat.' },
    )
    .check(
      z.superRefine((mapping, context) => {
        const split = mapping.debit !== undefined || mapping.credit !== undefined;
        if (mapping.amount !== undefined && split) {
          context.addIssue({ code: 'custom', path: ['amount'], message: 'Choose an Amount column or Debit and Credit columns, not both.' });
        } else if (mapping.amount === undefined && (mapping.debit === undefined || mapping.credit === undefined)) {
          const path = split ? [mapping.debit === undefined ? 'debit' : 'credit'] : ['amount'];
          context.addIssue({ code: 'custom', path, message: 'Choose an Amount column, or both a Debit and a Credit column.' });
        }
      }),
    ),
  z.transform(({ date, description, amount, debit, credit, dateFormat }): CsvMapping => {
    if (amount !== undefined) return { date, description, amount, dateFormat };
    // The check above guarantees both when there is no amount.
    return { date, description, debit: debit ?? 0, credit: credit ?? 0, dateFormat };
  }),
);

const statementFields = {
  fileName: trimmedText('File name', MAX_FILE_NAME_LENGTH),
  /** The file's text, decoded by the page. Over MAX_STATEMENT_CHARACTERS is a 413, not a 400. */
  content: z.string({ error: 'Content is required: the statement file as text.' }),
  mapping: z.optional(csvMappingSchema),
};

/** POST /api/ledger/statements/preview: what an import would do, changing nothing. */
export const statementPreviewRequestSchema = z.object(statementFields, OBJECT_BODY);
export type StatementPreviewRequest = z.infer<typeof statementPreviewRequestSchema>;

export const IMPORT_DECISIONS = ['match', 'new', 'skip'] as const;

/** The user's change to one proposed row: match it to another open row, add it as new, or skip it. */
export const importDecisionSchema = z.object(
  {
    index: wholeNumberField('Row', 0, Number.MAX_SAFE_INTEGER),
    action: z.enum(IMPORT_DECISIONS, { error: 'Action must be match, new or skip.' }),
    matchId: z.optional(idSchema),
  },
  { error: 'A decision must be an object with index, action and, for a match, matchId.' },
);
export type ImportDecision = z.infer<typeof importDecisionSchema>;

/** POST /api/ledger/statements/import: the same file, and the user's changes to the proposals. */
export const statementImportRequestSchema = z.object(
  { ...statementFields, decisions: z.optional(z.array(importDecisionSchema, { error: 'Decisions must be a list.' })) },
  OBJECT_BODY,
);
export type StatementImportRequest = z.infer<typeof statementImportRequestSchema>;
