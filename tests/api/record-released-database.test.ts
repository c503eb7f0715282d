/**
 * Records tests/fixtures/released-database/ from this commit's code (kept in history only: run once,
 * at 65cb5f8, the code of main when migrations were one file, then removed). Writes:
 * schema.json, the schema today's migrations make on SQLite and PostgreSQL and their names; and
 * database.json, every row two users' use of the API stored (SQLite), with the answers it gave.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ACCOUNTS_PATHS, accountSchema, accountsInfoSchema } from '../../src/contract/accounts.js';
import { ACCOUNT_PATHS } from '../../src/contract/account.js';
import { withId } from '../../src/contract/common.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { LEDGER_PATHS, ledgerInfoSchema } from '../../src/contract/ledger.js';
import { NOTIFICATIONS_PATHS } from '../../src/contract/notifications.js';
import { STATEMENT_PATHS } from '../../src/contract/statements.js';
import { TRANSFERS_PATHS } from '../../src/contract/transfers.js';
import { runNotifications } from '../../src/server/app.js';
import { migrations } from '../../src/server/db/migrations.js';
import { createPushSender } from '../../src/server/notifications/push-sender.js';
import { inAccount } from '../support/api-expectations.js';
import { schemaOf } from '../support/database-schema.js';
import { startWebhookReceiver } from '../support/notify-receivers.js';
import { okJson } from '../support/schedule-bodies.js';
import { seedUser } from '../support/seed.js';
import { startTestApp, type UserClient } from '../support/test-app.js';

const OUT = path.resolve('tests/fixtures/released-database');
const TABLES = [
  'accounts',
  'deposits',
  'expenses',
  'ledgers',
  'ledger_transactions',
  'ledger_skipped_occurrences',
  'ledger_imported_rows',
  'ledger_month_totals',
  'statement_accounts',
  'undo_entries',
  'user_settings',
  'notification_channels',
  'notification_outbox',
  'push_vapid_keys',
];
const ENV = { TZ: 'UTC', NOTIFY_ALLOW_PRIVATE_URLS: 'true' };

async function answersOf(user: UserClient): Promise<Record<string, unknown>> {
  const accounts = accountsInfoSchema.parse(okJson(await user.get(ACCOUNTS_PATHS.list))).accounts;
  const answers: Record<string, unknown> = {
    [ACCOUNTS_PATHS.list]: okJson(await user.get(ACCOUNTS_PATHS.list)),
    [DEPOSITS_PATHS.retrieve]: okJson(await user.get(DEPOSITS_PATHS.retrieve)),
    [EXPENSES_PATHS.retrieve]: okJson(await user.get(EXPENSES_PATHS.retrieve)),
    [NOTIFICATIONS_PATHS.settings]: okJson(await user.get(NOTIFICATIONS_PATHS.settings)),
    [NOTIFICATIONS_PATHS.profile]: okJson(await user.get(NOTIFICATIONS_PATHS.profile)),
    [ACCOUNT_PATHS.export]: okJson(await user.get(ACCOUNT_PATHS.export)),
  };
  for (const account of accounts) {
    const ledgerPath = inAccount(LEDGER_PATHS.retrieve, account.id);
    const response = await user.get(ledgerPath);
    answers[ledgerPath] = okJson(response);
  }
  return answers;
}

describe('record the released database', () => {
  it('records the schema on both databases and the rows and answers of two users on SQLite', async () => {
    const receiver = await startWebhookReceiver();
    const test = await startTestApp('sqlite', { env: ENV });
    try {
      const ann = test.as('ann');
      const seeded = await seedUser(ann, 'Ann');
      expect(okJson(await ann.patch(NOTIFICATIONS_PATHS.profile, { timeZone: 'Europe/Berlin' }))).toBeTruthy();
      const savings = accountSchema.parse(okJson(await ann.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
      const visa = accountSchema.parse(
        okJson(
          await ann.post(ACCOUNTS_PATHS.list, {
            name: 'Visa',
            kind: 'CARD',
            card: { closingDay: 15, dueDay: 8, payFromAccountId: seeded.accountId, rule: 'STATEMENT', amount: null, creditLimit: 1000 },
          }),
        ),
      );
      const span = { ledger: { startDate: '2026-11-01', endDate: '2026-12-31', currentBalance: 0 } };
      okJson(await ann.post(inAccount(LEDGER_PATHS.create, savings.id), span));
      okJson(await ann.post(inAccount(LEDGER_PATHS.create, visa.id), span));
      okJson(
        await ann.post(inAccount(LEDGER_PATHS.addTransaction, visa.id), {
          date: '2026-11-10',
          name: 'Groceries',
          type: 'D',
          amount: 82.17,
        }),
      );
      okJson(
        await ann.post(TRANSFERS_PATHS.add, { fromAccountId: seeded.accountId, toAccountId: savings.id, date: '2026-11-27', amount: 150 }),
      );
      expensesInfoSchema.parse(
        okJson(
          await ann.post(EXPENSES_PATHS.add, {
            name: 'Save',
            type: 'Savings',
            day: 5,
            amount: 50,
            endDate: null,
            frequency: 'M',
            startDate: null,
            toAccountId: savings.id,
          }),
        ),
      );
      // A deleted generated row is remembered as a skipped occurrence.
      const ledger = ledgerInfoSchema.parse(okJson(await ann.get(LEDGER_PATHS.retrieve))).ledger;
      const generated = ledger?.transactions.find(
        (row) => row.source !== null && row.status === 'PENDING' && row.name.startsWith('Ann phone'),
      );
      if (!generated) throw new Error('no generated row to delete');
      okJson(await ann.delete(withId(LEDGER_PATHS.transaction, generated.id)));
      okJson(
        await ann.post(STATEMENT_PATHS.import, {
          fileName: 'checking-ofx1-sgml.ofx',
          content: fs.readFileSync('tests/fixtures/statements/checking-ofx1-sgml.ofx', 'utf8'),
        }),
      );
      okJson(
        await ann.post(STATEMENT_PATHS.import, {
          fileName: 'statement.csv',
          content: 'Date,Description,Amount\n2026-11-25,COFFEE,-4.50\n',
        }),
      );
      // Due tomorrow (Sunday 2026-11-22): the day's planning has a bill to tell of.
      okJson(
        await ann.post(EXPENSES_PATHS.add, {
          name: 'Gym',
          type: 'Bill',
          day: 22,
          amount: 30,
          endDate: null,
          frequency: 'M',
          startDate: null,
        }),
      );
      okJson(await ann.put(NOTIFICATIONS_PATHS.settings, { hour: 7, belowZero: true, billsDue: true }));
      okJson(await ann.post(NOTIFICATIONS_PATHS.channels, { kind: 'WEBHOOK', target: receiver.url('/ann') }));
      await runNotifications(test.app);
      await createPushSender(test.app.database, { notifications: { vapidSubject: 'mailto:operator@example.com' } });

      const bob = test.as('bob');
      await seedUser(bob, 'Bob');

      const db = test.app.database.db;
      const tables: { name: string; rows: unknown[] }[] = [];
      for (const name of TABLES) {
        const columns = (await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(db)).rows;
        const order = sql.join(columns.map((_column, index) => sql.lit(index + 1)));
        const rows = (await sql`select * from ${sql.table(name)} order by ${order}`.execute(db)).rows;
        expect(rows.length, name).toBeGreaterThan(0);
        tables.push({ name, rows });
      }
      const answers = { ann: await answersOf(ann), bob: await answersOf(bob) };
      const placeholder = (text: string) => text.split(test.issuer.issuer).join('{{issuer}}').split(receiver.url('')).join('{{webhook}}');
      fs.mkdirSync(OUT, { recursive: true });
      fs.writeFileSync(path.join(OUT, 'database.json'), placeholder(JSON.stringify({ tables, answers }, null, 2)) + '\n');

      const sqliteSchema = await schemaOf(db, 'sqlite');
      let postgresSchema: unknown = null;
      if (process.env.TEST_POSTGRES_URL) {
        const pgTest = await startTestApp('postgres');
        try {
          postgresSchema = await schemaOf(pgTest.app.database.db, 'postgres');
        } finally {
          await pgTest.close();
        }
      }
      const names = (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((row) => row.name);
      expect(names).toEqual(Object.keys(migrations));
      fs.writeFileSync(
        path.join(OUT, 'schema.json'),
        JSON.stringify({ migrations: names, sqlite: sqliteSchema, postgres: postgresSchema }, null, 2) + '\n',
      );
    } finally {
      await test.close();
      await receiver.close();
    }
  });
});
