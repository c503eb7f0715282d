/**
 * Every table a user has rows in, read, written and deleted as a whole, inside the caller's
 * transaction (a LedgerScope). Every query names the owner; the ledger's rows, skipped occurrences
 * and imported statement rows are reached through the owner's one ledger, whose keys lead them.
 */
import { checkLedgerRows, checkScheduleCount } from '../../domain/limits.js';
import { sql } from 'kysely';
import { isoDate } from '../../domain/calendar-date.js';
import { compareRows } from '../../domain/balances.js';
import { SCHEDULE_KINDS } from '../../domain/ledger.js';
import type { AccountCounts } from '../../contract/account.js';
import { newId } from '../db/ids.js';
import { DEPOSITS } from '../deposits/deposit-repository.js';
import { EXPENSES } from '../expenses/expense-repository.js';
import { ownerColumns } from '../db/owner.js';
import { storedValue } from '../db/stored-value.js';
import { findLedgerWithRows } from '../ledger/ledger-reads.js';
import type { LedgerScope } from '../ledger/ledger-record.js';
import { insertRows } from '../ledger/row-insert.js';
import { rowsOf } from '../ledger/transaction-rows.js';
import { type AccountData, compareOccurrences } from './account-data.js';

/** Rows per INSERT of schedules, skipped occurrences and imported statement rows: far below either database's parameter limit. */
const INSERT_BATCH = 500;

function batches<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += INSERT_BATCH) result.push(items.slice(start, start + INSERT_BATCH));
  return result;
}

/** Everything the owner has; the caller runs it in one snapshot (one transaction). */
export async function readAccount(scope: LedgerScope): Promise<AccountData> {
  const { db, owner } = scope;
  const deposits = await db
    .selectFrom('deposits')
    .select(DEPOSITS.columns)
    .where((eb) => eb.and(ownerColumns(owner)))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const expenses = await db
    .selectFrom('expenses')
    .select(EXPENSES.columns)
    .where((eb) => eb.and(ownerColumns(owner)))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return {
    // The repositories' own mapping, and when each was stored (the list's order breaks ties by it).
    deposits: deposits.map((record) => ({ ...DEPOSITS.toStored(record), createdAt: record.created_at })),
    expenses: expenses.map((record) => ({ ...EXPENSES.toStored(record), createdAt: record.created_at })),
    ledger: await readLedger(scope),
  };
}

async function readLedger(scope: LedgerScope): Promise<AccountData['ledger']> {
  const { db, owner } = scope;
  const found = await findLedgerWithRows(scope);
  if (!found) return null;
  const ledgerId = found.ledger.id;
  const record = await db
    .selectFrom('ledgers')
    .select('next_sequence')
    .where('id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)))
    .executeTakeFirstOrThrow();
  const skipped = await db
    .selectFrom('ledger_skipped_occurrences')
    .select(['source_kind', 'source_id', 'occurrence'])
    .where('ledger_id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
  const imported = await db
    .selectFrom('ledger_imported_rows')
    .select(['import_key', 'transaction_id', 'imported_at'])
    .where('ledger_id', '=', ledgerId)
    .where((eb) => eb.and(ownerColumns(owner)))
    .orderBy('import_key')
    .execute();
  return {
    fields: { startDate: found.ledger.startDate, endDate: found.ledger.endDate, openingBalance: found.ledger.openingBalance },
    nextSequence: record.next_sequence,
    rows: [...found.rows].sort(compareRows),
    skipped: skipped
      .map((row) => ({
        kind: storedValue(SCHEDULE_KINDS, row.source_kind, 'ledger_skipped_occurrences.source_kind'),
        id: row.source_id,
        occurrence: isoDate(row.occurrence),
      }))
      .sort(compareOccurrences),
    imported: imported.map((row) => ({ key: row.import_key, transactionId: row.transaction_id, importedAt: row.imported_at })),
  };
}

/**
 * Removes every row the owner has, in every table, and answers how many schedules and ledger rows
 * went. The caller holds the owner's lock (lockLedger) and commits or rolls back all of it.
 */
export async function deleteAccount(scope: LedgerScope): Promise<AccountCounts> {
  const { db, owner } = scope;
  const ledger = await db
    .selectFrom('ledgers')
    .select('id')
    .where((eb) => eb.and(ownerColumns(owner)))
    .executeTakeFirst();
  let transactions = 0;
  if (ledger) {
    // Named explicitly, not left to the cascade: what goes is said here, and every delete names the owner.
    await db
      .deleteFrom('ledger_imported_rows')
      .where('ledger_id', '=', ledger.id)
      .where((eb) => eb.and(ownerColumns(owner)))
      .execute();
    await db
      .deleteFrom('ledger_skipped_occurrences')
      .where('ledger_id', '=', ledger.id)
      .where((eb) => eb.and(ownerColumns(owner)))
      .execute();
    const rows = await db.deleteFrom('ledger_transactions').where(rowsOf(owner, ledger.id)).executeTakeFirst();
    transactions = Number(rows.numDeletedRows);
    await db
      .deleteFrom('ledgers')
      .where('id', '=', ledger.id)
      .where((eb) => eb.and(ownerColumns(owner)))
      .execute();
  }
  const deposits = await db
    .deleteFrom('deposits')
    .where((eb) => eb.and(ownerColumns(owner)))
    .executeTakeFirst();
  const expenses = await db
    .deleteFrom('expenses')
    .where((eb) => eb.and(ownerColumns(owner)))
    .executeTakeFirst();
  return { deposits: Number(deposits.numDeletedRows), expenses: Number(expenses.numDeletedRows), transactions };
}

/** Stores the data for the owner, who has nothing now (deleteAccount ran in the same transaction). */
export async function writeAccount(scope: LedgerScope, data: AccountData, now: Date): Promise<void> {
  const { db, owner } = scope;
  const tooMany =
    checkScheduleCount('deposit', data.deposits.length) ??
    checkScheduleCount('expense', data.expenses.length) ??
    checkLedgerRows('restore', data.ledger?.rows.length ?? 0);
  if (tooMany) throw tooMany;
  for (const batch of batches(data.deposits)) {
    await db
      .insertInto('deposits')
      .values(
        // The repository's own columns; the creation time comes from the document, the id is new (withNewIds).
        batch.map((deposit) => ({ id: deposit.id, ...ownerColumns(owner), ...DEPOSITS.toColumns(deposit), created_at: deposit.createdAt })),
      )
      .execute();
  }
  for (const batch of batches(data.expenses)) {
    await db
      .insertInto('expenses')
      .values(
        batch.map((expense) => ({ id: expense.id, ...ownerColumns(owner), ...EXPENSES.toColumns(expense), created_at: expense.createdAt })),
      )
      .execute();
  }
  const { ledger } = data;
  if (!ledger) return;
  // The ledger's own id is never shown to anyone: a new one each time.
  const ledgerId = newId();
  await db
    .insertInto('ledgers')
    .values({
      id: ledgerId,
      ...ownerColumns(owner),
      start_date: ledger.fields.startDate,
      end_date: ledger.fields.endDate,
      opening_balance_cents: ledger.fields.openingBalance,
      next_sequence: ledger.nextSequence,
      created_at: now.toISOString(),
    })
    .execute();
  await insertRows(
    scope,
    ledgerId,
    ledger.rows.map((row) => ({ ...row, source: row.source ?? undefined })),
  );
  for (const batch of batches(ledger.skipped)) {
    await db
      .insertInto('ledger_skipped_occurrences')
      .values(
        batch.map((occurrence) => ({
          ledger_id: ledgerId,
          ...ownerColumns(owner),
          source_kind: occurrence.kind,
          source_id: occurrence.id,
          occurrence: occurrence.occurrence,
        })),
      )
      .execute();
  }
  for (const batch of batches(ledger.imported)) {
    const values = batch.map(
      (row) => sql`(${ledgerId}, ${owner.issuer}, ${owner.subject}, ${row.key}, ${row.transactionId}, ${row.importedAt})`,
    );
    await sql`insert into ledger_imported_rows (ledger_id, owner_iss, owner_sub, import_key, transaction_id, imported_at)
      values ${sql.join(values)}`.execute(db);
  }
}
