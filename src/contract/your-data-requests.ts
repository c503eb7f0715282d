/**
 * What POST /api/account/import accepts: an export document (account.ts), every field checked with
 * the same rules as the calls that made it, and then the document as a whole (ids, references,
 * dates), so a restore that passes here stores exactly what it says. Apart from account.ts so the
 * page's first view does not carry it; the Restore dialog's chunk and the server load it.
 */
import * as z from 'zod/mini';
import { isIsoDate } from '../domain/calendar-date.js';
import { LATEST_LEDGER_START, latestLedgerEnd } from '../domain/ledger-span.js';
import { bankKeyText, CLOSED_BANK_KEY_REASONS } from '../domain/bank-sync/bank-rows.js';
import {
  BANK_STATES,
  MAX_LEDGER_YEARS,
  MAX_TRANSACTION_NAME_LENGTH,
  SCHEDULE_KINDS,
  SOURCE_KINDS,
  TRANSACTION_STATUSES,
} from '../domain/ledger.js';
import { TRANSACTION_TYPES } from '../domain/ledger.js';
import { EXPORT_FORMAT, EXPORT_VERSIONS } from './your-data.js';
import { cardInputSchema } from './account-input.js';
import { ACCOUNT_KINDS, accountNameKey, MAX_ACCOUNT_NAME_LENGTH } from '../domain/accounts.js';
import { MAX_ACCOUNTS } from '../domain/limits.js';
import { idSchema } from './common.js';
import { LEDGER_START_TOO_LATE } from './ledger-requests.js';
import { depositInputSchema } from './deposit-input.js';
import { expenseInputSchema } from './expense-input.js';
import {
  amountSchema,
  balanceSchema,
  isoDateField,
  limitedDollarsField,
  OBJECT_BODY,
  trimmedText,
  wholeNumberField,
} from './request-fields.js';
import { everydaySpendingField } from './settings-requests.js';

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
/** What a row or a skipped occurrence is projected from: a schedule, or a card's statements (decision 0045). */
const sourceKindSchema = z.enum(SOURCE_KINDS, { error: 'Kind must be deposit, expense or card.' });

/** The fields only a stored row has, beside what a user enters for a deposit or an expense. */
const storedScheduleFields = z.object({ id: idSchema, createdAt: timestampField('Created At') });

const restoredDepositSchema = z.intersection(storedScheduleFields, depositInputSchema);
const restoredExpenseSchema = z.intersection(storedScheduleFields, expenseInputSchema);

const restoredSourceSchema = z.object(
  {
    kind: sourceKindSchema,
    id: idSchema,
    occurrence: isoDateField('Occurrence'),
    edited: z.boolean({ error: 'Edited must be true or false.' }),
  },
  { error: 'Source must be null or an object with kind, id, occurrence and edited.' },
);

/** A bridge's account or transaction id, as a bank mark stores it (at most 200 characters, decision 0081). */
function bankIdField(label: string) {
  return z
    .string({ error: `${label} is required.` })
    .check(z.minLength(1, `${label} must be 1 to 200 characters.`), z.maxLength(200, `${label} must be 1 to 200 characters.`));
}

const restoredBankMarkSchema = z.object(
  {
    account: bankIdField('Account'),
    transaction: bankIdField('Transaction'),
    state: z.enum(BANK_STATES, { error: 'State must be posted, pending or gone.' }),
    missingSince: z.nullable(isoDateField('Missing Since')),
  },
  { error: 'Bank must be left out or an object with account, transaction, state and missingSince.' },
);

const restoredClosedBankKeySchema = z.object(
  {
    account: bankIdField('Account'),
    transaction: bankIdField('Transaction'),
    reason: z.enum(CLOSED_BANK_KEY_REASONS, { error: 'Reason must be deleted or replaced.' }),
    pending: z.nullable(
      z.object(
        {
          date: isoDateField('Date'),
          type: z.enum(TRANSACTION_TYPES, { error: 'Type must be D (debit) or C (credit).' }),
          amount: amountSchema,
        },
        { error: 'Pending must be null or an object with date, type and amount.' },
      ),
    ),
  },
  OBJECT_BODY,
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
    transfer: z.optional(
      z.object({ id: idSchema, accountId: idSchema }, { error: 'Transfer must be left out or an object with id and accountId.' }),
    ),
    bank: z.optional(restoredBankMarkSchema),
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
    skippedOccurrences: z.array(z.object({ kind: sourceKindSchema, id: idSchema, occurrence: isoDateField('Occurrence') }), {
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
    closedBankKeys: z.optional(z.array(restoredClosedBankKeySchema, { error: 'Closed bank keys must be a list.' })),
  },
  { error: 'Ledger must be null or an object.' },
);

type RestoredLedgerFields = z.output<typeof restoredLedgerSchema>;

type Problem = { path: (string | number)[]; message: string };

const scheduleKey = (kind: string, id: string) => `${kind} ${id}`;
const article = (kind: string) => (kind === 'expense' ? 'an expense' : 'a deposit');

/** The document's schedules: their ids (one id for one row of either table) and their kind-and-id keys. */
interface DocumentSchedules {
  readonly ids: Set<string>;
  readonly keys: Set<string>;
}

/** Problems of the schedules as a whole (duplicate ids), in document order; fills `schedules`. */
function scheduleProblems(
  deposits: readonly { id: string }[],
  expenses: readonly { id: string }[],
  schedules: DocumentSchedules,
): Problem[] {
  const problems: Problem[] = [];
  for (const [list, kind, name] of [
    [deposits, 'deposit', 'deposits'],
    [expenses, 'expense', 'expenses'],
  ] as const) {
    list.forEach((schedule, index) => {
      // One id for one row of either table: a source names its schedule by kind and id, and restore maps ids once.
      if (schedules.ids.has(schedule.id)) problems.push({ path: [name, index, 'id'], message: 'Id appears twice in the document.' });
      schedules.ids.add(schedule.id);
      schedules.keys.add(scheduleKey(kind, schedule.id));
    });
  }
  return problems;
}

/** The document's credit cards (their account ids), and the account whose ledger is being checked. */
interface LedgerCards {
  readonly cards: ReadonlySet<string>;
  readonly accountId: string;
}

const NO_CARDS: LedgerCards = { cards: new Set(), accountId: '' };
const CARD_SOURCE = 'Source must name a credit card of the document.';

/**
 * Problems of one ledger as a whole, in document order, each at `at` + its path. `rowIds` holds
 * the row ids of the document's ledgers seen so far: a row id is one row of the whole document.
 * A card payment's rows (decision 0045) name their card: a credit in the card's own ledger, a debit elsewhere.
 */
function ledgerProblems(
  ledger: RestoredLedgerFields,
  schedules: DocumentSchedules,
  rowIds: Set<string>,
  at: readonly (string | number)[],
  { cards, accountId }: LedgerCards = NO_CARDS,
): Problem[] {
  const problems: Problem[] = [];
  const removed = new Set<string>();
  ledger.removedSchedules.forEach((schedule, index) => {
    const key = scheduleKey(schedule.kind, schedule.id);
    if (schedules.keys.has(key) || removed.has(key) || schedules.ids.has(schedule.id)) {
      problems.push({
        path: [...at, 'removedSchedules', index, 'id'],
        message: 'A removed schedule must appear once and not among the schedules.',
      });
    }
    removed.add(key);
  });

  const range = `${ledger.startDate} and ${ledger.endDate}`;
  const sequences = new Set<number>();
  ledger.transactions.forEach((row, index) => {
    const rowAt = (...rest: string[]) => [...at, 'transactions', index, ...rest];
    if (rowIds.has(row.id)) problems.push({ path: rowAt('id'), message: 'Id appears twice in the document.' });
    rowIds.add(row.id);
    if (sequences.has(row.sequence)) problems.push({ path: rowAt('sequence'), message: 'Sequence appears twice in the ledger.' });
    sequences.add(row.sequence);
    if (row.sequence >= ledger.nextSequence) {
      problems.push({ path: rowAt('sequence'), message: 'Sequence must be below the ledger’s Next Sequence.' });
    }
    if (row.date < ledger.startDate || row.date > ledger.endDate)
      problems.push({ path: rowAt('date'), message: `Date must be between ${range}.` });
    if (row.source?.kind === 'card') {
      if (!cards.has(row.source.id)) problems.push({ path: rowAt('source', 'id'), message: CARD_SOURCE });
      const own = row.source.id === accountId;
      if (row.type !== (own ? 'C' : 'D')) {
        problems.push({
          path: rowAt('type'),
          message: own ? "A card payment's row in the card's ledger must have type C." : "A card payment's row must have type D.",
        });
      }
    } else if (row.source) {
      const key = scheduleKey(row.source.kind, row.source.id);
      if (!schedules.keys.has(key) && !removed.has(key)) {
        problems.push({
          path: rowAt('source', 'id'),
          message: `Source must name ${article(row.source.kind)} of the document or a removed schedule.`,
        });
      }
      if (row.source.kind === 'deposit' ? row.type !== 'C' : row.type !== 'D') {
        problems.push({
          path: rowAt('type'),
          message: `A row of a ${row.source.kind} must have type ${row.source.kind === 'deposit' ? 'C' : 'D'}.`,
        });
      }
    }
  });

  const skipped = new Set<string>();
  ledger.skippedOccurrences.forEach((occurrence, index) => {
    const key = `${scheduleKey(occurrence.kind, occurrence.id)} ${occurrence.occurrence}`;
    // Deleting a schedule (or a card) forgets its skipped occurrences, so they always name one that exists.
    const known = occurrence.kind === 'card' ? cards.has(occurrence.id) : schedules.keys.has(scheduleKey(occurrence.kind, occurrence.id));
    if (!known) {
      problems.push({
        path: [...at, 'skippedOccurrences', index, 'id'],
        message: `Id must name ${occurrence.kind === 'card' ? 'a credit card' : article(occurrence.kind)} of the document.`,
      });
    } else if (skipped.has(key)) {
      problems.push({ path: [...at, 'skippedOccurrences', index, 'occurrence'], message: 'Occurrence appears twice in the document.' });
    }
    skipped.add(key);
  });

  const keys = new Set<string>();
  ledger.importedStatementRows.forEach((row, index) => {
    if (keys.has(row.key))
      problems.push({ path: [...at, 'importedStatementRows', index, 'key'], message: 'Key appears twice in the document.' });
    keys.add(row.key);
  });

  // A ledger holds one row per bank key, and closes a key once (decision 0084).
  const bankKeys = new Set<string>();
  ledger.transactions.forEach((row, index) => {
    if (!row.bank) return;
    const key = bankKeyText(row.bank);
    if (bankKeys.has(key))
      problems.push({
        path: [...at, 'transactions', index, 'bank', 'transaction'],
        message: 'A bank transaction appears twice in the ledger.',
      });
    bankKeys.add(key);
  });
  const closedKeys = new Set<string>();
  (ledger.closedBankKeys ?? []).forEach((closed, index) => {
    const key = bankKeyText(closed);
    if (closedKeys.has(key))
      problems.push({ path: [...at, 'closedBankKeys', index, 'transaction'], message: 'A closed bank key appears twice in the ledger.' });
    closedKeys.add(key);
  });
  return problems;
}

const TRANSFER_MESSAGE =
  'Transfer must name a row of another account of the document that names this one back, on the same date, with the same name and amount and the other type.';

/**
 * Problems of the transfers (decision 0043), in document order: each side names a row of another
 * account, and that row names it back, with the same date, name and amount and the other type.
 * `ledgers` are the document's ledgers with their accounts' ids and paths; a version 1 document
 * has one account, so any transfer in it names nothing.
 */
function transferProblems(ledgers: readonly { accountId: string; ledger: RestoredLedgerFields; at: (string | number)[] }[]): Problem[] {
  const rows = new Map<string, { accountId: string; row: RestoredLedgerFields['transactions'][number] }>();
  for (const { accountId, ledger } of ledgers) for (const row of ledger.transactions) rows.set(row.id, { accountId, row });
  const problems: Problem[] = [];
  for (const { accountId, ledger, at } of ledgers) {
    ledger.transactions.forEach((row, index) => {
      if (!row.transfer) return;
      const other = rows.get(row.transfer.id);
      const paired =
        other !== undefined &&
        other.accountId === row.transfer.accountId &&
        other.accountId !== accountId &&
        other.row.transfer?.id === row.id &&
        other.row.transfer.accountId === accountId &&
        other.row.date === row.date &&
        other.row.name === row.name &&
        other.row.amount === row.amount &&
        other.row.type !== row.type;
      if (!paired) problems.push({ path: [...at, 'transactions', index, 'transfer'], message: TRANSFER_MESSAGE });
    });
  }
  return problems;
}

/** A ledger's own dates: a start not too late, an end on or after it, at most MAX_LEDGER_YEARS after it. */
const checkedLedgerSchema = restoredLedgerSchema.check(
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
);

const formatSchema = z.literal(EXPORT_FORMAT, { error: `This is not a Leftover export: format must be "${EXPORT_FORMAT}".` });
const VERSION_MESSAGE = `This export's version is not one this server can read: version must be ${EXPORT_VERSIONS.join(' or ')}.`;

/** The first check of a restore: a Leftover export, of a version this server reads; the rest is that version's schema. */
export const restoreHeaderSchema = z.looseObject(
  {
    format: formatSchema,
    version: z.union(
      EXPORT_VERSIONS.map((version) => z.literal(version)),
      { error: VERSION_MESSAGE },
    ),
  },
  OBJECT_BODY,
);

/** A version 1 document: one ledger, or none, for the primary account. */
export const restoreV1Schema = z
  .object(
    {
      format: formatSchema,
      version: z.literal(1, { error: VERSION_MESSAGE }),
      exportedAt: z.optional(z.string({ error: 'Exported At must be text.' })),
      deposits: z.array(restoredDepositSchema, { error: 'Deposits must be a list.' }),
      expenses: z.array(restoredExpenseSchema, { error: 'Expenses must be a list.' }),
      ledger: z.nullable(checkedLedgerSchema),
    },
    OBJECT_BODY,
  )
  .check(
    z.superRefine((document, context) => {
      // The first problem only: one wrong id would otherwise also be reported at every row that names it.
      const schedules: DocumentSchedules = { ids: new Set(), keys: new Set() };
      const [problem] = [
        ...scheduleProblems(document.deposits, document.expenses, schedules),
        ...(document.ledger ? ledgerProblems(document.ledger, schedules, new Set(), ['ledger']) : []),
        ...(document.ledger ? transferProblems([{ accountId: '', ledger: document.ledger, at: ['ledger'] }]) : []),
      ];
      if (problem) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    }),
  );

/** At most this many bridge accounts linked to one account: far more than a user links (5 connections). */
const MAX_BANK_LINKS = 100;

/** A bridge account linked to the account (decision 0086): ids only, as the link call's path names them. */
const restoredBankLinkSchema = z.object(
  {
    connectionId: idSchema,
    remoteId: z.string({ error: 'Remote account is required.' }).check(z.regex(/^[^\s/]{1,255}$/, 'Remote account is not valid.')),
  },
  { error: 'A bank link must be an object with connectionId and remoteId.' },
);

const restoredAccountSchema = z.object(
  {
    id: idSchema,
    name: trimmedText('Name', MAX_ACCOUNT_NAME_LENGTH),
    kind: z.enum(ACCOUNT_KINDS, { error: 'Kind must be CHECKING, SAVINGS, CARD or CASH.' }),
    primary: z.boolean({ error: 'Primary must be true or false.' }),
    card: z.nullable(cardInputSchema),
    createdAt: timestampField('Created At'),
    ledger: z.nullable(checkedLedgerSchema),
    bankLinks: z.optional(
      z
        .array(restoredBankLinkSchema, { error: 'Bank links must be a list.' })
        .check(z.maxLength(MAX_BANK_LINKS, `Bank links must hold at most ${MAX_BANK_LINKS} links.`)),
    ),
  },
  { error: 'An account must be an object.' },
);

const ACCOUNT_MESSAGE = 'Account must name an account of the document.';

/** Problems of the accounts and what names them, in document order. */
function accountProblems(
  document: z.output<typeof restoredAccountSchema>[],
  schedules: readonly [string, readonly { accountId?: string | undefined; toAccountId?: string | null | undefined }[]][],
): Problem[] {
  const problems: Problem[] = [];
  const ids = new Map<string, (typeof document)[number]>();
  const names = new Set<string>();
  // A bridge account is linked to one account at most, as the link call leaves it.
  const bankLinks = new Set<string>();
  document.forEach((account, index) => {
    (account.bankLinks ?? []).forEach((link, linkIndex) => {
      const key = `${link.connectionId}/${link.remoteId}`;
      if (bankLinks.has(key))
        problems.push({ path: ['accounts', index, 'bankLinks', linkIndex], message: 'A bank link appears twice in the document.' });
      bankLinks.add(key);
    });
    if (ids.has(account.id)) problems.push({ path: ['accounts', index, 'id'], message: 'Id appears twice in the document.' });
    ids.set(account.id, account);
    if (names.has(accountNameKey(account.name)))
      problems.push({ path: ['accounts', index, 'name'], message: 'Name appears twice among the accounts.' });
    names.add(accountNameKey(account.name));
    if (account.kind === 'CARD' ? account.card === null : account.card !== null) {
      problems.push({ path: ['accounts', index, 'card'], message: 'A credit card has card settings, and only a credit card has them.' });
    }
    if (account.primary && account.kind === 'CARD')
      problems.push({ path: ['accounts', index, 'primary'], message: 'A credit card cannot be the primary account.' });
  });
  if (document.length > 0 && document.filter((account) => account.primary).length !== 1)
    problems.push({ path: ['accounts'], message: 'Exactly one account must be primary.' });
  document.forEach((account, index) => {
    const payFrom = account.card && ids.get(account.card.payFromAccountId);
    if (account.card && (!payFrom || payFrom.kind === 'CARD')) {
      problems.push({
        path: ['accounts', index, 'card', 'payFromAccountId'],
        message: 'Pay From must name an account of the document that is not a card.',
      });
    }
  });
  for (const [name, list] of schedules) {
    list.forEach((schedule, index) => {
      if (schedule.accountId === undefined || !ids.has(schedule.accountId))
        problems.push({ path: [name, index, 'accountId'], message: ACCOUNT_MESSAGE });
      // A recurring transfer pays into another account of the document (decision 0043).
      const to = schedule.toAccountId;
      if (to && (!ids.has(to) || to === schedule.accountId))
        problems.push({ path: [name, index, 'toAccountId'], message: 'To must name another account of the document.' });
    });
  }
  return problems;
}

/** "Keep at least" and everyday spending, as PATCH /api/me takes them; left out of a document, $0.00 and off. */
const restoredSettingsSchema = z.object(
  { buffer: limitedDollarsField('Keep at least', true), everydaySpending: z.nullable(everydaySpendingField) },
  { error: 'Settings must be left out or an object with buffer and everydaySpending.' },
);

/** A version 2 document (decision 0042): accounts, each with its ledger or none; each schedule names its account. */
export const restoreV2Schema = z
  .object(
    {
      format: formatSchema,
      version: z.literal(2, { error: VERSION_MESSAGE }),
      exportedAt: z.optional(z.string({ error: 'Exported At must be text.' })),
      // None only for a user who never had anything (then no schedule can name one).
      accounts: z
        .array(restoredAccountSchema, { error: 'Accounts must be a list.' })
        .check(z.maxLength(MAX_ACCOUNTS, `Accounts must hold at most ${MAX_ACCOUNTS} accounts.`)),
      deposits: z.array(restoredDepositSchema, { error: 'Deposits must be a list.' }),
      expenses: z.array(restoredExpenseSchema, { error: 'Expenses must be a list.' }),
      settings: z.optional(restoredSettingsSchema),
    },
    OBJECT_BODY,
  )
  .check(
    z.superRefine((document, context) => {
      // The first problem only: one wrong id would otherwise also be reported at every row that names it.
      const schedules: DocumentSchedules = { ids: new Set(), keys: new Set() };
      const rowIds = new Set<string>();
      // Everyday spending comes out of an account of the document (its primary one when it names none).
      const everyday = document.settings?.everydaySpending;
      if (
        everyday &&
        (everyday.accountId === undefined
          ? document.accounts.length === 0
          : !document.accounts.some((account) => account.id === everyday.accountId))
      ) {
        context.addIssue({ code: 'custom', path: ['settings', 'everydaySpending', 'accountId'], message: ACCOUNT_MESSAGE });
      }
      const problems = [
        ...accountProblems(document.accounts, [
          ['deposits', document.deposits],
          ['expenses', document.expenses],
        ]),
        ...scheduleProblems(document.deposits, document.expenses, schedules),
      ];
      const cards = new Set(document.accounts.flatMap((account) => (account.kind === 'CARD' ? [account.id] : [])));
      document.accounts.forEach((account, index) => {
        if (account.ledger)
          problems.push(
            ...ledgerProblems(account.ledger, schedules, rowIds, ['accounts', index, 'ledger'], { cards, accountId: account.id }),
          );
      });
      problems.push(
        ...transferProblems(
          document.accounts.flatMap((account, index) =>
            account.ledger ? [{ accountId: account.id, ledger: account.ledger, at: ['accounts', index, 'ledger'] }] : [],
          ),
        ),
      );
      const [problem] = problems;
      if (problem) context.addIssue({ code: 'custom', path: problem.path, message: problem.message });
    }),
  );

/**
 * POST /api/account/import: a whole export document, version 1 or 2, which replaces everything the
 * caller has. What the OpenAPI document describes; a restore checks restoreHeaderSchema first, then
 * the schema of the version it names (restoreSchemaOf), so every message names one field.
 */
export const restoreYourDataRequestSchema = z.union([restoreV1Schema, restoreV2Schema]);
export type RestoredYourData = z.output<typeof restoreYourDataRequestSchema>;

/** The schema of a document of this version. */
export function restoreSchemaOf(version: (typeof EXPORT_VERSIONS)[number]) {
  return version === 1 ? restoreV1Schema : restoreV2Schema;
}

/** DELETE /api/account: the word the user typed to confirm, so no stray call erases everything. */
export const deleteYourDataRequestSchema = z.object({ confirm: z.literal('DELETE', { error: 'Type DELETE to confirm.' }) }, OBJECT_BODY);
