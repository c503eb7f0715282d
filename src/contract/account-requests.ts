/**
 * What POST /api/account/import accepts: an export document (account.ts), every field checked with
 * the same rules as the calls that made it, and then the document as a whole (ids, references,
 * dates), so a restore that passes here stores exactly what it says. Apart from account.ts so the
 * page's first view does not carry it; the Restore dialog's chunk and the server load it.
 */
import * as z from 'zod/mini';
import { isIsoDate } from '../domain/calendar-date.js';
import { LATEST_LEDGER_START, latestLedgerEnd } from '../domain/ledger-span.js';
import { MAX_LEDGER_YEARS, MAX_TRANSACTION_NAME_LENGTH, SCHEDULE_KINDS, TRANSACTION_STATUSES } from '../domain/ledger.js';
import { TRANSACTION_TYPES } from '../domain/ledger.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from './account.js';
import { idSchema } from './common.js';
import { LEDGER_START_TOO_LATE } from './ledger-requests.js';
import { depositInputSchema } from './deposit-input.js';
import { expenseInputSchema } from './expense-input.js';
import { amountSchema, balanceSchema, isoDateField, OBJECT_BODY, trimmedText, wholeNumberField } from './request-fields.js';

/** The largest sequence either database's integer column holds. */
const MAX_SEQUENCE = 2_147_483_647;

/** Exactly what Date.toISOString writes, which is how the server stores creation times. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function timestampField(label: string) {
  return z
    .string({ error: `${label} is required.` })
    .check(
      z.refine(
        (value: string) => TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)),
        `${label} must be a time like 2026-11-21T12:00:00.000Z.`,
      ),
    );
}

const kindSchema = z.enum(SCHEDULE_KINDS, { error: 'Kind must be deposit or expense.' });

/** The fields only a stored row has, beside what a user enters for a deposit or an expense. */
const storedScheduleFields = z.object({ id: idSchema, createdAt: timestampField('Created At') });

const restoredDepositSchema = z.intersection(storedScheduleFields, depositInputSchema);
const restoredExpenseSchema = z.intersection(storedScheduleFields, expenseInputSchema);

const restoredSourceSchema = z.object(
  {
    kind: kindSchema,
    id: idSchema,
    occurrence: isoDateField('Occurrence'),
    edited: z.boolean({ error: 'Edited must be true or false.' }),
  },
  { error: 'Source must be null or an object with kind, id, occurrence and edited.' },
);

const restoredTransactionSchema = z.object(
  {
    id: idSchema,
    sequence: wholeNumberField('Sequence', 1, MAX_SEQUENCE),
    date: isoDateField('Date'),
    name: trimmedText('Name', MAX_TRANSACTION_NAME_LENGTH),
    type: z.enum(TRANSACTION_TYPES, { error: 'Type must be D (debit) or C (credit).' }),
    amount: amountSchema,
    status: z.enum(TRANSACTION_STATUSES, { error: 'Status must be PENDING, PAID or CLEARED.' }),
    source: z.nullable(restoredSourceSchema),
  },
  OBJECT_BODY,
);

const restoredLedgerSchema = z.object(
  {
    startDate: isoDateField('Start Date'),
    endDate: isoDateField('End Date'),
    openingBalance: balanceSchema('Opening Balance'),
    nextSequence: wholeNumberField('Next Sequence', 1, MAX_SEQUENCE),
    transactions: z.array(restoredTransactionSchema, { error: 'Transactions must be a list.' }),
    skippedOccurrences: z.array(z.object({ kind: kindSchema, id: idSchema, occurrence: isoDateField('Occurrence') }), {
      error: 'Skipped occurrences must be a list.',
    }),
    importedStatementRows: z.array(
      z.object({
        key: z.string({ error: 'Key is required.' }).check(z.regex(/^[0-9a-f]{64}$/, 'Key must be a SHA-256 in lowercase hex.')),
        transactionId: idSchema,
        importedAt: timestampField('Imported At'),
      }),
      { error: 'Imported statement rows must be a list.' },
    ),
    removedSchedules: z.array(z.object({ kind: kindSchema, id: idSchema }), { error: 'Removed schedules must be a list.' }),
  },
  { error: 'Ledger must be null or an object.' },
);

type RestoredLedgerFields = z.output<typeof restoredLedgerSchema>;

const scheduleKey = (kind: string, id: string) => `${kind} ${id}`;
const article = (kind: string) => (kind === 'expense' ? 'an expense' : 'a deposit');

/** Problems of the document as a whole, in document order; each names the path of the value at fault. */
function documentProblems(
  deposits: readonly { id: string }[],
  expenses: readonly { id: string }[],
  ledger: RestoredLedgerFields | null,
): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  const scheduleIds = new Set<string>();
  const schedules = new Set<string>();
  for (const [list, kind, name] of [
    [deposits, 'deposit', 'deposits'],
    [expenses, 'expense', 'expenses'],
  ] as const) {
    list.forEach((schedule, index) => {
      // One id for one row of either table: a source names its schedule by kind and id, and restore maps ids once.
      if (scheduleIds.has(schedule.id)) problems.push({ path: [name, index, 'id'], message: 'Id appears twice in the document.' });
      scheduleIds.add(schedule.id);
      schedules.add(scheduleKey(kind, schedule.id));
    });
  }
  if (!ledger) return problems;

  const removed = new Set<string>();
  ledger.removedSchedules.forEach((schedule, index) => {
    const key = scheduleKey(schedule.kind, schedule.id);
    if (schedules.has(key) || removed.has(key) || scheduleIds.has(schedule.id)) {
      problems.push({
        path: ['ledger', 'removedSchedules', index, 'id'],
        message: 'A removed schedule must appear once and not among the schedules.',
      });
    }
    removed.add(key);
  });

  const range = `${ledger.startDate} and ${ledger.endDate}`;
  const rowIds = new Set<string>();
  const sequences = new Set<number>();
  ledger.transactions.forEach((row, index) => {
    const at = (...rest: string[]) => ['ledger', 'transactions', index, ...rest];
    if (rowIds.has(row.id)) problems.push({ path: at('id'), message: 'Id appears twice in the document.' });
    rowIds.add(row.id);
    if (sequences.has(row.sequence)) problems.push({ path: at('sequence'), message: 'Sequence appears twice in the ledger.' });
    sequences.add(row.sequence);
    if (row.sequence >= ledger.nextSequence) {
      problems.push({ path: at('sequence'), message: 'Sequence must be below the ledger’s Next Sequence.' });
    }
    if (row.date < ledger.startDate || row.date > ledger.endDate)
      problems.push({ path: at('date'), message: `Date must be between ${range}.` });
    if (row.source) {
      const key = scheduleKey(row.source.kind, row.source.id);
      if (!schedules.has(key) && !removed.has(key)) {
        problems.push({
          path: at('source', 'id'),
          message: `Source must name ${article(row.source.kind)} of the document or a removed schedule.`,
        });
      }
      if (row.source.kind === 'deposit' ? row.type !== 'C' : row.type !== 'D') {
        problems.push({
          path: at('type'),
          message: `A row of a ${row.source.kind} must have type ${row.source.kind === 'deposit' ? 'C' : 'D'}.`,
        });
      }
    }
  });

  const skipped = new Set<string>();
  ledger.skippedOccurrences.forEach((occurrence, index) => {
    const key = `${scheduleKey(occurrence.kind, occurrence.id)} ${occurrence.occurrence}`;
    // Deleting a schedule forgets its skipped occurrences, so they always name a schedule that exists.
    if (!schedules.has(scheduleKey(occurrence.kind, occurrence.id))) {
      problems.push({
        path: ['ledger', 'skippedOccurrences', index, 'id'],
        message: `Id must name ${article(occurrence.kind)} of the document.`,
      });
    } else if (skipped.has(key)) {
      problems.push({ path: ['ledger', 'skippedOccurrences', index, 'occurrence'], message: 'Occurrence appears twice in the document.' });
    }
    skipped.add(key);
  });

  const keys = new Set<string>();
  ledger.importedStatementRows.forEach((row, index) => {
    if (keys.has(row.key))
      problems.push({ path: ['ledger', 'importedStatementRows', index, 'key'], message: 'Key appears twice in the document.' });
    keys.add(row.key);
  });
  return problems;
}

/** POST /api/account/import: a whole export document, which replaces everything the caller has. */
export const accountImportRequestSchema = z
  .object(
    {
      format: z.literal(EXPORT_FORMAT, { error: `This is not a Leftover export: format must be "${EXPORT_FORMAT}".` }),
      version: z.literal(EXPORT_VERSION, {
        error: `This export's version is not one this server can read: version must be ${EXPORT_VERSION}.`,
      }),
      exportedAt: z.optional(z.string({ error: 'Exported At must be text.' })),
      deposits: z.array(restoredDepositSchema, { error: 'Deposits must be a list.' }),
      expenses: z.array(restoredExpenseSchema, { error: 'Expenses must be a list.' }),
      ledger: z.nullable(
        restoredLedgerSchema.check(
          z.superRefine((ledger, context) => {
            if (!isIsoDate(ledger.startDate) || !isIsoDate(ledger.endDate)) return;
            if (ledger.startDate > LATEST_LEDGER_START) {
              context.addIssue({ code: 'custom', path: ['startDate'], message: LEDGER_START_TOO_LATE });
            } else if (ledger.endDate < ledger.startDate) {
              context.addIssue({ code: 'custom', path: ['endDate'], message: 'End Date must be on or after Start Date.' });
            } else if (ledger.endDate > latestLedgerEnd(ledger.startDate)) {
              context.addIssue({
                code: 'custom',
                path: ['endDate'],
                message: `A ledger spans at most ${MAX_LEDGER_YEARS} years: End Date must be on or before ${latestLedgerEnd(ledger.startDate)}.`,
              });
            }
          }),
        ),
      ),
    },
    OBJECT_BODY,
  )
  .check(
    z.superRefine((document, context) => {
      // The first problem only: one wrong id would otherwise also be reported at every row that names it.
      const [problem] = documentProblems(document.deposits, document.expenses, document.ledger);
      if (problem) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    }),
  );
export type AccountImportRequest = z.input<typeof accountImportRequestSchema>;
export type RestoredAccount = z.output<typeof accountImportRequestSchema>;

/** DELETE /api/account: the word the user typed to confirm, so no stray call erases an account. */
export const deleteAccountRequestSchema = z.object({ confirm: z.literal('DELETE', { error: 'Type DELETE to confirm.' }) }, OBJECT_BODY);
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;
