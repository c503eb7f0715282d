/**
 * Every migration, in the order they run, under the name Kysely records in its kysely_migration
 * table. A name is forever: renamed, it would run again on every database that already ran it. Never
 * edit a released migration: add the next one in a file of its own and list it here, last.
 * Listed by hand rather than read from the folder at run time: the server runs bundled (decision
 * 0055), and a bundle has no folder of migrations to read.
 */
import type { Migration } from 'kysely';
import { initial } from './0001-initial.js';
import { dropLedgerRowsOwnerIndex } from './0002-drop-ledger-rows-owner-index.js';
import { livingLedger } from './0003-living-ledger.js';
import { expenseFrequencies } from './0004-expense-frequencies.js';
import { statementImports } from './0005-statement-imports.js';
import { ledgerVersion } from './0006-ledger-version.js';
import { undoEntries } from './0007-undo-entries.js';
import { accounts } from './0008-accounts.js';
import { transfers } from './0009-transfers.js';
import { recurringTransfers } from './0010-recurring-transfers.js';
import { statementAccounts } from './0012-statement-accounts.js';
import { userSettingsAndChannels } from './0013-user-settings-and-channels.js';
import { notificationOutbox } from './0014-notification-outbox.js';
import { pushKeys } from './0015-push-vapid-keys.js';
import { ledgerMonthTotals } from './0016-ledger-month-totals.js';
import { notificationLinks } from './0017-notification-links.js';
import { channelDeliveryState } from './0018-channel-delivery-state.js';
import { requestBudgetCounts } from './0019-request-budget-counts.js';
import { ledgerRowBlocks } from './0020-ledger-row-blocks.js';
import { detachedLedgers } from './0021-detached-ledgers.js';
import { safeToSpendSettings } from './0022-safe-to-spend-settings.js';
import { bankConnections } from './0023-bank-connections.js';
import { bankKeysDeletedWith } from './0024-bank-keys-deleted-with.js';
import { sharedBudgets } from './0025-shared-budgets.js';
import { activity } from './0026-activity.js';
import { memberNotifications } from './0027-member-notifications.js';
import { invitationMails } from './0028-invitation-mails.js';

export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_drop_ledger_rows_owner_index': dropLedgerRowsOwnerIndex,
  '0003_living_ledger': livingLedger,
  '0004_expense_frequencies': expenseFrequencies,
  '0005_statement_imports': statementImports,
  '0006_ledger_version': ledgerVersion,
  '0007_undo_entries': undoEntries,
  '0008_accounts': accounts,
  '0009_transfers': transfers,
  '0010_recurring_transfers': recurringTransfers,
  '0012_statement_accounts': statementAccounts,
  '0013_user_settings_and_channels': userSettingsAndChannels,
  '0014_notification_outbox': notificationOutbox,
  '0015_push_vapid_keys': pushKeys,
  '0016_ledger_month_totals': ledgerMonthTotals,
  '0017_notification_links': notificationLinks,
  '0018_channel_delivery_state': channelDeliveryState,
  '0019_request_budget_counts': requestBudgetCounts,
  '0020_ledger_row_blocks': ledgerRowBlocks,
  '0021_detached_ledgers': detachedLedgers,
  '0022_safe_to_spend_settings': safeToSpendSettings,
  '0023_bank_connections': bankConnections,
  '0024_bank_keys_deleted_with': bankKeysDeletedWith,
  '0025_shared_budgets': sharedBudgets,
  '0026_activity': activity,
  '0027_member_notifications': memberNotifications,
  '0028_invitation_mails': invitationMails,
};
