/**
 * What one write did to a ledger, as an undo needs it (decision 0040): the before-image of every
 * row it changed or deleted, the version each row it kept or added was left at, the occurrences it
 * skipped or forgot, the statement rows it recorded, its end date and creation-order numbers, and the
 * bank keys it closed. A
 * LedgerStore records it as it writes; it is stored as JSON with the undo entry and read back here.
 */
import { z } from 'zod';
import type { BankKey } from '../../domain/bank-sync/bank-rows.js';
import { isIsoDate, type IsoDate } from '../../domain/calendar-date.js';
import {
  BANK_STATES,
  type Occurrence,
  SCHEDULE_KINDS,
  type ScheduleRef,
  SOURCE_KINDS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
} from '../../domain/ledger.js';
import { cents } from '../../domain/money.js';
import type { StoredLedger } from './ledger-record.js';
import type { StoredRow } from './transaction-rows.js';

/** A row the write touched: as it was before (null: the write added it), and its version after (null: deleted). */
export interface JournalRow {
  readonly id: string;
  readonly before: StoredRow | null;
  readonly after: number | null;
}

export interface LedgerJournal {
  /**
   * The account whose ledger was written to (decision 0042); undefined in entries recorded before
   * accounts, which were all the primary account's.
   */
  readonly accountId?: string | undefined;
  /** The ledger written to; null when the account had none (a schedule written before any ledger). */
  readonly ledgerId: string | null;
  /** The ledger's version once the write was done. */
  readonly version: number;
  readonly rows: readonly JournalRow[];
  /** Occurrences the write skipped (a deleted generated row) that were not skipped before. */
  readonly skippedAdded: readonly Occurrence[];
  /** Occurrences the write forgot (a deleted schedule's). */
  readonly skippedForgotten: readonly Occurrence[];
  /** Stored keys of the statement rows an import recorded. */
  readonly imports: readonly string[];
  readonly end: { readonly before: IsoDate; readonly after: IsoDate } | null;
  /** Creation-order numbers taken: [from, to). */
  readonly sequences: { readonly from: number; readonly to: number } | null;
  /**
   * After a schedule's write, every row of that schedule and its version: an undo must find exactly
   * these, or a later write (an Extend, a Pay, a New Ledger) has touched what the schedule projected.
   */
  readonly schedule: {
    readonly kind: ScheduleRef['kind'];
    readonly id: string;
    readonly rows: readonly (readonly [string, number])[];
  } | null;
  /**
   * Bank keys the write closed (a bank row deleted, decision 0084): an undo, which puts the row back
   * with its mark, opens them again. Absent when it closed none, and in entries recorded before.
   */
  readonly bankKeysClosed?: readonly BankKey[] | undefined;
}

/** Collects a LedgerJournal as a LedgerStore writes; lives as long as one transaction. */
export class JournalRecorder {
  private readonly rows = new Map<string, { before: StoredRow | null; after: number | null }>();
  private readonly skippedAdded: Occurrence[] = [];
  private readonly skippedForgotten: Occurrence[] = [];
  private readonly imports: string[] = [];
  private end: LedgerJournal['end'] = null;
  private sequences: { from: number; to: number } | null = null;
  private schedule: LedgerJournal['schedule'] = null;
  private readonly bankKeysClosed: BankKey[] = [];

  inserted(rows: readonly StoredRow[]): void {
    for (const row of rows) this.rows.set(row.id, { before: null, after: row.version });
  }

  /** A row changed (to version `after`) or deleted (null); a row touched twice keeps the image from before the first. */
  changed(before: StoredRow, after: number | null): void {
    const known = this.rows.get(before.id);
    this.rows.set(before.id, { before: known ? known.before : before, after });
  }

  skipped(occurrence: Occurrence): void {
    this.skippedAdded.push({ kind: occurrence.kind, id: occurrence.id, occurrence: occurrence.occurrence });
  }

  forgot(occurrences: readonly Occurrence[]): void {
    for (const occurrence of occurrences) this.skippedForgotten.push(occurrence);
  }

  recorded(keys: readonly string[]): void {
    for (const key of keys) this.imports.push(key);
  }

  ended(before: IsoDate, after: IsoDate): void {
    this.end = { before: this.end?.before ?? before, after };
  }

  tookSequences(from: number, count: number): void {
    this.sequences = { from: this.sequences?.from ?? from, to: from + count };
  }

  scheduleRows(schedule: ScheduleRef, rows: readonly (readonly [string, number])[]): void {
    this.schedule = { kind: schedule.kind, id: schedule.id, rows };
  }

  closedBankKey(key: BankKey): void {
    this.bankKeysClosed.push({ account: key.account, transaction: key.transaction });
  }

  /** True while the write changed nothing in the ledger. */
  get isEmpty(): boolean {
    return (
      this.rows.size === 0 &&
      this.skippedAdded.length === 0 &&
      this.skippedForgotten.length === 0 &&
      this.imports.length === 0 &&
      this.end === null &&
      this.bankKeysClosed.length === 0
    );
  }

  journal(accountId: string, ledger: StoredLedger | undefined): LedgerJournal {
    const rows: JournalRow[] = [];
    for (const [id, { before, after }] of this.rows) rows.push({ id, before, after });
    return {
      accountId,
      ledgerId: ledger?.id ?? null,
      version: ledger?.version ?? 0,
      rows,
      skippedAdded: this.skippedAdded,
      skippedForgotten: this.skippedForgotten,
      imports: this.imports,
      end: this.end,
      sequences: this.sequences,
      schedule: this.schedule,
      ...(this.bankKeysClosed.length > 0 && { bankKeysClosed: this.bankKeysClosed }),
    };
  }
}

// Reading a stored journal back. It is our own JSON, so a value that does not fit is a server fault.

const dateSchema = z.custom<IsoDate>((value) => typeof value === 'string' && isIsoDate(value), 'not a date');
const wholeSchema = z.number().int();
const occurrenceSchema = z.object({ kind: z.enum(SOURCE_KINDS), id: z.string(), occurrence: dateSchema });
const bankKeySchema = z.object({ account: z.string(), transaction: z.string() });
const rowSchema = z.object({
  id: z.string(),
  sequence: wholeSchema,
  date: dateSchema,
  name: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  amount: wholeSchema.transform(cents),
  status: z.enum(TRANSACTION_STATUSES),
  version: wholeSchema,
  source: z.nullable(occurrenceSchema.extend({ edited: z.boolean() })),
  // Absent in entries recorded before transfers (decision 0043).
  transfer: z.optional(z.nullable(z.object({ id: z.string(), accountId: z.string() }))),
  // Absent in entries recorded before bank sync (decision 0084).
  bank: z.optional(
    z.nullable(
      z.object({
        key: bankKeySchema,
        state: z.enum(BANK_STATES),
        missingSince: z.nullable(dateSchema),
      }),
    ),
  ),
});

const journalRowSchema = z.object({ id: z.string(), before: z.nullable(rowSchema), after: z.nullable(wholeSchema) });

const journalSchema = z.object({
  accountId: z.optional(z.string()),
  ledgerId: z.nullable(z.string()),
  version: wholeSchema,
  rows: z.array(journalRowSchema),
  skippedAdded: z.array(occurrenceSchema),
  skippedForgotten: z.array(occurrenceSchema),
  imports: z.array(z.string()),
  end: z.nullable(z.object({ before: dateSchema, after: dateSchema })),
  sequences: z.nullable(z.object({ from: wholeSchema, to: wholeSchema })),
  schedule: z.nullable(z.object({ kind: z.enum(SCHEDULE_KINDS), id: z.string(), rows: z.array(z.tuple([z.string(), wholeSchema])) })),
  bankKeysClosed: z.optional(z.array(bankKeySchema)),
});

/** A journal as stored (JSON.parse of what JSON.stringify wrote), checked. */
function decodeLedgerJournal(value: unknown): LedgerJournal {
  const parsed = journalSchema.safeParse(value);
  if (!parsed.success) throw new Error(`unexpected undo journal in the database: ${parsed.error.message}`);
  return parsed.data satisfies LedgerJournal;
}

/** Journal rows checked per turn of the event loop: an Extend's journal holds 20,000 (decision 0072). */
const DECODE_BATCH = 1000;

/**
 * decodeLedgerJournal, its rows a thousand at a time with a turn of the event loop between, so a
 * big journal holds no other request up for long (issue 34 item 5).
 */
export async function decodeLedgerJournalInTurns(value: unknown): Promise<LedgerJournal> {
  const rows: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, 'rows') : undefined;
  if (!Array.isArray(rows) || rows.length <= DECODE_BATCH) return decodeLedgerJournal(value);
  const rest = decodeLedgerJournal({ ...(value as object), rows: [] });
  const decoded: JournalRow[] = [];
  for (let start = 0; start < rows.length; start += DECODE_BATCH) {
    const parsed = z.array(journalRowSchema).safeParse(rows.slice(start, start + DECODE_BATCH));
    if (!parsed.success) throw new Error(`unexpected undo journal in the database: ${parsed.error.message}`);
    for (const row of parsed.data) decoded.push(row);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { ...rest, rows: decoded };
}
