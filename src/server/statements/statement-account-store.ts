/**
 * Which of the owner's accounts each bank account (an OFX or QFX file's ACCTID) was last imported
 * into (issue 25 item 6, decision 0046). The table is the statements' own; a row goes with its
 * account (a foreign key), so deleting an account, or everything, needs nothing from here.
 */
import crypto from 'node:crypto';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { ownerColumns } from '../db/owner.js';

/** The stored key of a bank account: hex SHA-256 of its ACCTID, so the account number itself is never kept. */
export function bankAccountKey(bankAccountId: string): string {
  return crypto.hash('sha256', bankAccountId, 'hex');
}

/** The owner's account a file of this bank account was last imported into, or undefined when none was. */
export async function findStatementAccount(db: Database, owner: Caller, bankAccountId: string): Promise<string | undefined> {
  const record = await db
    .selectFrom('statement_accounts')
    .select('account_id')
    .where((eb) => eb.and({ ...ownerColumns(owner), bank_account_key: bankAccountKey(bankAccountId) }))
    .executeTakeFirst();
  return record?.account_id;
}

/** Remembers the account a file of this bank account was imported into, in place of any before. The caller holds the owner's lock. */
export async function rememberStatementAccount(
  db: Database,
  owner: Caller,
  bankAccountId: string,
  accountId: string,
  now: Date,
): Promise<void> {
  const rememberedAt = now.toISOString();
  await db
    .insertInto('statement_accounts')
    .values({ ...ownerColumns(owner), bank_account_key: bankAccountKey(bankAccountId), account_id: accountId, remembered_at: rememberedAt })
    .onConflict((conflict) =>
      conflict.columns(['owner_iss', 'owner_sub', 'bank_account_key']).doUpdateSet({ account_id: accountId, remembered_at: rememberedAt }),
    )
    .execute();
}
