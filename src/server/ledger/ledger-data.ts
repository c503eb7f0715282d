/**
 * The owner's ledger as a whole, in every one of its five tables: read for an export, deleted, and
 * stored again by a restore. Each table's own module holds its queries; this only puts them in order.
 */
import { compareRows } from '../../domain/balances.js';
import type { BankMark, ClosedBankKey } from '../../domain/bank-sync/bank-rows.js';
import type { Occurrence } from '../../domain/ledger.js';
import type { SourcedRow } from '../../domain/ledger-projection.js';
import { forgetClosedBankKeys, listClosedBankKeys, restoreClosedBankKeys } from './closed-bank-key-rows.js';
import { forgetImports, type ImportedStatementRow, listImports, restoreImports } from './imported-rows.js';
import { findLedgerWithRows } from './ledger-reads.js';
import { deleteLedger, type LedgerFields, type LedgerScope, readNextSequence, saveLedger, type StoredLedger } from './ledger-record.js';
import { insertRowsInSlices } from './row-insert.js';
import { forgetSkipped, listSkipped, restoreSkipped } from './skipped-occurrences.js';
import { deleteAllRows } from './transaction-rows.js';

export interface LedgerData {
  readonly fields: LedgerFields;
  readonly nextSequence: number;
  /** In row order, each with its bank mark (decision 0081), if any. */
  readonly rows: readonly (SourcedRow & { readonly bank?: BankMark | null })[];
  readonly skipped: readonly Occurrence[];
  readonly imported: readonly ImportedStatementRow[];
  /** The bank keys that never come back (decision 0084). */
  readonly closedBankKeys: readonly ClosedBankKey[];
}

/** The account's ledger, or null while it has none; the caller reads it in one snapshot (one transaction). */
export async function readLedgerData(scope: LedgerScope, accountId: string): Promise<LedgerData | null> {
  const found = await findLedgerWithRows(scope, accountId);
  if (!found) return null;
  const { ledger } = found;
  return {
    fields: { startDate: ledger.startDate, endDate: ledger.endDate, openingBalance: ledger.openingBalance },
    nextSequence: await readNextSequence(scope, ledger.id),
    rows: [...found.rows].sort(compareRows),
    skipped: await listSkipped(scope, ledger.id),
    imported: await listImports(scope, ledger.id),
    closedBankKeys: await listClosedBankKeys(scope, ledger.id),
  };
}

/** Removes the ledger and everything in it, under the owner's lock; answers how many rows went. */
export async function deleteLedgerData(scope: LedgerScope, ledgerId: string): Promise<number> {
  // Named explicitly, not left to the cascade: what goes is said here, and every delete names the owner.
  await forgetImports(scope, ledgerId);
  await forgetSkipped(scope, ledgerId);
  await forgetClosedBankKeys(scope, ledgerId);
  const rows = await deleteAllRows(scope, ledgerId);
  await deleteLedger(scope, ledgerId);
  return rows;
}

/** Stores a restored ledger for the account, which has none now (deleteLedgerData ran under the same lock). */
export async function writeLedgerData(scope: LedgerScope, accountId: string, data: LedgerData, now: Date): Promise<StoredLedger> {
  // With no ledger to meet, saving inserts one, under an id never shown to anyone: a new one each time.
  const ledger = await saveLedger(scope, accountId, { ...data.fields, nextSequence: data.nextSequence }, now);
  const { id } = ledger;
  // In slices: on PostgreSQL a restore stores its rows here, and other users' requests go on between them (decision 0072).
  await insertRowsInSlices(scope, id, data.rows, (row) => ({ ...row, source: row.source ?? undefined }));
  await restoreSkipped(scope, id, data.skipped);
  await restoreImports(scope, id, data.imported);
  await restoreClosedBankKeys(scope, id, data.closedBankKeys);
  return ledger;
}
