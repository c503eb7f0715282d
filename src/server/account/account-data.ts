/**
 * Everything one user owns, in server units (cents, calendar dates), as read for an export and as
 * written by a restore: the same shape both ways, so a restore stores what was read, under new ids.
 */
import type { StoredDeposit } from '../deposits/deposit-repository.js';
import type { StoredExpense } from '../expenses/expense-repository.js';
import { compareRows } from '../../domain/balances.js';
import type { LedgerData } from '../ledger/index.js';
import { byCodeUnits, type WithCreatedAt } from '../schedules/schedule-repository.js';
import { newId } from '../db/ids.js';

export interface AccountData {
  readonly deposits: readonly WithCreatedAt<StoredDeposit>[];
  readonly expenses: readonly WithCreatedAt<StoredExpense>[];
  readonly ledger: LedgerData | null;
}

/**
 * New ids for old ones, in the same code-unit order: lists sort by creation time and then by id,
 * so ties keep their order under new ids, and nothing but the ids differs from the original.
 */
function orderPreservingIds(oldIds: Iterable<string>): Map<string, string> {
  const sortedOld = [...new Set(oldIds)].sort(byCodeUnits);
  const fresh = sortedOld.map(() => newId()).sort(byCodeUnits);
  return new Map(sortedOld.map((id, index) => [id, fresh[index] as string]));
}

/** The id an old id maps to; every id the data holds is in the map by construction. */
function mapped(ids: ReadonlyMap<string, string>, id: string): string {
  const found = ids.get(id);
  if (found === undefined) throw new Error('an id of the restored data was left out of its id map');
  return found;
}

/**
 * The same data under new ids for every schedule and row, with every reference (a row's source, a
 * skipped occurrence, an imported statement row's ledger row) following its target. Every restore
 * stores its rows this way: ids are primary keys across all users, so keeping a file's ids when
 * free would make the answer (or its timing) tell whether another user holds them.
 */
export function withNewIds(data: AccountData): AccountData {
  const { ledger } = data;
  const schedules = orderPreservingIds([
    ...data.deposits.map((deposit) => deposit.id),
    ...data.expenses.map((expense) => expense.id),
    // Sources of deleted schedules get new ids too: they must not point at the original owner's ids.
    ...(ledger?.rows.flatMap((row) => (row.source ? [row.source.id] : [])) ?? []),
  ]);
  const rows = orderPreservingIds([
    ...(ledger?.rows.map((row) => row.id) ?? []),
    // A statement row's ledger row may be gone (decision 0021 keeps the record); it gets an id of its own.
    ...(ledger?.imported.map((row) => row.transactionId) ?? []),
  ]);
  return {
    deposits: data.deposits.map((deposit) => ({ ...deposit, id: mapped(schedules, deposit.id) })),
    expenses: data.expenses.map((expense) => ({ ...expense, id: mapped(schedules, expense.id) })),
    ledger: ledger && {
      ...ledger,
      rows: ledger.rows.map((row) => ({
        ...row,
        id: mapped(rows, row.id),
        source: row.source && { ...row.source, id: mapped(schedules, row.source.id) },
      })),
      skipped: ledger.skipped.map((occurrence) => ({ ...occurrence, id: mapped(schedules, occurrence.id) })),
      imported: ledger.imported.map((row) => ({ ...row, transactionId: mapped(rows, row.transactionId) })),
    },
  };
}

/**
 * The largest next creation-order number a restored ledger keeps as its file says: every add takes
 * the next one, and from here more than a billion fit before PostgreSQL's integer column
 * (2,147,483,647) runs out. What this server writes stays far below it, so its own files keep their
 * numbers and a round trip answers byte for byte as before, ids aside.
 */
export const MAX_KEPT_NEXT_SEQUENCE = 1_000_000_000;

/**
 * The ledger with creation-order numbers the database can go on counting from. Past
 * MAX_KEPT_NEXT_SEQUENCE the rows are numbered 1 to N in the order of their file numbers, and the
 * next is N + 1: sequence only breaks ties of row order, so the order and every balance stay as
 * they were. The schema has made the file's numbers whole, distinct and below its next one.
 */
export function withCountableSequences(data: AccountData): AccountData {
  const { ledger } = data;
  if (!ledger || ledger.nextSequence <= MAX_KEPT_NEXT_SEQUENCE) return data;
  const rows = [...ledger.rows]
    .sort((a, b) => a.sequence - b.sequence)
    .map((row, index) => ({ ...row, sequence: index + 1 }))
    .sort(compareRows);
  return { ...data, ledger: { ...ledger, nextSequence: rows.length + 1, rows } };
}
