/**
 * The owner's accounts (issue 25, decision 0042): each holds at most one ledger, and exactly one is
 * primary. The ledger owns this table because every ledger lives in an account and its lock
 * resolves one; the accounts' calls reach it through the ledger's face. Every query names the
 * owner: another user's account id finds nothing, like a missing one.
 */
import { sql } from 'kysely';
import { ACCOUNT_KINDS, type AccountKind, accountNameKey, CARD_RULES, type CardSettings } from '../../domain/accounts.js';
import { type Cents, cents } from '../../domain/money.js';
import type { Caller } from '../auth/access-token.js';
import type { Database } from '../db/database.js';
import { withLedgerTables } from '../db/ledger-tables.js';
import { newId } from '../db/ids.js';
import { ownerColumns } from '../db/owner.js';
import type { AccountsTable } from '../db/schema.js';
import { storedValue } from '../db/stored-value.js';

export interface AccountFields {
  readonly name: string;
  readonly kind: AccountKind;
  readonly card: CardSettings | null;
}

export interface StoredAccount extends AccountFields {
  readonly id: string;
  readonly primary: boolean;
  /** When it was made: the oldest remaining account becomes primary when the primary is deleted. */
  readonly createdAt: string;
}

/** An account with its ledger's balances (0 without a ledger), in cents. */
export interface AccountWithBalances extends StoredAccount {
  readonly currentBalance: Cents;
  readonly pendingBalance: Cents;
  /** Whether it has a ledger. */
  readonly hasLedger: boolean;
}

const ACCOUNT_COLUMNS = [
  'id',
  'name',
  'kind',
  'is_primary',
  'card_closing_day',
  'card_due_day',
  'card_pay_from_account_id',
  'card_rule',
  'card_amount_cents',
  'card_credit_limit_cents',
  'created_at',
] as const;

type AccountRecord = Pick<AccountsTable, (typeof ACCOUNT_COLUMNS)[number]>;

function toAccount(record: AccountRecord): StoredAccount {
  const kind = storedValue(ACCOUNT_KINDS, record.kind, 'accounts.kind');
  const card: CardSettings | null =
    kind === 'CARD' && record.card_rule !== null && record.card_pay_from_account_id !== null
      ? {
          closingDay: Number(record.card_closing_day),
          dueDay: Number(record.card_due_day),
          payFromAccountId: record.card_pay_from_account_id,
          rule: storedValue(CARD_RULES, record.card_rule, 'accounts.card_rule'),
          amount: record.card_amount_cents === null ? null : cents(Number(record.card_amount_cents)),
          creditLimit: record.card_credit_limit_cents === null ? null : cents(Number(record.card_credit_limit_cents)),
        }
      : null;
  return { id: record.id, name: record.name, kind, primary: record.is_primary === 1, card, createdAt: record.created_at };
}

function cardColumns(card: CardSettings | null) {
  return {
    card_closing_day: card?.closingDay ?? null,
    card_due_day: card?.dueDay ?? null,
    card_pay_from_account_id: card?.payFromAccountId ?? null,
    card_rule: card?.rule ?? null,
    card_amount_cents: card?.amount ?? null,
    card_credit_limit_cents: card?.creditLimit ?? null,
  };
}

function accountsOf(db: Database, owner: Caller) {
  return withLedgerTables(db)
    .selectFrom('accounts')
    .select(ACCOUNT_COLUMNS)
    .where((eb) => eb.and(ownerColumns(owner)));
}

/** Oldest first (the id breaks exact ties): the list's order, and who becomes primary next. */
export async function listAccounts(db: Database, owner: Caller): Promise<StoredAccount[]> {
  const records = await accountsOf(db, owner).orderBy('created_at').orderBy('id').execute();
  return records.map(toAccount);
}

export async function findAccount(db: Database, owner: Caller, id: string): Promise<StoredAccount | undefined> {
  const record = await accountsOf(db, owner).where('id', '=', id).executeTakeFirst();
  return record && toAccount(record);
}

export async function findPrimaryAccount(db: Database, owner: Caller): Promise<StoredAccount | undefined> {
  const record = await accountsOf(db, owner).where('is_primary', '=', 1).executeTakeFirst();
  return record && toAccount(record);
}

export async function countAccounts(db: Database, owner: Caller): Promise<number> {
  const record = await withLedgerTables(db)
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where((eb) => eb.and(ownerColumns(owner)))
    .executeTakeFirst();
  return Number(record?.count ?? 0);
}

/** Stores a new account (its id is ours, or a restore's new one) and answers it. */
export async function insertAccount(
  db: Database,
  owner: Caller,
  fields: AccountFields & { readonly primary: boolean; readonly id?: string; readonly createdAt: string },
): Promise<StoredAccount> {
  const id = fields.id ?? newId();
  await withLedgerTables(db)
    .insertInto('accounts')
    .values({
      id,
      ...ownerColumns(owner),
      name: fields.name,
      name_key: accountNameKey(fields.name),
      kind: fields.kind,
      is_primary: fields.primary ? 1 : 0,
      ...cardColumns(fields.card),
      created_at: fields.createdAt,
    })
    .execute();
  return { id, name: fields.name, kind: fields.kind, card: fields.card, primary: fields.primary, createdAt: fields.createdAt };
}

export async function renameAccount(db: Database, owner: Caller, id: string, name: string): Promise<void> {
  await withLedgerTables(db)
    .updateTable('accounts')
    .set({ name, name_key: accountNameKey(name) })
    .where('id', '=', id)
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
}

/** A card's new settings (decision 0045): its payments are then projected afresh. */
export async function setCardSettings(db: Database, owner: Caller, id: string, card: CardSettings): Promise<void> {
  await withLedgerTables(db)
    .updateTable('accounts')
    .set(cardColumns(card))
    .where('id', '=', id)
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
}

/** Makes this account the owner's primary one: the old primary is cleared first (the partial unique index allows one). */
export async function makePrimary(db: Database, owner: Caller, id: string): Promise<void> {
  await withLedgerTables(db)
    .updateTable('accounts')
    .set({ is_primary: 0 })
    .where((eb) => eb.and(ownerColumns(owner)))
    .where('is_primary', '=', 1)
    .where('id', '<>', id)
    .execute();
  await withLedgerTables(db)
    .updateTable('accounts')
    .set({ is_primary: 1 })
    .where('id', '=', id)
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
}

/** Cards paid from one account are paid from another from now on. */
export async function movePayFrom(db: Database, owner: Caller, from: string, to: string): Promise<void> {
  await withLedgerTables(db)
    .updateTable('accounts')
    .set({ card_pay_from_account_id: to })
    .where((eb) => eb.and(ownerColumns(owner)))
    .where('card_pay_from_account_id', '=', from)
    .execute();
}

/** The account row itself; its ledger goes first. */
export async function deleteAccountRecord(db: Database, owner: Caller, id: string): Promise<void> {
  await withLedgerTables(db)
    .deleteFrom('accounts')
    .where('id', '=', id)
    .where((eb) => eb.and(ownerColumns(owner)))
    .execute();
}

/** Every account the owner has (their ledgers went first); answers how many went. */
export async function deleteAllAccounts(db: Database, owner: Caller): Promise<number> {
  const result = await withLedgerTables(db)
    .deleteFrom('accounts')
    .where((eb) => eb.and(ownerColumns(owner)))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A sum of cents as the database answers it: PostgreSQL's sum of bigint is numeric text, no records sum to null. */
type SummedCents = number | string | null;

/**
 * Every account with its ledger's current and pending balances, oldest first, in one statement:
 * summed from each ledger's month totals (decision 0054), a few dozen records per ledger where
 * summing its rows read every one (about 10 ms at 10,000 rows).
 */
export async function listAccountsWithBalances(db: Database, owner: Caller): Promise<AccountWithBalances[]> {
  const total = (column: 'cleared_cents' | 'settled_cents') =>
    sql<SummedCents>`(select sum(${sql.ref(`ledger_month_totals.${column}`)}) from ledger_month_totals where ledger_month_totals.ledger_id = ledgers.id)`;
  const records = await withLedgerTables(db)
    .selectFrom('accounts')
    .leftJoin('ledgers', 'ledgers.account_id', 'accounts.id')
    .select(ACCOUNT_COLUMNS.map((column) => `accounts.${column}` as const))
    .select(['ledgers.id as ledger_id', 'ledgers.opening_balance_cents'])
    .select([total('cleared_cents').as('cleared'), total('settled_cents').as('paid')])
    .where('accounts.owner_iss', '=', owner.issuer)
    .where('accounts.owner_sub', '=', owner.subject)
    .orderBy('accounts.created_at')
    .orderBy('accounts.id')
    .execute();
  return records.map((record) => {
    const opening = Number(record.opening_balance_cents ?? 0);
    return {
      ...toAccount(record),
      hasLedger: record.ledger_id !== null,
      currentBalance: cents(opening + Number(record.cleared ?? 0)),
      pendingBalance: cents(opening + Number(record.paid ?? 0)),
    };
  });
}
