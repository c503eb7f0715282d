import { type Kysely, type Migration } from 'kysely';

/**
 * Web push's VAPID key pair (issue 26): made on first start and kept, since every push
 * subscription is bound to the public key it was made with; a new key would silently end them
 * all. One row, keyed by a fixed name, so two servers starting at once keep one pair.
 */
export const pushKeys: Migration = {
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
