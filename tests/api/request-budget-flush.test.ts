/**
 * The shared request budgets (decision 0071) on PostgreSQL: a call's count includes every charge this
 * process already made for its key, even one a background flush has taken and not yet committed.
 * Before the fix a call that came during a flush was counted first and answered a count 30 short
 * (fresh-clone CI, ledger-write-cost.test.ts: "expected 2 to be 32").
 *
 * The flush is held on purpose: another connection locks a key the flush reaches before the caller's,
 * so the flush has taken the caller's charge from memory but not written it when the call comes.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDatabase } from '../../src/server/db/database.js';
import { RequestBudgetStore } from '../../src/server/operations/request-budget-store.js';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/test-databases.js';

const WINDOW_MS = 60 * 60 * 1000;
const MAX = 1_000_000;

function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

const postgres = databaseKinds().includes('postgres');

describe.runIf(postgres)('a shared budget on postgres, while its charges after the fact are being flushed', () => {
  let database: TestDatabase;
  let open: OpenDatabase;
  let locker: pg.Client;
  const backgroundErrors: unknown[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    open = await openDatabase({ kind: 'postgres', url: database.url });
    locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
  });

  afterAll(async () => {
    await locker?.end();
    await open?.close();
    await database?.drop();
  });

  it('counts a call after the flush that took its key’s charges, not before it', async () => {
    const store = new RequestBudgetStore(open.db, (error) => backgroundErrors.push(error));
    try {
      // Both keys have a row; the other key's charge is kept first, so the flush's one statement reaches it first.
      await store.add('user', 'other', 1, WINDOW_MS, MAX);
      expect((await store.add('user', 'caller', 1, WINDOW_MS, MAX)).count).toBe(1);
      store.addAfter('user', 'other', 5, WINDOW_MS);
      store.addAfter('user', 'caller', 30, WINDOW_MS);

      await locker.query('begin');
      await locker.query('select count from request_budget_counts where key_hash = $1 for update', [keyHash('other')]);
      // The flush (within a second) takes both charges from memory and waits on the locked row.
      await expect
        .poll(
          async () =>
            Number(
              (
                await locker.query<{ waiting: string }>(
                  "select count(*) as waiting from pg_stat_activity where wait_event_type = 'Lock' and query like '%request_budget_counts%'",
                )
              ).rows[0]?.waiting,
            ),
          { timeout: 5_000, interval: 100 },
        )
        .toBe(1);

      let answered = false;
      const call = store.add('user', 'caller', 1, WINDOW_MS, MAX).then((charge) => {
        answered = true;
        return charge;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The call waits for the flush rather than being counted around it.
      expect(answered).toBe(false);
      await locker.query('commit');
      expect((await call).count).toBe(1 + 30 + 1);
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await store.close();
    }
    expect(backgroundErrors).toEqual([]);
  });
});
