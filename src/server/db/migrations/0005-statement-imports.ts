import { type Kysely, type Migration } from 'kysely';

/**
 * Statement imports (issue 14, decision 0021): which statement rows a ledger has taken in, so
 * importing a file twice changes nothing. Keyed by the ledger and a SHA-256 of the import id (a
 * FITID alone may be 255 characters); the ledger row it matched or created is kept without a
 * foreign key, so the record outlives that row. Replacing the ledger forgets them (the ledger
 * row survives a replacement, so the cascade alone would not).
 */
export const statementImports: Migration = {
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
