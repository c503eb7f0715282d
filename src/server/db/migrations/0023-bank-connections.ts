import { type Kysely, type Migration } from 'kysely';

/**
 * Bank sync (issue 37, decisions 0081 and 0082).
 *
 * - `bank_connections`: one SimpleFIN connection of a user. Its Access URL only sealed (decision
 *   0080), deleted with the row at once on disconnect. Its state and reason ("Needs attention"),
 *   whether the schedule still asks it (0 after a 402 or 403), the requests made on the current UTC
 *   day (the bridge's quota is per day: never more than 24, counted here so every process shares the
 *   count), when it last asked (Sync now at most once a minute), when the schedule next asks it and
 *   the lease that elects one process for it (as the notification outbox's), the last successful
 *   sync's day (the next window starts 5 days before it) and the last sync's record (JSON).
 * - `bank_accounts`: the bridge's accounts of a connection as last read, and which account each is
 *   linked to (null: unlinked). Not a foreign key to accounts: an account deleted leaves its link
 *   pointing nowhere, which reads as unlinked.
 * - `ledger_transactions.bank_*`: a row's bank mark (bank-rows.ts), null for a row the bank never
 *   touched; one row per bank key in a ledger.
 * - `ledger_bank_closed_keys`: a ledger's keys that never come back (deleted or replaced), with what
 *   a deleted pending was.
 * - `bank_sync_log`: every sync that asked the bridge, for the quota's story and support.
 */
export const bankConnections: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('bank_connections')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('sealed_access_url', 'text', (column) => column.notNull())
      .addColumn('state', 'varchar(32)', (column) => column.notNull())
      .addColumn('reason', 'varchar(1000)')
      .addColumn('scheduled', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('requests_day', 'varchar(10)', (column) => column.notNull())
      .addColumn('requests_count', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('last_request_at', 'varchar(32)')
      .addColumn('next_sync_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('lease_until', 'varchar(32)')
      .addColumn('lease_owner', 'varchar(64)')
      .addColumn('last_success_on', 'varchar(10)')
      .addColumn('last_sync', 'text')
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('bank_connections_owner').on('bank_connections').columns(['owner_iss', 'owner_sub']).execute();
    await db.schema.createIndex('bank_connections_due').on('bank_connections').columns(['scheduled', 'next_sync_at']).execute();

    await db.schema
      .createTable('bank_accounts')
      .addColumn('connection_id', 'varchar(64)', (column) => column.notNull().references('bank_connections.id').onDelete('cascade'))
      .addColumn('remote_id', 'varchar(200)', (column) => column.notNull())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('position', 'integer', (column) => column.notNull())
      .addColumn('institution', 'varchar(200)', (column) => column.notNull())
      .addColumn('name', 'varchar(200)', (column) => column.notNull())
      .addColumn('currency', 'varchar(16)', (column) => column.notNull())
      .addColumn('balance_cents', 'integer')
      .addColumn('balance_date', 'varchar(10)')
      .addColumn('account_id', 'varchar(64)')
      // The owner's day this account last synced into its ledger: a newly linked account asks from its ledger's start.
      .addColumn('last_success_on', 'varchar(10)')
      .addPrimaryKeyConstraint('bank_accounts_key', ['connection_id', 'remote_id'])
      .execute();
    await db.schema.createIndex('bank_accounts_linked').on('bank_accounts').columns(['owner_iss', 'owner_sub', 'account_id']).execute();

    await db.schema.alterTable('ledger_transactions').addColumn('bank_account_id', 'varchar(200)').execute();
    await db.schema.alterTable('ledger_transactions').addColumn('bank_transaction_id', 'varchar(200)').execute();
    await db.schema.alterTable('ledger_transactions').addColumn('bank_state', 'varchar(8)').execute();
    await db.schema.alterTable('ledger_transactions').addColumn('bank_missing_since', 'varchar(10)').execute();
    // Rows without a mark hold nulls, which both databases keep distinct in a unique index.
    await db.schema
      .createIndex('ledger_transactions_bank_key')
      .on('ledger_transactions')
      .columns(['ledger_id', 'bank_account_id', 'bank_transaction_id'])
      .unique()
      .execute();

    await db.schema
      .createTable('ledger_bank_closed_keys')
      .addColumn('ledger_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('bank_account_id', 'varchar(200)', (column) => column.notNull())
      .addColumn('bank_transaction_id', 'varchar(200)', (column) => column.notNull())
      .addColumn('reason', 'varchar(16)', (column) => column.notNull())
      .addColumn('pending_date', 'varchar(10)')
      .addColumn('pending_type', 'varchar(8)')
      .addColumn('pending_amount_cents', 'integer')
      .addPrimaryKeyConstraint('ledger_bank_closed_keys_key', ['ledger_id', 'bank_account_id', 'bank_transaction_id'])
      .execute();

    await db.schema
      .createTable('bank_sync_log')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('connection_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('started_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('trigger', 'varchar(16)', (column) => column.notNull())
      .addColumn('requests', 'integer', (column) => column.notNull())
      .addColumn('window_start', 'varchar(10)')
      .addColumn('window_end', 'varchar(10)')
      .addColumn('outcome', 'varchar(16)', (column) => column.notNull())
      .addColumn('added', 'integer', (column) => column.notNull())
      .addColumn('matched', 'integer', (column) => column.notNull())
      .addColumn('replaced', 'integer', (column) => column.notNull())
      .addColumn('flagged', 'integer', (column) => column.notNull())
      .addColumn('failure', 'varchar(1000)')
      .execute();
    await db.schema.createIndex('bank_sync_log_connection').on('bank_sync_log').columns(['connection_id', 'started_at']).execute();
  },
};
