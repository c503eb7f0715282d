/**
 * The ledger's face (convention 12, decision 0033): the one file of this folder that code outside
 * it imports (eslint.config.js holds it to that; routes.ts is the other, for the app to register).
 * Reads go through readLedger; every write is one unit of work run by LedgerWrites (ledger-write.ts),
 * which checks the row limit, runs the followers, moves the versions and records the undo entry.
 * Each table's SQL stays in the module beside it that owns the table.
 */
export type { AccountSchedules } from './account-schedules.js';
export { type ImportedRow, importedIds, importKeys } from './imported-rows.js';
export { type LedgerData, readLedgerData } from './ledger-data.js';
export type { LedgerWithRows } from './ledger-reads.js';
export type { RestorableLedger } from './ledger-staging.js';
export type { LedgerFields, StoredLedger } from './ledger-record.js';
export { LedgerService } from './ledger-service.js';
export type { LedgerText } from './big-create.js';
export { checkExpectedVersion, versionOf } from './ledger-version.js';
export { UNDO_CONFLICT } from './ledger-undo.js';
export {
  type AccountChoice,
  ledgerScope,
  type LedgerStore,
  NO_ACCOUNT,
  NO_LEDGER,
  readAccount,
  readAccountLedger,
  readLedger,
} from './ledger-store.js';
export { type LedgerWrite, LedgerWrites, type TodayReader, type UndoableWrite, type WritePlan } from './ledger-write.js';
export { changeSchedule, projectMoved, type ScheduleWrite } from './schedule-projection.js';
export {
  type AccountFields,
  type AccountWithBalances,
  countAccounts,
  deleteAccountRecord,
  deleteAllAccounts,
  insertAccount,
  listAccounts,
  listAccountsWithBalances,
  makePrimary,
  movePayFrom,
  renameAccount,
  setCardSettings,
  type StoredAccount,
} from './account-record.js';
export { forgetCard } from './card-payment-writes.js';
export { readBankLedger, writeBankPlan } from './bank-sync-writes.js';
export type { ClearedMatch, StoredRow } from './transaction-rows.js';
export { deleteUndoEntries, type UndoKind, undoJournalLength, undoTokenKey } from './undo-entries.js';
export { type UndoingMember, undoWrite } from './undo-write.js';
export { ledgerAnswer } from './ledger-payloads.js';
export { everydayWeeklyOf, type OutlookReader } from './outlook.js';
export { forecastRows } from './card-everyday-reads.js';
export { expectedVersionOf, sendLedgerText, tagLedgerVersion } from './ledger-version-header.js';
