/**
 * Occurrences the user deleted from their ledger. Deleting a generated row records its occurrence
 * here, so neither a change of its schedule nor an extension brings it back.
 */
import { isoDate } from '../../domain/calendar-date.js';
import { type Occurrence, SOURCE_KINDS, type SourceRef } from '../../domain/ledger.js';
import { occurrenceKey } from '../../domain/ledger-projection.js';
import { ownerColumns } from '../db/owner.js';
import { storedValue } from '../db/stored-value.js';
import { byCodeUnits } from '../../domain/names.js';
import type { LedgerScope } from './ledger-record.js';

/** Records per INSERT of a restore: 500 of 6 values each, far below either database's parameter limit. */
const RESTORE_BATCH = 500;

/** The stored record of a skipped occurrence. */
function skippedRecord({ owner }: LedgerScope, ledgerId: string, occurrence: Occurrence) {
  return {
    ledger_id: ledgerId,
    ...ownerColumns(owner),
    source_kind: occurrence.kind,
    source_id: occurrence.id,
    occurrence: occurrence.occurrence,
  };
}

/** False when it was skipped already: an undo of this delete must then leave it skipped. */
export async function skipOccurrence(scope: LedgerScope, ledgerId: string, occurrence: Occurrence): Promise<boolean> {
  // Already skipped is fine: the row was deleted once; a second record would say nothing new.
  const result = await scope.db
    .insertInto('ledger_skipped_occurrences')
    .values(skippedRecord(scope, ledgerId, occurrence))
    .onConflict((conflict) => conflict.columns(['ledger_id', 'source_kind', 'source_id', 'occurrence']).doNothing())
    .executeTakeFirst();
  return result.numInsertedOrUpdatedRows === 1n;
}

/** The skipped occurrences of the ledger, of one schedule when named. */
function skippedQuery({ db, owner }: LedgerScope, ledgerId: string, schedule?: SourceRef) {
  const query = db
    .selectFrom('ledger_skipped_occurrences')
    .select(['source_kind', 'source_id', 'occurrence'])
    .where('ledger_id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)));
  return schedule ? query.where('source_kind', '=', schedule.kind).where('source_id', '=', schedule.id) : query;
}

/** The skipped occurrences of the ledger (of one schedule, when named), as occurrence keys. */
export async function skippedOccurrences(scope: LedgerScope, ledgerId: string, schedule?: SourceRef): Promise<Set<string>> {
  const records = await skippedQuery(scope, ledgerId, schedule).execute();
  // The keys are only compared with keys of real occurrences, so the stored text needs no checking.
  return new Set(records.map((record) => occurrenceKey({ kind: record.source_kind, id: record.source_id, occurrence: record.occurrence })));
}

/** Occurrences in one fixed order, so two exports of the same data are the same text. */
function compareOccurrences(a: Occurrence, b: Occurrence): number {
  return byCodeUnits(a.kind, b.kind) || byCodeUnits(a.id, b.id) || byCodeUnits(a.occurrence, b.occurrence);
}

/** Every skipped occurrence of the ledger, checked and in one fixed order: what an export writes. */
export async function listSkipped(scope: LedgerScope, ledgerId: string): Promise<Occurrence[]> {
  const records = await skippedQuery(scope, ledgerId).execute();
  return records
    .map((record) => ({
      kind: storedValue(SOURCE_KINDS, record.source_kind, 'ledger_skipped_occurrences.source_kind'),
      id: record.source_id,
      occurrence: isoDate(record.occurrence),
    }))
    .sort(compareOccurrences);
}

/** Stores the skipped occurrences of a restored ledger, which has none yet. */
export async function restoreSkipped(scope: LedgerScope, ledgerId: string, occurrences: readonly Occurrence[]): Promise<void> {
  for (let start = 0; start < occurrences.length; start += RESTORE_BATCH) {
    const batch = occurrences.slice(start, start + RESTORE_BATCH);
    await scope.db
      .insertInto('ledger_skipped_occurrences')
      .values(batch.map((occurrence) => skippedRecord(scope, ledgerId, occurrence)))
      .execute();
  }
}

/** Occurrences per DELETE of an undo: 3 values each, far below either database's parameter limit. */
const FORGET_BATCH = 500;

/** Forgets exactly these occurrences (an undone delete skipped them); answers how many were still skipped. */
export async function forgetOccurrences({ db, owner }: LedgerScope, ledgerId: string, occurrences: readonly Occurrence[]): Promise<number> {
  let forgotten = 0;
  for (let start = 0; start < occurrences.length; start += FORGET_BATCH) {
    const batch = occurrences.slice(start, start + FORGET_BATCH);
    const result = await db
      .deleteFrom('ledger_skipped_occurrences')
      .where('ledger_id', '=', ledgerId)
      .where((eb) => eb.and(ownerColumns(owner)))
      .where((eb) =>
        eb(
          eb.refTuple('source_kind', 'source_id', 'occurrence'),
          'in',
          batch.map((occurrence) => eb.tuple(occurrence.kind, occurrence.id, occurrence.occurrence)),
        ),
      )
      .executeTakeFirst();
    forgotten += Number(result.numDeletedRows);
  }
  return forgotten;
}

/** Forgets a deleted schedule's skipped occurrences, and answers them: an undo of the delete skips them again. */
export async function forgetScheduleSkipped({ db, owner }: LedgerScope, ledgerId: string, schedule: SourceRef): Promise<Occurrence[]> {
  const records = await db
    .deleteFrom('ledger_skipped_occurrences')
    .where('ledger_id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)))
    .where('source_kind', '=', schedule.kind)
    .where('source_id', '=', schedule.id)
    .returning('occurrence')
    .execute();
  return records.map((record) => ({ kind: schedule.kind, id: schedule.id, occurrence: isoDate(record.occurrence) }));
}

/** Forgets what was skipped: of the whole ledger when it is replaced, of one schedule when it is deleted. */
export async function forgetSkipped({ db, owner }: LedgerScope, ledgerId: string, schedule?: SourceRef): Promise<void> {
  let query = db
    .deleteFrom('ledger_skipped_occurrences')
    .where('ledger_id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)));
  if (schedule) query = query.where('source_kind', '=', schedule.kind).where('source_id', '=', schedule.id);
  await query.execute();
}
