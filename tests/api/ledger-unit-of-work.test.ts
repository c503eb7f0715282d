/**
 * A ledger write is one unit of work (issue 33, decision 0064), on SQLite and (with
 * TEST_POSTGRES_URL) PostgreSQL: a refusal anywhere in it (the transfer follower, the card
 * follower, the row limit, the caller's own steps) leaves every ledger, version and undo entry
 * exactly as it was; a unit that goes through moves each changed ledger's version once and records
 * one undo entry for all of it; and the row limit counts the unit's net growth. One app per
 * database; each test signs in as its own user, except the two that share an owner at the limit.
 */
import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AccountInfo, accountSchema, ACCOUNTS_PATHS, accountsInfoSchema } from '../../src/contract/accounts.js';
import { withId } from '../../src/contract/common.js';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { type Ledger, LEDGER_PATHS, type LedgerTransaction } from '../../src/contract/ledger.js';
import { TRANSFERS_PATHS } from '../../src/contract/transfers.js';
import { type IsoDate, isoDate } from '../../src/domain/calendar-date.js';
import { MAX_LEDGER_ROWS } from '../../src/domain/limits.js';
import { BLOCK_ROWS } from '../../src/domain/row-blocks.js';
import { cents } from '../../src/domain/money.js';
import type { Caller } from '../../src/server/auth/access-token.js';
import { withLedgerTables } from '../../src/server/db/ledger-tables.js';
import type { LedgerWrite, WritePlan } from '../../src/server/ledger/index.js';
import { inAccount, newSubject, undoToken } from '../support/api-expectations.js';
import { byName, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, type TestApp, type UserClient } from '../support/test-app.js';

const getApp = appsOnEveryDatabase();
const NOVEMBER = { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 500 } };
const UNDO = '/api/undo';
const LIMIT_MESSAGE = (total: number, advice: string) =>
  `A ledger holds at most 20,000 rows: this one would hold ${total.toLocaleString('en-US')}. ${advice}`;

function expectConflict(response: LightMyRequestResponse, message: string | RegExp): void {
  expect(response.statusCode, response.body).toBe(409);
  const body = strictErrorBodySchema.parse(response.json());
  expect(body.error.code).toBe('conflict');
  expect(body.error.message).toMatch(message);
}

interface Owner {
  readonly test: TestApp;
  readonly subject: string;
  readonly user: UserClient;
  readonly caller: Caller;
}

function owner(test: TestApp, prefix: string): Owner {
  const subject = newSubject(prefix);
  return { test, subject, user: test.as(subject), caller: { issuer: test.issuer.issuer, subject } };
}

const ledgerIn = async (user: UserClient, accountId: string): Promise<Ledger> =>
  ledgerOf(await user.get(inAccount(LEDGER_PATHS.retrieve, accountId)));

/** The ETag of each account's ledger, read through a one-row window (the whole of a 20,000-row ledger is not needed). */
async function etags(user: UserClient, accounts: readonly AccountInfo[]): Promise<string[]> {
  return Promise.all(
    accounts.map(async (account) => {
      const response = await user.get(`${inAccount(LEDGER_PATHS.retrieve, account.id)}?limit=1`);
      expect(response.statusCode, response.body).toBe(200);
      const etag = response.headers.etag;
      if (typeof etag !== 'string') throw new Error('a ledger answer without its ETag');
      return etag;
    }),
  );
}

/** Each of the owner's ledgers' stored version, by account id. */
async function versions({ test, subject }: Owner): Promise<Record<string, number>> {
  const rows = await withLedgerTables(test.app.database.db)
    .selectFrom('ledgers')
    .select(['account_id', 'version'])
    .where('owner_iss', '=', test.issuer.issuer)
    .where('owner_sub', '=', subject)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.account_id, Number(row.version)]));
}

async function undoEntries({ test, subject }: Owner): Promise<number> {
  const rows = await withLedgerTables(test.app.database.db)
    .selectFrom('undo_entries')
    .select('seq')
    .where('owner_iss', '=', test.issuer.issuer)
    .where('owner_sub', '=', subject)
    .execute();
  return rows.length;
}

/** Every row the owner holds, across all their ledgers: what the row limit counts. */
async function ownerRows({ test, subject }: Owner): Promise<number> {
  const rows = await withLedgerTables(test.app.database.db)
    .selectFrom('ledger_transactions')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('owner_iss', '=', test.issuer.issuer)
    .where('owner_sub', '=', subject)
    .executeTakeFirstOrThrow();
  return Number(rows.count);
}

/** Whether the row with this id is stored. */
async function rowExists({ test, subject }: Owner, id: string): Promise<boolean> {
  const found = await withLedgerTables(test.app.database.db)
    .selectFrom('ledger_transactions')
    .select('id')
    .where('owner_iss', '=', test.issuer.issuer)
    .where('owner_sub', '=', subject)
    .where('id', '=', id)
    .executeTakeFirst();
  return found !== undefined;
}

/** The names of the owner's rows named like `pattern` (SQL LIKE), in creation order. */
async function namesLike({ test, subject }: Owner, pattern: string): Promise<string[]> {
  const rows = await withLedgerTables(test.app.database.db)
    .selectFrom('ledger_transactions')
    .select('name')
    .where('owner_iss', '=', test.issuer.issuer)
    .where('owner_sub', '=', subject)
    .where('name', 'like', pattern)
    .orderBy('sequence')
    .execute();
  return rows.map((row) => row.name);
}

/** The seeded rows' date and month: inside the ledgers below, before any card payment. */
const SEED_DATE = '2027-01-05';

/**
 * Fills an account's empty ledger with `count` PENDING $1.00 debits on SEED_DATE, numbered 1 to
 * `count`, and answers their ids in that order. One statement: storing 20,000 rows through the API
 * (a restore) takes seconds on PostgreSQL, this a fraction of one. It keeps what the stores keep
 * beside the rows (the month's totals, the row blocks, the next sequence); the test app checks the
 * totals and the blocks against the rows when it closes.
 */
async function seedRows({ test, caller }: Owner, accountId: string, count: number): Promise<string[]> {
  const db = withLedgerTables(test.app.database.db);
  const ledger = await db
    .selectFrom('ledgers')
    .select(['id', 'next_sequence'])
    .where('owner_iss', '=', caller.issuer)
    .where('owner_sub', '=', caller.subject)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  expect(Number(ledger.next_sequence)).toBe(1);
  const prefix = `seed-${crypto.randomUUID()}-`;
  await db.transaction().execute(async (trx) => {
    // In row order (one date, one name) by sequence, so consecutive runs of BLOCK_ROWS make the blocks.
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${sql.lit(count)})
      insert into ledger_transactions (id, ledger_id, owner_iss, owner_sub, sequence, date, name, type, amount_cents, status, version, edited, block)
      select cast(${prefix} as varchar(64)) || cast(i as varchar(12)), ${ledger.id}, ${caller.issuer}, ${caller.subject}, i,
        ${SEED_DATE}, 'Card', 'D', 100, 'PENDING', 1, 0, (i - 1) / ${sql.lit(BLOCK_ROWS)} + 1 from n`.execute(trx);
    await sql`insert into ledger_row_blocks
        (ledger_id, owner_iss, owner_sub, block, rank, low_date, low_type, low_name, low_sequence, row_count, signed_cents)
      select ledger_id, owner_iss, owner_sub, block, block - 1, date, type, name, min(sequence), count(*), sum(-amount_cents)
      from ledger_transactions where ledger_id = ${ledger.id}
      group by ledger_id, owner_iss, owner_sub, block, date, type, name`.execute(trx);
    await trx
      .insertInto('ledger_month_totals')
      .values({
        ledger_id: ledger.id,
        owner_iss: caller.issuer,
        owner_sub: caller.subject,
        month: SEED_DATE.slice(0, 7),
        row_count: count,
        signed_cents: -100 * count,
        cleared_cents: 0,
        settled_cents: 0,
      })
      .execute();
    await trx
      .updateTable('ledgers')
      .set({ next_sequence: count + 1 })
      .where('id', '=', ledger.id)
      .execute();
  });
  return Array.from({ length: count }, (_, index) => `${prefix}${index + 1}`);
}

/** Everything a refused call must leave as it was: the whole database, and each ledger's ETag. */
async function everything({ test, user }: Owner, accounts: readonly AccountInfo[]): Promise<{ snapshot: string; etags: string[] }> {
  return { snapshot: await test.snapshot(), etags: await etags(user, accounts) };
}

async function primaryAccount(user: UserClient): Promise<AccountInfo> {
  const [checking] = accountsInfoSchema.parse(okJson(await user.get(ACCOUNTS_PATHS.list))).accounts;
  if (!checking) throw new Error('no primary account');
  return checking;
}

/** Checking (primary) and Savings, each with a ledger for November and December 2026 and $500. */
async function twoAccounts(user: UserClient): Promise<{ checking: AccountInfo; savings: AccountInfo }> {
  okJson(await user.post(LEDGER_PATHS.create, NOVEMBER));
  const savings = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
  okJson(await user.post(inAccount(LEDGER_PATHS.create, savings.id), NOVEMBER));
  return { checking: await primaryAccount(user), savings };
}

const TRANSFER = 'Transfer to Savings';

/** A one-off $100 transfer Checking -> Savings on 2026-11-25: its debit in Checking. */
async function transferToSavings(user: UserClient, checking: AccountInfo, savings: AccountInfo): Promise<LedgerTransaction> {
  const answer = await user.post(TRANSFERS_PATHS.add, {
    fromAccountId: checking.id,
    toAccountId: savings.id,
    date: '2026-11-25',
    amount: 100,
  });
  return byName(ledgerOf(answer), TRANSFER);
}

const day = (text: string): IsoDate => isoDate(text);

describe.each(databaseKinds())('a ledger write as one unit of work on %s', (kind) => {
  describe('the transfer follower refusing', () => {
    it('refuses an edit of a side whose other side is PAID with 409, leaving both ledgers, versions and the undo journal as they were', async () => {
      const who = owner(getApp(kind), 'unit-transfer-edit');
      const { user } = who;
      const { checking, savings } = await twoAccounts(user);
      const debit = await transferToSavings(user, checking, savings);
      const credit = byName(await ledgerIn(user, savings.id), TRANSFER);
      const paid = await user.patch(inAccount(LEDGER_PATHS.updateTransaction, savings.id), { ...credit, status: 'PAID' });
      const paidUndo = undoToken(paid);

      const before = await everything(who, [checking, savings]);
      const entries = await undoEntries(who);
      for (const edit of [{ amount: 150 }, { name: 'Rainy day' }, { date: '2026-11-26' }]) {
        const refused = await user.patch(LEDGER_PATHS.updateTransaction, { ...debit, ...edit });
        expectConflict(
          refused,
          /^The other side of this transfer, in Savings, is PAID: a transfer's date, name and amount can change only while both sides are PENDING\.$/,
        );
        expect(refused.headers.etag).toBeUndefined();
        expect(await everything(who, [checking, savings])).toEqual(before);
      }
      expect(await undoEntries(who)).toBe(entries);

      // The journal is untouched: the last write's undo still undoes it, and then the edit goes through, on both sides.
      okJson(await user.post(UNDO, { token: paidUndo }));
      okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...debit, amount: 150 }));
      expect(byName(await ledgerIn(user, savings.id), TRANSFER)).toMatchObject({ id: credit.id, amount: 150, status: 'PENDING' });
    });

    it('refuses a delete of a side whose other side is PAID (or CLEARED) with 409, leaving everything as it was', async () => {
      const who = owner(getApp(kind), 'unit-transfer-delete');
      const { user } = who;
      const { checking, savings } = await twoAccounts(user);
      const debit = await transferToSavings(user, checking, savings);
      const credit = byName(await ledgerIn(user, savings.id), TRANSFER);
      okJson(await user.patch(inAccount(LEDGER_PATHS.updateTransaction, savings.id), { ...credit, status: 'PAID' }));

      const paid = await everything(who, [checking, savings]);
      expectConflict(
        await user.delete(withId(LEDGER_PATHS.transaction, debit.id)),
        /^The other side of this transfer, in Savings, is PAID: a transfer can be deleted only while both sides are PENDING\.$/,
      );
      expect(await everything(who, [checking, savings])).toEqual(paid);

      okJson(await user.patch(inAccount(LEDGER_PATHS.updateTransaction, savings.id), { ...credit, status: 'CLEARED' }));
      const cleared = await everything(who, [checking, savings]);
      expectConflict(await user.delete(withId(LEDGER_PATHS.transaction, debit.id)), /in Savings, is CLEARED/);
      expect(await everything(who, [checking, savings])).toEqual(cleared);
      expect((await ledgerIn(user, checking.id)).transactions.map((row) => row.id)).toEqual([debit.id]);
    });
  });

  describe('a unit run through the app’s LedgerWrites', () => {
    /**
     * Checking and Savings with a transfer between them, and a unit that adds a row to each ledger
     * and edits the transfer's debit (so the follower edits its credit in Savings too).
     */
    async function transferOwner(prefix: string) {
      const who = owner(getApp(kind), prefix);
      const { checking, savings } = await twoAccounts(who.user);
      const debit = await transferToSavings(who.user, checking, savings);
      const apply = async (write: LedgerWrite) => {
        const checkingStore = await write.store({ id: checking.id });
        const savingsStore = await write.store({ id: savings.id });
        await checkingStore.insert([{ date: day('2026-11-10'), name: 'Coffee', type: 'D', amount: cents(450) }]);
        await savingsStore.insert([{ date: day('2026-11-30'), name: 'Interest', type: 'C', amount: cents(125) }]);
        const stored = (await checkingStore.rows()).find((row) => row.id === debit.id);
        if (!stored) throw new Error('the transfer debit is not stored');
        expect(
          await checkingStore.update(stored, { date: stored.date, name: stored.name, amount: cents(12_345), status: 'PENDING' }, true),
        ).toBe(true);
        // A second write of the same ledger in the same unit: its version still moves once.
        await checkingStore.insert([{ date: day('2026-11-11'), name: 'Tea', type: 'D', amount: cents(300) }]);
      };
      return { who, checking, savings, debit, apply };
    }

    const UNDOABLE: WritePlan = { growth: 'add', undo: 'addTransaction' };

    it.each(['apply', 'beforeUndo', 'answer'] as const)(
      'rolls back every ledger, version and undo entry when %s throws after the writes and the followers',
      async (failing) => {
        const { who, checking, savings, apply } = await transferOwner(`unit-throws-${failing}`);
        const before = await everything(who, [checking, savings]);
        const storedVersions = await versions(who);
        const failure = new Error(`${failing} failed`);
        const run = who.test.app.ledgerWrites.run(who.caller, UNDOABLE, {
          apply: async (write) => {
            await apply(write);
            if (failing === 'apply') throw failure;
          },
          beforeUndo: async (write) => {
            // The followers ran before it: the credit in Savings already follows the edit.
            const credit = (await (await write.store({ id: savings.id })).rows()).find((row) => row.name === TRANSFER);
            expect(credit?.amount).toBe(12_345);
            if (failing === 'beforeUndo') throw failure;
          },
          answer: async (_write, _applied, undo) => {
            expect(undo).toEqual(expect.any(String));
            if (failing === 'answer') throw failure;
            return undo;
          },
        });
        await expect(run).rejects.toBe(failure);
        expect(await everything(who, [checking, savings])).toEqual(before);
        expect(await versions(who)).toEqual(storedVersions);
      },
    );

    it('moves each changed ledger’s version exactly once and records one undo entry that undoes both ledgers', async () => {
      const { who, checking, savings, debit, apply } = await transferOwner('unit-commits');
      const { user } = who;
      const ledgersBefore = [await ledgerIn(user, checking.id), await ledgerIn(user, savings.id)];
      const before = await everything(who, [checking, savings]);
      const storedVersions = await versions(who);
      const entries = await undoEntries(who);

      const token = await who.test.app.ledgerWrites.run(who.caller, UNDOABLE, {
        apply,
        answer: async (_write, _applied, undo) => undo,
      });
      expect(token).toEqual(expect.any(String));
      expect(await versions(who)).toEqual({
        [checking.id]: (storedVersions[checking.id] ?? 0) + 1,
        [savings.id]: (storedVersions[savings.id] ?? 0) + 1,
      });
      expect(await undoEntries(who)).toBe(entries + 1);
      const etagsAfter = await etags(user, [checking, savings]);
      expect(etagsAfter[0]).not.toBe(before.etags[0]);
      expect(etagsAfter[1]).not.toBe(before.etags[1]);
      const checkingAfter = await ledgerIn(user, checking.id);
      const savingsAfter = await ledgerIn(user, savings.id);
      expect(checkingAfter.transactions.map((row) => [row.name, row.amount])).toEqual([
        ['Coffee', 4.5],
        ['Tea', 3],
        [TRANSFER, 123.45],
      ]);
      expect(byName(checkingAfter, TRANSFER).id).toBe(debit.id);
      expect(savingsAfter.transactions.map((row) => [row.name, row.amount])).toEqual([
        [TRANSFER, 123.45],
        ['Interest', 1.25],
      ]);

      // The one entry holds both ledgers: undoing it puts both back.
      okJson(await user.post(UNDO, { token }));
      expect([await ledgerIn(user, checking.id), await ledgerIn(user, savings.id)]).toEqual(ledgersBefore);

      // A plan that is not undoable records no entry, and still moves each version once.
      const undone = await versions(who);
      const entriesNow = await undoEntries(who);
      const none = await who.test.app.ledgerWrites.run(
        who.caller,
        { growth: 'add', undo: null },
        { apply, answer: async (_w, _a, undo) => undo },
      );
      expect(none).toBeUndefined();
      expect(await undoEntries(who)).toBe(entriesNow);
      expect(await versions(who)).toEqual({ [checking.id]: (undone[checking.id] ?? 0) + 1, [savings.id]: (undone[savings.id] ?? 0) + 1 });
    });

    it('moves no version and records no entry for a unit that writes nothing', async () => {
      const { who, checking, savings } = await transferOwner('unit-nothing');
      const before = await everything(who, [checking, savings]);
      const token = await who.test.app.ledgerWrites.run(who.caller, UNDOABLE, {
        apply: async (write) => {
          await write.store({ id: checking.id });
          await write.store({ id: savings.id });
        },
        answer: async (_write, _applied, undo) => undo,
      });
      expect(token).toBeUndefined();
      expect(await everything(who, [checking, savings])).toEqual(before);
    });
  });

  /**
   * One owner at exactly MAX_LEDGER_ROWS: Checking with 19,996 seeded rows, and a Visa card paid
   * from Checking with two December charges, whose $250 payment is a pair (one row in each
   * ledger). Built once for the two tests below, which each leave the owner at the limit.
   */
  describe('at the row limit', () => {
    let who: Owner;
    let checking: AccountInfo;
    let visa: AccountInfo;
    let seeded: string[];
    beforeAll(async () => {
      who = owner(getApp(kind), 'unit-at-limit');
      const { user } = who;
      const span = { startDate: '2026-12-01', endDate: '2027-06-30', currentBalance: 0 };
      okJson(await user.post(LEDGER_PATHS.create, { ledger: span }));
      checking = await primaryAccount(user);
      seeded = await seedRows(who, checking.id, MAX_LEDGER_ROWS - 4);
      visa = accountSchema.parse(
        okJson(
          await user.post(ACCOUNTS_PATHS.list, {
            name: 'Visa',
            kind: 'CARD',
            card: { closingDay: 15, dueDay: 8, payFromAccountId: checking.id, rule: 'STATEMENT', amount: null, creditLimit: 1000 },
          }),
        ),
      );
      okJson(await user.post(inAccount(LEDGER_PATHS.create, visa.id), { ledger: span }));
      for (const [date, amount] of [
        ['2026-12-10', 200],
        ['2026-12-12', 50],
      ] as const) {
        okJson(await user.post(inAccount(LEDGER_PATHS.addTransaction, visa.id), { date, name: 'Groceries', type: 'D', amount }));
      }
      expect(await ownerRows(who)).toBe(MAX_LEDGER_ROWS);
    });

    const cardPayments = async () =>
      (await ledgerIn(who.user, visa.id)).transactions.filter((row) => row.name === 'Visa payment').map((row) => [row.date, row.amount]);

    it('refuses a charge’s edit whose new card payment would pass the limit (409, the limit’s message), changing nothing', async () => {
      const { user } = who;
      expect(await cardPayments()).toEqual([['2027-01-08', 250]]);
      const second = byName(await ledgerIn(user, visa.id), 'Groceries', '2026-12-12');
      // Moving it onto January's statement: December's payment is projected again ($200), January's is a new pair ($50).
      const moved = { ...second, date: '2027-01-10' };
      const before = await everything(who, [checking, visa]);
      const entries = await undoEntries(who);
      const refused = await user.patch(`${inAccount(LEDGER_PATHS.updateTransaction, visa.id)}?answer=changes`, moved);
      expectConflict(refused, LIMIT_MESSAGE(MAX_LEDGER_ROWS + 2, 'Shorten the ledger or remove other schedules first.'));
      expect(await everything(who, [checking, visa])).toEqual(before);
      expect(await undoEntries(who)).toBe(entries);
      expect(await ownerRows(who)).toBe(MAX_LEDGER_ROWS);

      // With two rows of room, the same edit goes through and brings both payments.
      // (Answering the changes, not the whole 20,000-row ledger.)
      for (const id of seeded.slice(-2)) okJson(await user.delete(`${withId(LEDGER_PATHS.transaction, id)}?answer=changes`));
      okJson(await user.patch(inAccount(LEDGER_PATHS.updateTransaction, visa.id), moved));
      expect(await cardPayments()).toEqual([
        ['2027-01-08', 200],
        ['2027-02-08', 50],
      ]);
      expect(await ownerRows(who)).toBe(MAX_LEDGER_ROWS);
    });

    it('counts a unit’s net growth: k rows deleted then k added goes through at the limit, k + 1 is refused and changes nothing', async () => {
      const { test, caller } = who;
      expect(await ownerRows(who)).toBe(MAX_LEDGER_ROWS);
      const k = 3;
      const plan: WritePlan = { growth: 'add', undo: 'addTransaction' };
      /** Seeded rows that units which went through deleted: each unit deletes the next ones. */
      let deleted = 0;
      /** A unit on Checking's ledger that deletes and adds rows, step by step; rows added are named `${label} 0`, `${label} 1`... */
      const unit = (label: string, steps: readonly ({ readonly delete: number } | { readonly add: number })[]) =>
        test.app.ledgerWrites.run(caller, plan, {
          apply: async (write) => {
            const store = await write.store({ id: checking.id });
            let next = deleted;
            let added = 0;
            for (const step of steps) {
              if ('delete' in step) {
                const rows = await Promise.all(seeded.slice(next, next + step.delete).map((id) => store.row(id)));
                const stored = rows.filter((row) => row !== undefined);
                expect(stored).toHaveLength(step.delete);
                await store.deleteRows(stored);
                next += step.delete;
              } else {
                const names = Array.from({ length: step.add }, () => `${label} ${added++}`);
                await store.insert(names.map((name) => ({ date: day('2027-02-01'), name, type: 'D' as const, amount: cents(100) })));
              }
            }
            return next;
          },
          answer: async (_write, next, undo) => {
            deleted = next;
            return undo;
          },
        });
      const refusal = (total: number) => LIMIT_MESSAGE(total, 'Create a shorter ledger first.');

      const before = await everything(who, [checking, visa]);
      await expect(unit('Over', [{ delete: k }, { add: k + 1 }])).rejects.toThrow(refusal(MAX_LEDGER_ROWS + 1));
      expect(await everything(who, [checking, visa])).toEqual(before);
      // The limit is asked as rows are added: rows taken away after them make no room for them.
      await expect(unit('Early', [{ add: k }, { delete: k }])).rejects.toThrow(refusal(MAX_LEDGER_ROWS + k));
      expect(await test.snapshot()).toBe(before.snapshot);

      expect(await unit('Swap', [{ delete: k }, { add: k }])).toEqual(expect.any(String));
      expect(await ownerRows(who)).toBe(MAX_LEDGER_ROWS);
      expect(await namesLike(who, 'Swap %')).toEqual(['Swap 0', 'Swap 1', 'Swap 2']);
      expect(await Promise.all(seeded.slice(0, k + 1).map((id) => rowExists(who, id)))).toEqual([false, false, false, true]);
      const [checkingEtag, visaEtag] = await etags(who.user, [checking, visa]);
      expect(checkingEtag).not.toBe(before.etags[0]);
      // Only Checking's rows changed: the card's ledger keeps its version.
      expect(visaEtag).toBe(before.etags[1]);

      // One row below the limit: a unit that grows by one first, then takes k away, has room for k more, not k + 1.
      okJson(await who.user.delete(`${withId(LEDGER_PATHS.transaction, seeded[seeded.length - 3] ?? '')}?answer=changes`));
      const below = await test.snapshot();
      await expect(unit('Past', [{ add: 1 }, { delete: k }, { add: k + 1 }])).rejects.toThrow(refusal(MAX_LEDGER_ROWS + 1));
      expect(await test.snapshot()).toBe(below);
      expect(await unit('Room', [{ add: 1 }, { delete: k }, { add: k }])).toEqual(expect.any(String));
      expect(await ownerRows(who)).toBe(MAX_LEDGER_ROWS);
      expect(await namesLike(who, 'Room %')).toEqual(['Room 0', 'Room 1', 'Room 2', 'Room 3']);
    });
  });
});
