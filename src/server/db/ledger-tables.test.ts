/**
 * The ledger's seam is held by types (issue 33): a database handle outside src/server/ledger has no
 * ledger table in its type, so a query on one fails `npm run typecheck`. These checks are types;
 * `npm run typecheck` (tsc over src and tests) is what fails when the seam opens.
 */
import type { Kysely } from 'kysely';
import { describe, expectTypeOf, it } from 'vitest';
import type { Database, LedgerTableName, WholeDatabase } from './database.js';

type TablesOf<Handle> = Handle extends Kysely<infer Tables> ? keyof Tables : never;

describe("the database handle outside the ledger's module", () => {
  it('names no ledger table, and every other table', () => {
    expectTypeOf<Extract<TablesOf<Database>, LedgerTableName>>().toEqualTypeOf<never>();
    expectTypeOf<TablesOf<Database>>().toEqualTypeOf<Exclude<TablesOf<WholeDatabase>, LedgerTableName>>();
    expectTypeOf<TablesOf<Database>>().toEqualTypeOf<
      | 'deposits'
      | 'expenses'
      | 'statement_accounts'
      | 'user_settings'
      | 'notification_channels'
      | 'notification_links'
      | 'notification_addresses'
      | 'notification_outbox'
      | 'push_vapid_keys'
      | 'request_budget_counts'
      | 'bank_connections'
      | 'bank_accounts'
      | 'bank_sync_log'
      | 'budgets'
      | 'budget_members'
      | 'budget_invitations'
      | 'activity_entries'
      | 'invitation_mails'
    >();
  });

  it('refuses a query on a ledger table at the type check', () => {
    // Never run: building the queries is the point, and only the type checker reads it.
    const queries = (db: Database) => [
      // @ts-expect-error -- ledger_transactions is the ledger's: code outside server/ledger cannot name it.
      db.insertInto('ledger_transactions'),
      // @ts-expect-error -- ledgers is the ledger's.
      db.updateTable('ledgers'),
      // @ts-expect-error -- accounts are the ledger's: their face (ledger/index.ts) reads and writes them.
      db.selectFrom('accounts'),
      // @ts-expect-error -- undo entries are recorded by the ledger's unit of work alone.
      db.deleteFrom('undo_entries'),
      db.selectFrom('deposits'),
    ];
    expectTypeOf(queries).returns.toBeArray();
  });
});
