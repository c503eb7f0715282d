/**
 * Versioned migrations, the same for SQLite and PostgreSQL. They run at every start; Kysely's
 * migrator records what ran and takes a lock, so running them twice or from any earlier version
 * is safe. Never edit a released migration: add the next one.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql, SqliteAdapter } from 'kysely';
import { isIsoDate, isoDate } from '../../domain/calendar-date.js';
import { projectSchedules } from '../../domain/ledger-projection.js';
import { cents } from '../../domain/money.js';
import { FREQUENCIES } from '../../domain/schedules.js';
import { newId } from './ids.js';

const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('deposits')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('name', 'varchar(100)', (column) => column.notNull())
      .addColumn('type', 'varchar(32)', (column) => column.notNull())
      .addColumn('day', 'varchar(16)', (column) => column.notNull())
      .addColumn('amount_cents', 'bigint', (column) => column.notNull())
      .addColumn('start_date', 'varchar(10)', (column) => column.notNull())
      .addColumn('frequency', 'varchar(8)', (column) => column.notNull())
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('deposits_owner').on('deposits').columns(['owner_iss', 'owner_sub']).execute();

    await db.schema
      .createTable('expenses')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('name', 'varchar(100)', (column) => column.notNull())
      .addColumn('type', 'varchar(50)', (column) => column.notNull())
      .addColumn('day', 'integer', (column) => column.notNull())
      .addColumn('amount_cents', 'bigint', (column) => column.notNull())
      .addColumn('end_date', 'varchar(10)')
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('expenses_owner').on('expenses').columns(['owner_iss', 'owner_sub']).execute();

    await db.schema
      .createTable('ledgers')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('start_date', 'varchar(10)', (column) => column.notNull())
      .addColumn('end_date', 'varchar(10)', (column) => column.notNull())
      .addColumn('opening_balance_cents', 'bigint', (column) => column.notNull())
      .addColumn('next_sequence', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      // One ledger per user: creating a new one replaces it inside one transaction.
      .addUniqueConstraint('ledgers_one_per_owner', ['owner_iss', 'owner_sub'])
      .execute();

    await db.schema
      .createTable('ledger_transactions')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('ledger_id', 'varchar(64)', (column) => column.notNull().references('ledgers.id').onDelete('cascade'))
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('sequence', 'integer', (column) => column.notNull())
      .addColumn('date', 'varchar(10)', (column) => column.notNull())
      // 100 characters of deposit name plus " Paycheck".
      .addColumn('name', 'varchar(120)', (column) => column.notNull())
      .addColumn('type', 'varchar(1)', (column) => column.notNull())
      .addColumn('amount_cents', 'bigint', (column) => column.notNull())
      .addColumn('status', 'varchar(16)', (column) => column.notNull())
      .addColumn('version', 'integer', (column) => column.notNull().defaultTo(sql`1`))
      .addUniqueConstraint('ledger_transactions_sequence', ['ledger_id', 'sequence'])
      .execute();
    await db.schema.createIndex('ledger_transactions_owner').on('ledger_transactions').columns(['owner_iss', 'owner_sub']).execute();
  },
};

/**
 * Every query on ledger rows names the ledger (whose key is unique per owner), so the owner index
 * on ledger_transactions never served a query; it cost a fourth B-tree on every one of the ~1,800
 * rows a new ledger stores. The owner columns stay: every query still checks them.
 */
const dropLedgerRowsOwnerIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('ledger_transactions_owner').execute();
  },
};

/**
 * The living ledger (issue 11): a generated row names its schedule and the occurrence it stands
 * for, and says whether the user edited it; an occurrence the user deleted is remembered as skipped
 * so neither a schedule change nor an extension brings it back. Rows stored before this get the
 * source that can be proved (attributeSources); the rest have none (null) and are left alone by
 * schedule changes, like rows added by hand.
 */
const livingLedger: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('ledger_transactions').addColumn('source_kind', 'varchar(8)').execute();
    await db.schema.alterTable('ledger_transactions').addColumn('source_id', 'varchar(64)').execute();
    await db.schema.alterTable('ledger_transactions').addColumn('source_occurrence', 'varchar(10)').execute();
    await db.schema
      .alterTable('ledger_transactions')
      .addColumn('edited', 'integer', (column) => column.notNull().defaultTo(sql`0`))
      .execute();

    await db.schema
      .createTable('ledger_skipped_occurrences')
      .addColumn('ledger_id', 'varchar(64)', (column) => column.notNull().references('ledgers.id').onDelete('cascade'))
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('source_kind', 'varchar(8)', (column) => column.notNull())
      .addColumn('source_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('occurrence', 'varchar(10)', (column) => column.notNull())
      .addPrimaryKeyConstraint('ledger_skipped_occurrences_key', ['ledger_id', 'source_kind', 'source_id', 'occurrence'])
      .execute();

    await attributeSources(db);
  },
};

/**
 * Gives each stored row the source it provably has: the row is exactly what the owner's schedules,
 * as they are now, generate over the ledger's dates (same date, type, name and amount), each
 * generated occurrence claimed by one row at most, in creation order. A row the user edited, or
 * one whose schedule changed since the ledger was made, matches nothing and keeps no source:
 * without it, the first change of its schedule after the upgrade would add that schedule's rows a
 * second time beside the old ones. Uses today's projection; ledgers of later versions are made
 * with sources, so what this finds never changes after the upgrade.
 */
async function attributeSources(db: Kysely<unknown>): Promise<void> {
  const ledgers = await sql<{ id: string; owner_iss: string; owner_sub: string; start_date: string; end_date: string }>`
    select id, owner_iss, owner_sub, start_date, end_date from ledgers`.execute(db);
  for (const ledger of ledgers.rows) {
    const deposits = await sql<{ id: string; name: string; amount_cents: number | string; start_date: string; frequency: string }>`
      select id, name, amount_cents, start_date, frequency from deposits
      where owner_iss = ${ledger.owner_iss} and owner_sub = ${ledger.owner_sub} order by created_at, id`.execute(db);
    const expenses = await sql<{ id: string; name: string; amount_cents: number | string; day: number; end_date: string | null }>`
      select id, name, amount_cents, day, end_date from expenses
      where owner_iss = ${ledger.owner_iss} and owner_sub = ${ledger.owner_sub} order by created_at, id`.execute(db);
    const drafts = projectSchedules(
      {
        deposits: deposits.rows.flatMap((deposit) => {
          const frequency = FREQUENCIES.find((known) => known === deposit.frequency);
          if (!frequency || !isIsoDate(deposit.start_date)) return [];
          return [
            { id: deposit.id, name: deposit.name, amount: cents(Number(deposit.amount_cents)), startDate: deposit.start_date, frequency },
          ];
        }),
        expenses: expenses.rows.map((expense) => ({
          id: expense.id,
          name: expense.name,
          amount: cents(Number(expense.amount_cents)),
          day: Number(expense.day),
          endDate: expense.end_date !== null && isIsoDate(expense.end_date) ? expense.end_date : null,
        })),
      },
      { from: isoDate(ledger.start_date), to: isoDate(ledger.end_date) },
    );
    const unclaimed = new Map<string, (typeof drafts)[number][]>();
    for (const draft of drafts) {
      const key = `${draft.date} ${draft.type} ${draft.amount} ${draft.name}`;
      unclaimed.set(key, [...(unclaimed.get(key) ?? []), draft]);
    }
    const rows = await sql<{ id: string; date: string; name: string; type: string; amount_cents: number | string }>`
      select id, date, name, type, amount_cents from ledger_transactions where ledger_id = ${ledger.id} order by sequence`.execute(db);
    for (const row of rows.rows) {
      const draft = unclaimed.get(`${row.date} ${row.type} ${Number(row.amount_cents)} ${row.name}`)?.shift();
      if (!draft) continue;
      await sql`update ledger_transactions
        set source_kind = ${draft.source.kind}, source_id = ${draft.source.id}, source_occurrence = ${draft.source.occurrence}
        where id = ${row.id}`.execute(db);
    }
  }
}

/**
 * Expenses of every frequency (issue 12): each stored expense becomes a monthly one with no start
 * date, exactly what it was; deposits need nothing, their frequency column holds the new codes.
 */
const expenseFrequencies: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('expenses')
      .addColumn('frequency', 'varchar(8)', (column) => column.notNull().defaultTo('M'))
      .execute();
    await db.schema.alterTable('expenses').addColumn('start_date', 'varchar(10)').execute();
  },
};

/**
 * Statement imports (issue 14, decision 0021): which statement rows a ledger has taken in, so
 * importing a file twice changes nothing. Keyed by the ledger and a SHA-256 of the import id (a
 * FITID alone may be 255 characters); the ledger row it matched or created is kept without a
 * foreign key, so the record outlives that row. Replacing the ledger forgets them (the ledger
 * row survives a replacement, so the cascade alone would not).
 */
const statementImports: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ledger_imported_rows')
      .addColumn('ledger_id', 'varchar(64)', (column) => column.notNull().references('ledgers.id').onDelete('cascade'))
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      // Hex SHA-256 of the statement row's import id.
      .addColumn('import_key', 'varchar(64)', (column) => column.notNull())
      .addColumn('transaction_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('imported_at', 'varchar(32)', (column) => column.notNull())
      .addPrimaryKeyConstraint('ledger_imported_rows_key', ['ledger_id', 'import_key'])
      .execute();
  },
};

/**
 * The ledger's version (decision 0030): every write that changes the ledger or its rows moves it
 * on, so a client holding the ledger at one version can apply a write's changes only
 * (`?answer=changes`) and knows it missed one when the version it holds is not the one the changes
 * are based on.
 */
const ledgerVersion: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('ledgers')
      .addColumn('version', 'integer', (column) => column.notNull().defaultTo(1))
      .execute();
  },
};

/**
 * Undo (issue 24, decision 0040): each undoable write's journal, under a hash of its token, for ten
 * minutes; and the version at which a ledger's rows were last replaced, so an undo recorded
 * before a New Ledger refuses rather than touching the new rows.
 */
const undoEntries: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('undo_entries')
      .addColumn('token_hash', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('seq', 'integer', (column) => column.notNull())
      .addColumn('kind', 'varchar(32)', (column) => column.notNull())
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('expires_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('journal', 'text', (column) => column.notNull())
      // Also the index that finds and trims an owner's entries.
      .addUniqueConstraint('undo_entries_owner_seq', ['owner_iss', 'owner_sub', 'seq'])
      .execute();
    await db.schema
      .alterTable('ledgers')
      .addColumn('replaced_at_version', 'integer', (column) => column.notNull().defaultTo(1))
      .execute();
  },
};

/** Owners per INSERT of their first accounts: 500 rows of 7 values, far below either database's parameter limit. */
const ACCOUNTS_BATCH = 500;

/**
 * Accounts (issue 25, decision 0042): a user has one or more accounts, each with at most one
 * ledger. Every owner who has anything (a ledger, a deposit or an expense) gets a primary account
 * named "Checking"; their ledger becomes its ledger, unchanged, and their deposits and expenses
 * name it. The ledger's uniqueness moves from the owner to the account. PostgreSQL drops the
 * owner's unique constraint; SQLite cannot drop a constraint, so the ledgers table is rebuilt
 * (migrateToLatest turns foreign keys off around the run, as SQLite's own procedure asks, so
 * dropping the old table does not cascade to the rows).
 */
const accounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('name', 'varchar(50)', (column) => column.notNull())
      // Lowercasing may lengthen a name: room for it.
      .addColumn('name_key', 'varchar(200)', (column) => column.notNull())
      .addColumn('kind', 'varchar(16)', (column) => column.notNull())
      .addColumn('is_primary', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('card_closing_day', 'integer')
      .addColumn('card_due_day', 'integer')
      .addColumn('card_pay_from_account_id', 'varchar(64)')
      .addColumn('card_rule', 'varchar(16)')
      .addColumn('card_amount_cents', 'bigint')
      .addColumn('card_credit_limit_cents', 'bigint')
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      // Also the index that finds an owner's accounts.
      .addUniqueConstraint('accounts_name_per_owner', ['owner_iss', 'owner_sub', 'name_key'])
      .execute();
    await db.schema
      .createIndex('accounts_one_primary')
      .on('accounts')
      .columns(['owner_iss', 'owner_sub'])
      .unique()
      .where(sql.ref('is_primary'), '=', 1)
      .execute();

    const owners = await sql<{ owner_iss: string; owner_sub: string }>`
      select owner_iss, owner_sub from ledgers
      union select owner_iss, owner_sub from deposits
      union select owner_iss, owner_sub from expenses`.execute(db);
    const createdAt = new Date().toISOString();
    for (let start = 0; start < owners.rows.length; start += ACCOUNTS_BATCH) {
      const values = owners.rows
        .slice(start, start + ACCOUNTS_BATCH)
        .map((owner) => sql`(${newId()}, ${owner.owner_iss}, ${owner.owner_sub}, 'Checking', 'checking', 'CHECKING', 1, ${createdAt})`);
      await sql`insert into accounts (id, owner_iss, owner_sub, name, name_key, kind, is_primary, created_at)
        values ${sql.join(values)}`.execute(db);
    }
    const primaryOf = (table: string) =>
      sql`(select accounts.id from accounts where accounts.owner_iss = ${sql.ref(`${table}.owner_iss`)}
        and accounts.owner_sub = ${sql.ref(`${table}.owner_sub`)} and accounts.is_primary = 1)`;
    for (const table of ['deposits', 'expenses']) {
      await db.schema.alterTable(table).addColumn('account_id', 'varchar(64)').execute();
      await sql`update ${sql.table(table)} set account_id = ${primaryOf(table)}`.execute(db);
    }

    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await db.schema
        .createTable('ledgers_with_accounts')
        .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
        .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
        .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
        .addColumn('start_date', 'varchar(10)', (column) => column.notNull())
        .addColumn('end_date', 'varchar(10)', (column) => column.notNull())
        .addColumn('opening_balance_cents', 'bigint', (column) => column.notNull())
        .addColumn('next_sequence', 'integer', (column) => column.notNull())
        .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
        .addColumn('version', 'integer', (column) => column.notNull().defaultTo(1))
        .addColumn('replaced_at_version', 'integer', (column) => column.notNull().defaultTo(1))
        .addColumn('account_id', 'varchar(64)', (column) => column.notNull().references('accounts.id'))
        .addUniqueConstraint('ledgers_one_per_account', ['account_id'])
        .execute();
      await sql`insert into ledgers_with_accounts
        (id, owner_iss, owner_sub, start_date, end_date, opening_balance_cents, next_sequence, created_at, version, replaced_at_version, account_id)
        select id, owner_iss, owner_sub, start_date, end_date, opening_balance_cents, next_sequence, created_at, version, replaced_at_version,
          ${primaryOf('ledgers')} from ledgers`.execute(db);
      await db.schema.dropTable('ledgers').execute();
      await db.schema.alterTable('ledgers_with_accounts').renameTo('ledgers').execute();
    } else {
      await db.schema
        .alterTable('ledgers')
        .addColumn('account_id', 'varchar(64)', (column) => column.references('accounts.id'))
        .execute();
      await sql`update ledgers set account_id = ${primaryOf('ledgers')}`.execute(db);
      await db.schema
        .alterTable('ledgers')
        .alterColumn('account_id', (column) => column.setNotNull())
        .execute();
      await db.schema.alterTable('ledgers').dropConstraint('ledgers_one_per_owner').execute();
      await db.schema.alterTable('ledgers').addUniqueConstraint('ledgers_one_per_account', ['account_id']).execute();
    }
    // The owner's unique key found their ledger; now an index does (the row limit counts every ledger of theirs).
    await db.schema.createIndex('ledgers_owner').on('ledgers').columns(['owner_iss', 'owner_sub']).execute();
  },
};

/**
 * Transfers (issue 25, decision 0043): a row that is one side of a transfer names the other
 * side's row and account. Deleting an account unlinks the rows that name it, found by the index.
 */
const transfers: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('ledger_transactions').addColumn('transfer_id', 'varchar(64)').execute();
    await db.schema.alterTable('ledger_transactions').addColumn('transfer_account_id', 'varchar(64)').execute();
    await db.schema.createIndex('ledger_transactions_transfer_account').on('ledger_transactions').column('transfer_account_id').execute();
  },
};

/**
 * Recurring transfers (issue 25, decision 0043): an expense may pay into another of the owner's
 * accounts, whose ledger then gets a linked credit for each occurrence. Null on every other expense.
 */
const recurringTransfers: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('expenses').addColumn('to_account_id', 'varchar(64)').execute();
  },
};

/**
 * Statements into the right account (issue 25 item 6, decision 0046): the account an OFX or QFX
 * file's bank account (its ACCTID) was last imported into, per user, so the next file of that
 * bank account preselects it. Keyed by a SHA-256 of the ACCTID: the bank's account number is not
 * kept. Deleting the account (or everything) takes its rows with it.
 */
const statementAccounts: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('statement_accounts')
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('bank_account_key', 'varchar(64)', (column) => column.notNull())
      .addColumn('account_id', 'varchar(64)', (column) => column.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('remembered_at', 'varchar(32)', (column) => column.notNull())
      .addPrimaryKeyConstraint('statement_accounts_key', ['owner_iss', 'owner_sub', 'bank_account_key'])
      .execute();
    // Deleting an account finds its rows through this (PostgreSQL does not index a foreign key by itself).
    await db.schema.createIndex('statement_accounts_account').on('statement_accounts').column('account_id').execute();
  },
};

/**
 * Each user's own today and what Leftover tells them (issue 26, decisions 0047 and 0051): one row of
 * settings per user who chose anything (time zone, the hour and rules of notifications, and the
 * local date their day's messages were last planned), and their channels: email addresses, push
 * subscriptions and webhooks. A channel's link token (confirm, unsubscribe) is unique; a target
 * is one channel per user, found by its key (a hash: a URL may be longer than an index allows).
 */
const userSettingsAndChannels: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('user_settings')
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('time_zone', 'varchar(64)')
      .addColumn('notify_hour', 'integer', (column) => column.notNull().defaultTo(8))
      .addColumn('below_zero', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('bills_due', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('planned_on', 'varchar(10)')
      .addColumn('updated_at', 'varchar(32)', (column) => column.notNull())
      .addPrimaryKeyConstraint('user_settings_owner', ['owner_iss', 'owner_sub'])
      .execute();
    await db.schema
      .createTable('notification_channels')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('kind', 'varchar(16)', (column) => column.notNull())
      .addColumn('target', 'varchar(2000)', (column) => column.notNull())
      // Hex SHA-256 of the kind and target: one channel per target and user.
      .addColumn('target_key', 'varchar(64)', (column) => column.notNull())
      .addColumn('push_p256dh', 'varchar(128)')
      .addColumn('push_auth', 'varchar(64)')
      .addColumn('confirmed', 'integer', (column) => column.notNull())
      .addColumn('link_token', 'varchar(64)', (column) => column.notNull().unique())
      .addColumn('last_at', 'varchar(32)')
      .addColumn('last_delivered', 'integer')
      .addColumn('last_reason', 'varchar(500)')
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .addUniqueConstraint('notification_channels_target', ['owner_iss', 'owner_sub', 'target_key'])
      .execute();
  },
};

/**
 * The outbox (issue 26, decision 0051): every message is recorded here before it is sent, under a
 * unique key of its user, account, kind, occasion and channel, so a second planner (another
 * process, or the same after a restart) records nothing new, and a sender claims it with a lease
 * before sending. Found by state and due time.
 */
const notificationOutbox: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('notification_outbox')
      .addColumn('id', 'varchar(64)', (column) => column.primaryKey())
      // Hex SHA-256 of the owner, account, kind, occasion and channel.
      .addColumn('message_key', 'varchar(64)', (column) => column.notNull().unique())
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('channel_id', 'varchar(64)', (column) => column.notNull())
      .addColumn('account_id', 'varchar(64)')
      .addColumn('kind', 'varchar(16)', (column) => column.notNull())
      .addColumn('occasion', 'varchar(16)', (column) => column.notNull())
      .addColumn('event_date', 'varchar(10)', (column) => column.notNull())
      .addColumn('planned_on', 'varchar(10)', (column) => column.notNull())
      .addColumn('title', 'varchar(300)', (column) => column.notNull())
      .addColumn('message', 'text', (column) => column.notNull())
      .addColumn('url', 'varchar(2000)', (column) => column.notNull())
      .addColumn('state', 'varchar(16)', (column) => column.notNull())
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('first_attempt_at', 'varchar(32)')
      .addColumn('lease_until', 'varchar(32)')
      .addColumn('lease_owner', 'varchar(64)')
      .addColumn('last_error', 'varchar(500)')
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .addColumn('sent_at', 'varchar(32)')
      .execute();
    await db.schema.createIndex('notification_outbox_due').on('notification_outbox').columns(['state', 'next_attempt_at']).execute();
    await db.schema
      .createIndex('notification_outbox_owner')
      .on('notification_outbox')
      .columns(['owner_iss', 'owner_sub', 'event_date'])
      .execute();
  },
};

/**
 * Web push's VAPID key pair (issue 26): made on first start and kept, since every push
 * subscription is bound to the public key it was made with; a new key would silently end them
 * all. One row, keyed by a fixed name, so two servers starting at once keep one pair.
 */
const pushKeys: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('push_vapid_keys')
      .addColumn('name', 'varchar(16)', (column) => column.primaryKey())
      .addColumn('public_key', 'varchar(128)', (column) => column.notNull())
      .addColumn('private_key', 'varchar(128)', (column) => column.notNull())
      .addColumn('created_at', 'varchar(32)', (column) => column.notNull())
      .execute();
  },
};

/**
 * Issue 27: a row write must not read every row of a 20,000-row ledger. Each ledger keeps, per month,
 * how many rows it has and their signed sums (all rows, CLEARED rows, PAID and CLEARED rows), kept
 * in step by the functions that write rows (month-totals.ts), so the balances and a row's place come
 * from at most one total per month plus that month's rows, found by the new (ledger, date) index.
 * Ledgers stored before this get their totals from their rows here.
 */
const ledgerMonthTotals: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('ledger_month_totals')
      .addColumn('ledger_id', 'varchar(64)', (column) => column.notNull().references('ledgers.id').onDelete('cascade'))
      .addColumn('owner_iss', 'varchar(512)', (column) => column.notNull())
      .addColumn('owner_sub', 'varchar(512)', (column) => column.notNull())
      .addColumn('month', 'varchar(7)', (column) => column.notNull())
      .addColumn('row_count', 'integer', (column) => column.notNull())
      .addColumn('signed_cents', 'bigint', (column) => column.notNull())
      .addColumn('cleared_cents', 'bigint', (column) => column.notNull())
      .addColumn('settled_cents', 'bigint', (column) => column.notNull())
      .addPrimaryKeyConstraint('ledger_month_totals_key', ['ledger_id', 'month'])
      .execute();
    await db.schema.createIndex('ledger_transactions_date').on('ledger_transactions').columns(['ledger_id', 'date']).execute();
    const signed = sql`case when type = 'C' then amount_cents else -amount_cents end`;
    await sql`insert into ledger_month_totals (ledger_id, owner_iss, owner_sub, month, row_count, signed_cents, cleared_cents, settled_cents)
      select ledger_id, owner_iss, owner_sub, substr(date, 1, 7), count(*), sum(${signed}),
        sum(case when status = 'CLEARED' then ${signed} else 0 end), sum(case when status <> 'PENDING' then ${signed} else 0 end)
      from ledger_transactions group by ledger_id, owner_iss, owner_sub, substr(date, 1, 7)`.execute(db);
  },
};

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
};

class InlineMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

export async function migrateToLatest<Schema>(db: Kysely<Schema>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  if (dialect === 'sqlite') {
    // Kysely runs SQLite migrations without a transaction and without a lock between processes.
    // One IMMEDIATE transaction around the whole run makes it atomic (a crash leaves the previous
    // version, never half a migration) and makes a second process starting at once wait for the
    // first (busy_timeout), then find nothing left to do.
    // A migration that rebuilds a table (0008) must not cascade the old table's drop to its
    // children: foreign keys are off for the run (SQLite ignores the pragma inside a transaction),
    // checked as a whole before the commit, and then set back as they were.
    const foreignKeys = (await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0]?.foreign_keys ?? 0;
    await sql`pragma foreign_keys = off`.execute(db);
    try {
      await sql`begin immediate`.execute(db);
      try {
        await runMigrator(new Migrator({ db, provider: new InlineMigrationProvider() }));
        const broken = await sql`pragma foreign_key_check`.execute(db);
        if (broken.rows.length > 0) throw new Error('Database migration left rows whose foreign keys name nothing');
        await sql`commit`.execute(db);
      } catch (error) {
        await sql`rollback`.execute(db);
        throw error;
      }
    } finally {
      await sql.raw(`pragma foreign_keys = ${foreignKeys ? 'on' : 'off'}`).execute(db);
    }
    return;
  }
  // Kysely looks for its bookkeeping tables in every PostgreSQL schema unless told which one; in a
  // database shared by several schemas it would find another schema's tables and fail. Ours live
  // in the connection's current schema. Kysely's advisory lock makes concurrent starts take turns.
  const migrationTableSchema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema;
  await runMigrator(
    new Migrator({ db, provider: new InlineMigrationProvider(), ...(migrationTableSchema ? { migrationTableSchema } : {}) }),
  );
}

async function runMigrator(migrator: Migrator): Promise<void> {
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, { cause: error });
  }
}
