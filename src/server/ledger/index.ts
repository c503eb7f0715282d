/**
 * The ledger's face (convention 12, decision 0033): the one file of this folder that code outside
 * it imports (eslint.config.js holds it to that; routes.ts is the other, for the app to register).
 * Reads go through readLedger, writes through LedgerService or a LedgerStore under withLedgerLock,
 * and each table's SQL stays in the module beside it that owns the table.
 */
export { type ImportedRow, importedIds, importKeys, type ImportedStatementRow } from './imported-rows.js';
export { type LedgerData, readLedgerData } from './ledger-data.js';
export { decodeLedgerJournal, type LedgerJournal } from './ledger-journal.js';
export { checkExpectedVersion, ledgerAnswer } from './ledger-payloads.js';
export type { LedgerWithRows } from './ledger-reads.js';
export type { LedgerFields, LedgerScope, StoredLedger } from './ledger-record.js';
export {
  type AccountSchedules,
  LedgerService,
  type ScheduleReader,
  type ScheduleWrite,
  type TodayReader,
  type UndoableWrite,
} from './ledger-service.js';
export { UNDO_CONFLICT } from './ledger-undo.js';
export {
  type AccountChoice,
  ledgerScope,
  LedgerStore,
  NO_ACCOUNT,
  NO_LEDGER,
  OwnerLock,
  readAccount,
  readAccountLedger,
  readLedger,
  withLedgerLock,
  withOwnerLock,
} from './ledger-store.js';
export {
  type AccountFields,
  type AccountWithBalances,
  countAccounts,
  deleteAccountRecord,
  deleteAllAccounts,
  findAccountNamed,
  insertAccount,
  listAccounts,
  listAccountsWithBalances,
  makePrimary,
  movePayFrom,
  renameAccount,
  setCardSettings,
  type StoredAccount,
} from './account-record.js';
export { expectedVersionOf, tagLedgerVersion } from './ledger-version-header.js';
export { type CardFollowing, followCards, forgetCard } from './card-payment-writes.js';
export type { ClearedMatch, StoredRow } from './transaction-rows.js';
