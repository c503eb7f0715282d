/** The export document between dollars on the wire and cents inside: the only place the two meet. */
import { type AccountExport, EXPORT_FORMAT, EXPORT_VERSION } from '../../contract/account.js';
import type { RestoredAccount } from '../../contract/account-requests.js';
import type { ScheduleKind } from '../../domain/ledger.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import { byCodeUnits } from '../schedules/schedule-repository.js';
import type { AccountData } from './account-data.js';

/** The document for what the owner has; `exportedAt` is the only part that is not the data. */
export function exportDocument(data: AccountData, exportedAt: Date): AccountExport {
  const { ledger } = data;
  const schedules = new Set([
    ...data.deposits.map((deposit) => `deposit ${deposit.id}`),
    ...data.expenses.map((expense) => `expense ${expense.id}`),
  ]);
  const removed = new Map<string, { kind: ScheduleKind; id: string }>();
  for (const row of ledger?.rows ?? []) {
    const key = row.source && `${row.source.kind} ${row.source.id}`;
    if (row.source && key && !schedules.has(key)) removed.set(key, { kind: row.source.kind, id: row.source.id });
  }
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    deposits: data.deposits.map(({ amount, ...deposit }) => ({ ...deposit, amount: centsToDollars(amount) })),
    expenses: data.expenses.map(({ amount, ...expense }) => ({ ...expense, amount: centsToDollars(amount) })),
    ledger: ledger && {
      startDate: ledger.fields.startDate,
      endDate: ledger.fields.endDate,
      openingBalance: centsToDollars(ledger.fields.openingBalance),
      nextSequence: ledger.nextSequence,
      transactions: ledger.rows.map((row) => ({
        id: row.id,
        sequence: row.sequence,
        date: row.date,
        name: row.name,
        type: row.type,
        amount: centsToDollars(row.amount),
        status: row.status,
        source: row.source,
      })),
      skippedOccurrences: ledger.skipped.map((occurrence) => ({
        kind: occurrence.kind,
        id: occurrence.id,
        occurrence: occurrence.occurrence,
      })),
      importedStatementRows: ledger.imported.map((row) => ({ key: row.key, transactionId: row.transactionId, importedAt: row.importedAt })),
      removedSchedules: [...removed.values()].sort((a, b) => byCodeUnits(a.kind, b.kind) || byCodeUnits(a.id, b.id)),
    },
  };
}

/** A checked document as data to store; the schema has already refused anything it cannot be. */
export function restoredData(document: RestoredAccount): AccountData {
  const { ledger } = document;
  return {
    deposits: document.deposits.map((deposit) => ({
      id: deposit.id,
      createdAt: deposit.createdAt,
      name: deposit.name,
      type: deposit.type,
      day: deposit.day,
      amount: dollarsToCents(deposit.amount),
      startDate: deposit.startDate,
      frequency: deposit.frequency,
    })),
    expenses: document.expenses.map((expense) => ({
      id: expense.id,
      createdAt: expense.createdAt,
      name: expense.name,
      type: expense.type,
      frequency: expense.frequency,
      day: expense.day,
      amount: dollarsToCents(expense.amount),
      startDate: expense.startDate,
      endDate: expense.endDate,
    })),
    ledger: ledger && {
      fields: { startDate: ledger.startDate, endDate: ledger.endDate, openingBalance: dollarsToCents(ledger.openingBalance) },
      nextSequence: ledger.nextSequence,
      rows: ledger.transactions.map((row) => ({
        id: row.id,
        sequence: row.sequence,
        date: row.date,
        name: row.name,
        type: row.type,
        amount: dollarsToCents(row.amount),
        status: row.status,
        source: row.source,
      })),
      skipped: ledger.skippedOccurrences,
      imported: ledger.importedStatementRows,
    },
  };
}
