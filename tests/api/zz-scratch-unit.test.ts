import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { isoDate } from '../../src/domain/calendar-date.js';
import { cents } from '../../src/domain/money.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase } from '../support/test-app.js';

const getApp = appsOnEveryDatabase();
describe.each(databaseKinds())('%s', (kind) => {
  it('times', async () => {
    const test = getApp(kind);
    const caller = { issuer: test.issuer.issuer, subject: 'a' };
    const user = test.as('a');
    let t = Date.now();
    expect((await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-12-01', endDate: '2027-06-30', currentBalance: 0 } })).statusCode).toBe(200);
    console.log(kind, 'create', Date.now() - t); t = Date.now();
    for (const n of [1, 2]) {
    await test.app.ledgerWrites.run(caller, { growth: 'restore', undo: null, follow: false }, {
      apply: async (write) => {
        const store = await write.store('primary');
        await store.insert(Array.from({ length: 9_000 }, () => ({ date: isoDate('2027-01-05'), name: 'Card', type: 'D' as const, amount: cents(100) })));
      },
      answer: async () => undefined,
    });
    console.log(kind, 'unit insert', n, Date.now() - t); t = Date.now();
    }
    if (kind === 'postgres') {
      await sql`create table zz as select g as id, 'x' as name from generate_series(1, 20000) g`.execute(test.app.database.db);
      console.log(kind, 'gen', Date.now() - t); t = Date.now();
    }
    await test.snapshot();
    console.log(kind, 'snapshot', Date.now() - t); t = Date.now();
  });
});
