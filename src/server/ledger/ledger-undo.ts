/**
 * Undoing one write to a ledger (decision 0040): its journal says what it touched. The undo first
 * checks that all of it is still exactly as the write left it (same ledger, each row at the
 * version the write left it at, deleted rows still gone, the end date, the skipped occurrences,
 * a schedule's rows), then puts back the before-images. A row is put back by deleting it and
 * inserting its before-image (same id, creation order, version and `edited` flag), so rows of
 * every kind go back in two batched statements. Anything that changed since is a ConflictError,
 * thrown inside the caller's transaction, which then stores nothing.
 */
import { ConflictError } from '../../domain/errors.js';
import type { ScheduleRef } from '../../domain/ledger.js';
import { occurrenceKey } from '../../domain/ledger-projection.js';
import { forgetImportKeys } from './imported-rows.js';
import type { JournalRow, LedgerJournal } from './ledger-journal.js';
import { listRows, listRowsBetween, listScheduleRows } from './ledger-reads.js';
import {
  type LedgerScope,
  readLedgerOutsideLock,
  readReplacedAt,
  returnSequences,
  setLedgerEnd,
  type StoredLedger,
} from './ledger-record.js';
import { reopenBankKeys } from './closed-bank-key-rows.js';
import { insertRowsInSlices } from './row-insert.js';
import { forgetOccurrences, restoreSkipped, skippedOccurrences } from './skipped-occurrences.js';
import { deleteRowRuns, deleteRows, type StoredRow } from './transaction-rows.js';

export const UNDO_CONFLICT = 'This can no longer be undone: something changed since.';

function conflict(): ConflictError {
  return new ConflictError(UNDO_CONFLICT);
}

/** Taken rows in this many runs of creation order or fewer go by range (deleteRowRuns); more, by id. */
const MAX_RUNS = 20;

/** Rows or journal rows looked at per turn of the event loop: a few milliseconds each (decision 0072). */
const CHECK_BATCH = 2000;

/** Lets other requests in every CHECK_BATCH steps of a loop over a big ledger. */
async function turnAfter(step: number): Promise<void> {
  if ((step + 1) % CHECK_BATCH === 0) await yieldToOthers();
}

/** The taken rows as runs: each the ledger's rows between two sequences, all of them taken. `rows` in creation order. */
async function takenRuns(rows: readonly StoredRow[], taken: readonly StoredRow[]): Promise<StoredRow[][]> {
  const takenIds = new Set<string>();
  for (let index = 0; index < taken.length; index += 1) {
    takenIds.add((taken[index] as StoredRow).id);
    await turnAfter(index);
  }
  const runs: StoredRow[][] = [];
  let run: StoredRow[] = [];
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index] as StoredRow;
    if (takenIds.has(row.id)) {
      run.push(row);
    } else if (run.length > 0) {
      runs.push(run);
      run = [];
    }
    await turnAfter(index);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** Refuses unless the rows of the schedule are exactly those the write left, each at its version. */
function checkScheduleRows(rows: readonly StoredRow[], schedule: NonNullable<LedgerJournal['schedule']>): void {
  const expected = new Map(schedule.rows);
  let found = 0;
  for (const row of rows) {
    if (row.source?.kind !== schedule.kind || row.source.id !== schedule.id) continue;
    if (expected.get(row.id) !== row.version) throw conflict();
    found += 1;
  }
  if (found !== expected.size) throw conflict();
}

/** What a journal takes and puts back, from the ledger's rows as they stand: refused unless all it wrote is as it left it. */
interface CheckedJournal {
  readonly taken: readonly StoredRow[];
  readonly putBack: readonly StoredRow[];
  /** The taken rows as runs of creation order (takenRuns). */
  readonly runs: readonly (readonly StoredRow[])[];
}

/**
 * Checks the journal against every row of the ledger (in creation order) and its end date: each row
 * the write kept or added still at the version it left it at, each it deleted still gone, a
 * schedule's rows exactly as it left them, no row past an extension's old end but the rows it
 * added. In turns of the event loop: an Extend's journal and ledger hold 20,000 rows each.
 */
async function checkJournal(rows: readonly StoredRow[], endDate: string, journal: LedgerJournal): Promise<CheckedJournal> {
  const current = new Map<string, StoredRow>();
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index] as StoredRow;
    current.set(row.id, row);
    await turnAfter(index);
  }
  const taken: StoredRow[] = [];
  const putBack: StoredRow[] = [];
  const added = new Set<string>();
  for (let index = 0; index < journal.rows.length; index += 1) {
    const { id, before, after } = journal.rows[index] as JournalRow;
    const row = current.get(id);
    if (after === null ? row !== undefined : row?.version !== after) throw conflict();
    if (after !== null && row !== undefined) taken.push(row);
    if (before) putBack.push(before);
    else if (after !== null) added.add(id);
    await turnAfter(index);
  }
  if (journal.schedule) checkScheduleRows(rows, journal.schedule);
  const { end } = journal;
  if (end) {
    if (endDate !== end.after) throw conflict();
    // Taking the end back must leave no row past it: only the rows the extension added may lie there.
    if (rows.some((row) => row.date > end.before && !added.has(row.id))) throw conflict();
  }
  return { taken, putBack, runs: await takenRuns(rows, taken) };
}

/** Rows per statement when an undo reads a ledger before its lock: a few milliseconds each. */
const READ_BATCH = 2000;

/** Taken rows per DELETE: the event loop turns between them. */
const DELETE_BATCH = 2000;

function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A journal checked before the lock (decision 0072) against the ledger's rows at one version of the
 * ledger. Every write that changes a row moves its ledger's version in the same transaction
 * (LedgerStore.settleVersion, run by the unit of work for every store that wrote), so a ledger
 * still at that version under the lock holds exactly the rows checked here.
 */
export interface CheckedBeforeLock extends CheckedJournal {
  readonly ledgerId: string;
  readonly version: number;
}

/**
 * Checks the journal before the undo takes its lock, reading the ledger's rows a few thousand at a
 * time with a turn of the event loop between: a refusal here changes nothing. Answers undefined when
 * there is nothing to read (no ledger written), or when the ledger's version moved while its rows
 * were read, so they were not one snapshot: the check is then made again under the lock.
 * `scope`: the app's database outside any transaction.
 */
export async function checkBeforeLock(scope: LedgerScope, journal: LedgerJournal): Promise<CheckedBeforeLock | undefined> {
  if (journal.ledgerId === null) return undefined;
  const first = await readLedgerOutsideLock(scope, journal.ledgerId);
  // Gone, or replaced since (by a New Ledger): so it stays, whatever happens next.
  if (!first || first.replacedAt > journal.version) throw conflict();
  const rows: StoredRow[] = [];
  for (let from = 1; from < first.nextSequence; from += READ_BATCH) {
    // Each part in creation order, so all of them are.
    const part = (await listRowsBetween(scope, first.ledger.id, from, from + READ_BATCH)).sort((a, b) => a.sequence - b.sequence);
    for (const row of part) rows.push(row);
    await yieldToOthers();
  }
  const last = await readLedgerOutsideLock(scope, journal.ledgerId);
  if (!last || last.ledger.version !== first.ledger.version) return undefined;
  return { ...(await checkJournal(rows, first.ledger.endDate, journal)), ledgerId: first.ledger.id, version: first.ledger.version };
}

/**
 * Puts the ledger back as it was before the write the journal recorded, or refuses. `ledger` is the
 * owner's ledger as locked now. `checked`: the journal as checkBeforeLock found it; when the ledger
 * is still at that version, its rows are not read again here. Answers whether the ledger changed
 * (so its version moves on).
 */
export async function undoLedgerJournal(
  scope: LedgerScope,
  ledger: StoredLedger | undefined,
  journal: LedgerJournal,
  checked: CheckedBeforeLock | undefined,
  /** The unit of work's row limit (ledger-write.ts): asked before any row is put back. */
  reserveRows: (added: number, removed: number) => Promise<void>,
): Promise<boolean> {
  if (journal.ledgerId === null) {
    // The write found no ledger and changed none; a ledger made since must not hold rows it projected from the schedule.
    if (ledger && journal.schedule) {
      const schedule: ScheduleRef = { kind: journal.schedule.kind, id: journal.schedule.id };
      checkScheduleRows(await listScheduleRows(scope, ledger.id, schedule), journal.schedule);
    }
    return false;
  }
  // A restore makes a new ledger; a New Ledger keeps the id but replaces every row: neither is the ledger written to.
  if (!ledger || ledger.id !== journal.ledgerId || (await readReplacedAt(scope, ledger.id)) > journal.version) throw conflict();

  const { taken, putBack, runs } =
    checked && checked.ledgerId === ledger.id && checked.version === ledger.version
      ? checked
      : await checkJournal(
          (await listRows(scope, ledger.id)).sort((a, b) => a.sequence - b.sequence),
          ledger.endDate,
          journal,
        );
  // Skipped occurrences are no rows: a write may skip or forget one without moving the version, so they are checked here.
  if (journal.skippedAdded.length > 0 || journal.skippedForgotten.length > 0) {
    const skipped = await skippedOccurrences(scope, ledger.id);
    const stillSkipped = journal.skippedAdded.every((occurrence) => skipped.has(occurrenceKey(occurrence)));
    if (!stillSkipped || journal.skippedForgotten.some((occurrence) => skipped.has(occurrenceKey(occurrence)))) throw conflict();
  }
  await reserveRows(putBack.length, taken.length);

  if (runs.length <= MAX_RUNS) {
    // Each run in parts of DELETE_BATCH rows: a part of a run is a run too.
    const parts: StoredRow[][] = [];
    for (const run of runs)
      for (let start = 0; start < run.length; start += DELETE_BATCH) parts.push(run.slice(start, start + DELETE_BATCH));
    await deleteRowRuns(scope, ledger.id, parts);
  } else {
    await deleteRows(scope, ledger.id, taken);
  }
  await insertRowsInSlices(scope, ledger.id, putBack, (row) => ({ ...row, source: row.source ?? undefined }));
  // The rows put back carry their bank marks: the keys their delete closed open again.
  if (journal.bankKeysClosed) await reopenBankKeys(scope, ledger.id, journal.bankKeysClosed);
  await forgetOccurrences(scope, ledger.id, journal.skippedAdded);
  await restoreSkipped(scope, ledger.id, journal.skippedForgotten);
  // Only a replaced ledger forgets what it imported, and that was refused above: a shortfall is a fault, refused all the same.
  if ((await forgetImportKeys(scope, ledger.id, journal.imports)) !== journal.imports.length) throw conflict();
  const { end } = journal;
  if (end) await setLedgerEnd(scope, ledger.id, end.before);
  if (journal.sequences) await returnSequences(scope, ledger.id, journal.sequences);
  return taken.length > 0 || putBack.length > 0 || journal.skippedAdded.length > 0 || journal.skippedForgotten.length > 0 || end !== null;
}
