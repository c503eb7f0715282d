/**
 * Issue 34 through the API, on SQLite and (with TEST_POSTGRES_URL) PostgreSQL: a write costs about
 * the same whatever the ledger's shape. One user restores three ledgers of 3,000 rows (one restore):
 * spread over five years, all in one month, all on one day.
 *  - A Pay, a rename, an add and a delete (`?answer=changes`) make the database hand the server about
 *    as many rows on the one-month and one-day ledgers as on the spread one (rows counted by a query
 *    observer, each row of a rows aggregate counted), and each answer is the one a full read after it
 *    gives. Before the row blocks of decision 0066, the one-month ledger's Pay read all 3,000 rows.
 *  - A statement's 150 rows on the crowded day, a bank date that moves a row, and the import's undo
 *    cut and merge blocks; every changes answer after them is still exact (and the test app checks
 *    every block against the rows when it closes).
 *  - A write is charged by the rows it touched past the first 100, as reads are by the rows they read.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS_PATHS, accountsInfoSchema } from '../../src/contract/accounts.js';
import { withId } from '../../src/contract/common.js';
import { type Ledger, ledgerEtag, LEDGER_PATHS, type LedgerTransaction, versionOfEtag } from '../../src/contract/ledger.js';
import { STATEMENT_PATHS, statementImportSchema } from '../../src/contract/statements.js';
import { YOUR_DATA_PATHS } from '../../src/contract/your-data.js';
import { addDays, isoDate } from '../../src/domain/calendar-date.js';
import { inAccount, newSubject, undoToken } from '../support/api-expectations.js';
import { okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

const ROWS = 3000;
const SHAPES = ['spread', 'month', 'day'] as const;
type Shape = (typeof SHAPES)[number];
const START = '2027-01-01';
const CROWDED_DAY = '2027-01-15';
const UNDO = '/api/undo';

/**
 * Rows the database hands the server: one per record, and for a rows aggregate (ledger-reads.ts:
 * one record whose text is a JSON array of row tuples) one per tuple.
 */
class RowsRead implements KyselyPlugin {
  rows = 0;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const record of args.result.rows) this.rows += rowsIn(record);
    return args.result;
  }
}

function rowsIn(record: UnknownRow): number {
  for (const value of Object.values(record)) {
    if (typeof value !== 'string' || !value.startsWith('[')) continue;
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed) && parsed.every(Array.isArray)) return parsed.length;
  }
  return 1;
}

function rowDate(shape: Shape, index: number): string {
  if (shape === 'day') return CROWDED_DAY;
  const days = shape === 'spread' ? 1826 : 31;
  return addDays(isoDate(START), Math.floor((index * days) / ROWS));
}

/** A restore document: three accounts, each with a ledger of ROWS pending rows of the shape it is named after. */
function shapesDocument() {
  const createdAt = '2026-11-21T12:00:00.000Z';
  return {
    format: 'leftover-export',
    version: 2,
    exportedAt: createdAt,
    accounts: SHAPES.map((shape, position) => ({
      id: `account-${shape}`,
      name: shape,
      kind: 'CHECKING',
      primary: position === 0,
      card: null,
      createdAt,
      ledger: {
        startDate: START,
        endDate: shape === 'spread' ? '2031-12-31' : '2027-01-31',
        openingBalance: 10_000,
        nextSequence: ROWS + 1,
        transactions: Array.from({ length: ROWS }, (_, index) => ({
          id: `${shape}-${index}`,
          sequence: index + 1,
          date: rowDate(shape, index),
          name: `Bill ${String(index % 97).padStart(3, '0')}`,
          type: index % 10 === 0 ? 'C' : 'D',
          // One row of a unique amount, for the statement to match on another date.
          amount: index === 2345 ? 4321 : 1 + (index % 50),
          status: 'PENDING',
          source: null,
        })),
        skippedOccurrences: [],
        importedStatementRows: [],
        removedSchedules: [],
      },
    })),
    deposits: [],
    expenses: [],
  };
}

function versionOf(response: LightMyRequestResponse): string {
  const version = versionOfEtag((response.headers.etag as string | undefined) ?? null);
  if (version === null) throw new Error(`no ledger ETag: ${response.body.slice(0, 200)}`);
  return version;
}

function remainingOf(response: LightMyRequestResponse): number {
  return Number(response.headers['x-ratelimit-remaining']);
}

/** The changes answer a full read after the write gives, as text, in decision 0030's shape and key order (as ledger-scale.test.ts). */
function changesFromWholeRead(
  basedOn: string,
  ledger: Ledger,
  version: string,
  changed: ReadonlySet<string>,
  removed: readonly string[],
): string {
  const rows = ledger.transactions.flatMap((row, position) => (changed.has(row.id) ? [{ ...row, position }] : []));
  return JSON.stringify({
    changes: {
      basedOn,
      version,
      startDate: ledger.startDate,
      endDate: ledger.endDate,
      openingBalance: ledger.openingBalance,
      currentBalance: ledger.currentBalance,
      pendingBalance: ledger.pendingBalance,
      count: ledger.transactions.length,
      rows,
      removed,
    },
  });
}

describe.each(databaseKinds())('a write costs about the same whatever the ledger’s shape, on %s', (kind) => {
  const reads = new RowsRead();
  let test: TestApp;
  let user: UserClient;
  const accounts = new Map<Shape, string>();

  beforeAll(async () => {
    // Checking the restore's 9,000 rows in a worker may take longer than its 10 s on a busy machine; and
    // the budget's window outlasts the file, so no new window starts between two counts of what is left.
    test = await startTestApp(kind, {
      queryObserver: reads,
      env: { FILE_WORKER_TIMEOUT_MS: '60000' },
      rateLimit: { windowMs: 60 * 60 * 1000 },
    });
    user = test.as(newSubject('shapes'));
    okJson(await user.post(YOUR_DATA_PATHS.restore, shapesDocument()));
    for (const account of accountsInfoSchema.parse(okJson(await user.get(ACCOUNTS_PATHS.list))).accounts)
      accounts.set(account.name as Shape, account.id);
  });
  afterAll(() => test?.close());

  function accountOf(shape: Shape): string {
    const id = accounts.get(shape);
    if (!id) throw new Error(`no ${shape} account`);
    return id;
  }

  async function readWhole(shape: Shape): Promise<{ ledger: Ledger; version: string }> {
    const response = await user.get(inAccount(LEDGER_PATHS.retrieve, accountOf(shape)));
    return { ledger: (okJson(response) as { ledger: Ledger }).ledger, version: versionOf(response) };
  }

  /**
   * Makes a write with `?answer=changes`, checks its answer against a full read after it, and answers
   * the rows the database handed the server for the write alone.
   */
  async function measuredWrite(
    shape: Shape,
    write: (ledger: Ledger) => { method: 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown; changed?: string; removed?: string },
  ): Promise<number> {
    const before = await readWhole(shape);
    const { method, path, body, changed, removed } = write(before.ledger);
    reads.rows = 0;
    const response = await user.request(method, `${inAccount(path, accountOf(shape))}?answer=changes`, body, {
      'if-match': ledgerEtag(before.version),
    });
    const rowsRead = reads.rows;
    expect(response.statusCode, response.body).toBe(200);
    const after = await readWhole(shape);
    const known = new Set(before.ledger.transactions.map((row) => row.id));
    const added = after.ledger.transactions.filter((row) => !known.has(row.id)).map((row) => row.id);
    const changedIds = new Set([...(changed === undefined ? [] : [changed]), ...added]);
    expect(response.body).toBe(
      changesFromWholeRead(before.version, after.ledger, after.version, changedIds, removed === undefined ? [] : [removed]),
    );
    return rowsRead;
  }

  /** The pending row at the middle of the ledger, in row order. */
  function middle(ledger: Ledger, skip = 0): LedgerTransaction {
    const pending = ledger.transactions.filter((row) => row.status === 'PENDING');
    const row = pending[Math.floor(pending.length / 2) + skip];
    if (!row) throw new Error('no pending row');
    return row;
  }

  it('reads about as many rows for a Pay, a rename, an add and a delete on a one-month or one-day ledger as on a spread one', async () => {
    const counts = new Map<Shape, Record<string, number>>();
    for (const shape of SHAPES) {
      const pay = await measuredWrite(shape, (ledger) => {
        const row = middle(ledger);
        return { method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: { ...row, status: 'PAID' }, changed: row.id };
      });
      const rename = await measuredWrite(shape, (ledger) => {
        const row = middle(ledger, 7);
        return { method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: { ...row, name: 'Aardvark Insurance' }, changed: row.id };
      });
      const add = await measuredWrite(shape, () => ({
        method: 'POST',
        path: LEDGER_PATHS.addTransaction,
        body: { date: CROWDED_DAY, name: 'Bill 050', type: 'D', amount: 12.34 },
      }));
      const remove = await measuredWrite(shape, (ledger) => {
        const row = middle(ledger, 13);
        return { method: 'DELETE', path: withId(LEDGER_PATHS.transaction, row.id), removed: row.id };
      });
      counts.set(shape, { pay, rename, add, remove });
    }
    const spread = counts.get('spread') ?? {};
    for (const shape of ['month', 'day'] as const) {
      const crowded = counts.get(shape) ?? {};
      for (const [write, rows] of Object.entries(crowded)) {
        const spreadRows = spread[write] ?? 0;
        expect(rows, `${write} on the ${shape} ledger read ${rows} rows, on the spread one ${spreadRows}`).toBeLessThanOrEqual(
          2 * spreadRows,
        );
      }
    }
  });

  it('cuts and merges blocks as a statement’s rows come onto the crowded day and an undo takes them away; each answer stays exact', async () => {
    const day = accountOf('day');
    const lines = Array.from(
      { length: 150 },
      (_, index) => `DEBIT,01/15/2027,"Aaa ${String(index).padStart(3, '0')}",-${777 + index}.01,DEBIT_CARD,,,`,
    );
    // The bank takes the one $4,321.00 debit two days late: its row moves to the end of row order.
    lines.push('DEBIT,01/17/2027,"LATE PAYMENT",-4321.00,ACH_DEBIT,,,');
    const content = `Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n${lines.join('\n')}\n`;
    const importing = await user.post(inAccount(STATEMENT_PATHS.import, day), { fileName: 'crowded.csv', content });
    expect(statementImportSchema.parse(okJson(importing)).imported).toMatchObject({ added: 150, matched: 1 });
    const late = (await readWhole('day')).ledger.transactions.find((row) => row.date === '2027-01-17');
    expect(late).toMatchObject({ status: 'CLEARED', amount: 4321 });
    // The statement's rows are CLEARED: a Pay of the first pending row after them, in a block they were cut into,
    // and a rename that takes the next one across the whole day.
    await measuredWrite('day', (ledger) => {
      const row = ledger.transactions.find((candidate) => candidate.status === 'PENDING') as LedgerTransaction;
      return { method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: { ...row, status: 'PAID' }, changed: row.id };
    });
    await measuredWrite('day', (ledger) => {
      const row = ledger.transactions.find((candidate) => candidate.status === 'PENDING') as LedgerTransaction;
      return { method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: { ...row, name: 'Zebra' }, changed: row.id };
    });

    okJson(await user.post(UNDO, { token: undoToken(importing) }));
    const { ledger } = await readWhole('day');
    expect(ledger.transactions.filter((row) => row.name.startsWith('Aaa'))).toEqual([]);
    await measuredWrite('day', (current) => {
      const row = current.transactions.find((candidate) => candidate.status === 'PENDING') as LedgerTransaction;
      return { method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: { ...row, status: 'CLEARED' }, changed: row.id };
    });
    await measuredWrite('day', (current) => {
      const row = current.transactions.at(-1) as LedgerTransaction;
      return { method: 'PATCH', path: LEDGER_PATHS.updateTransaction, body: { ...row, name: 'Aaa first again' }, changed: row.id };
    });
  });

  it('charges a write by the rows it touched past the first 100: a Pay 1 call, deleting a 3,000-row account 1 + 29', async () => {
    const before = remainingOf(await user.get('/api/me'));
    const { ledger } = await readWhole('month');
    const afterRead = remainingOf(await user.get('/api/me'));
    const row = middle(ledger);
    const paid = await user.patch(`${inAccount(LEDGER_PATHS.updateTransaction, accountOf('month'))}?answer=changes`, {
      ...row,
      status: 'PAID',
    });
    okJson(paid);
    expect(afterRead - remainingOf(paid)).toBe(1);
    const count = ledger.transactions.length;
    expect(before - afterRead).toBe(1 + 1 + Math.ceil(count / 100));

    // The first test added a row to it and deleted another.
    const deleted = await user.request('DELETE', withId(ACCOUNTS_PATHS.one, accountOf('spread')), { confirm: 'spread' });
    okJson(deleted);
    expect(remainingOf(paid) - remainingOf(deleted)).toBe(1 + Math.ceil((ROWS - 100) / 100));
  });
});
