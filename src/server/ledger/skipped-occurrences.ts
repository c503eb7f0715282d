/**
 * Occurrences the user deleted from their ledger. Deleting a generated row records its occurrence
 * here, so neither a change of its schedule nor an extension brings it back.
 */
import { type Occurrence, type ScheduleRef } from '../../domain/ledger.js';
import { occurrenceKey } from '../../domain/ledger-projection.js';
import { ownerColumns } from '../db/owner.js';
import type { LedgerScope } from './ledger-record.js';

export async function skipOccurrence({ db, owner }: LedgerScope, ledgerId: string, occurrence: Occurrence): Promise<void> {
  const values = {
    ledger_id: ledgerId,
    ...ownerColumns(owner),
    source_kind: occurrence.kind,
    source_id: occurrence.id,
    occurrence: occurrence.occurrence,
  };
  // Already skipped is fine: the row was deleted once; a second record would say nothing new.
  await db
    .insertInto('ledger_skipped_occurrences')
    .values(values)
    .onConflict((conflict) => conflict.columns(['ledger_id', 'source_kind', 'source_id', 'occurrence']).doNothing())
    .execute();
}

/** The skipped occurrences of the ledger (of one schedule, when named), as occurrence keys. */
export async function skippedOccurrences({ db, owner }: LedgerScope, ledgerId: string, schedule?: ScheduleRef): Promise<Set<string>> {
  let query = db
    .selectFrom('ledger_skipped_occurrences')
    .select(['source_kind', 'source_id', 'occurrence'])
    .where('ledger_id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)));
  if (schedule) query = query.where('source_kind', '=', schedule.kind).where('source_id', '=', schedule.id);
  const records = await query.execute();
  // The keys are only compared with keys of real occurrences, so the stored text needs no checking.
  return new Set(records.map((record) => occurrenceKey({ kind: record.source_kind, id: record.source_id, occurrence: record.occurrence })));
}

/** Forgets what was skipped: of the whole ledger when it is replaced, of one schedule when it is deleted. */
export async function forgetSkipped({ db, owner }: LedgerScope, ledgerId: string, schedule?: ScheduleRef): Promise<void> {
  let query = db
    .deleteFrom('ledger_skipped_occurrences')
    .where('ledger_id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)));
  if (schedule) query = query.where('source_kind', '=', schedule.kind).where('source_id', '=', schedule.id);
  await query.execute();
}
