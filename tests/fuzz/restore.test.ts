/**
 * Restore against documents that are almost right (issue 34 item 8): fast-check takes the export
 * of a user with every kind of row (accounts, a card, a transfer, schedules, a ledger with paid,
 * cleared, hand-added, imported and skipped rows) and changes it in one to three places: a value
 * replaced by a hostile one, a key removed, a row repeated or an id moved to another row. Another
 * user restores the result. Whatever the document:
 *  - the answer is 200 with the counts, or a refusal the contract names (400 per field, 413), with
 *    the strict error body; never a 5xx;
 *  - a refusal changes nothing: every table of the database is as before, byte for byte;
 *  - a restore that is accepted leaves data that exports and restores again to the same reads
 *    (the document the server keeps is one it would accept itself), and the first user's data is
 *    untouched either way.
 * Runs: FUZZ_RUNS / 10 per database (20 in `npm test`, 200 under `npm run fuzz`); a failure prints
 * fast-check's seed and the shrunk change.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AccountInfo, accountSchema, ACCOUNTS_PATHS } from '../../src/contract/accounts.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { withId } from '../../src/contract/common.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { STATEMENT_PATHS } from '../../src/contract/statements.js';
import { TRANSFERS_PATHS } from '../../src/contract/transfers.js';
import { YOUR_DATA_PATHS, yourDataCountsSchema } from '../../src/contract/your-data.js';
import { inAccount } from '../support/api-expectations.js';
import { byName, depositInput, expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { appsOnEveryDatabase, type UserClient } from '../support/test-app.js';

const RUNS = Math.max(1, Math.round(Number(process.env.FUZZ_RUNS ?? 200) / 10));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Values a restore must check: wrong types, near misses, and strings no field should keep. */
const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\u16fe4',
    '2026-02-30',
    '2026-13-01',
    '99999-01-01',
    '1e400',
    'NaN',
    '<script>alert(1)</script>',
    "'; DROP TABLE ledger_transactions; --",
    '__proto__',
    -1,
    0,
    0.001,
    1e15,
    -1e15,
    2_147_483_648,
    Number.MAX_SAFE_INTEGER,
    1.005,
    true,
    null,
    [],
    {},
  ),
  fc.string({ minLength: 200, maxLength: 400 }),
);

/** Every place in the document, as a path of keys and indexes, with the value found there. */
function placesIn(document: Json): { path: (string | number)[]; value: Json }[] {
  const places: { path: (string | number)[]; value: Json }[] = [];
  const pending: { path: (string | number)[]; value: Json }[] = [{ path: [], value: document }];
  // A loop with its own stack, not recursion: the document's depth decides nothing here.
  while (pending.length > 0) {
    const place = pending.pop() as { path: (string | number)[]; value: Json };
    places.push(place);
    const { value } = place;
    if (Array.isArray(value)) value.forEach((item, index) => pending.push({ path: [...place.path, index], value: item }));
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) pending.push({ path: [...place.path, key], value: item });
    }
  }
  return places;
}

type Change =
  | { kind: 'replace'; place: number; value: Json }
  | { kind: 'nudge'; place: number; text: string; delta: number }
  | { kind: 'remove'; place: number }
  | { kind: 'repeat'; place: number }
  | { kind: 'copy'; from: number; to: number };

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), place: fc.nat(), value: hostileValue }),
  // A value of the same type, a little off: most of these are documents a restore may accept.
  fc.record({
    kind: fc.constant('nudge' as const),
    place: fc.nat(),
    text: fc.string({ maxLength: 12 }),
    delta: fc.integer({ min: -500, max: 500 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), place: fc.nat() }),
  fc.record({ kind: fc.constant('repeat' as const), place: fc.nat() }),
  fc.record({ kind: fc.constant('copy' as const), from: fc.nat(), to: fc.nat() }),
);

/** The document with one change made at a place picked among all of its places (the root excluded). */
function changed(document: Json, edit: Change): Json {
  const copy = structuredClone(document);
  const places = placesIn(copy).slice(1);
  const pick = (index: number) => places[index % places.length] as { path: (string | number)[]; value: Json };
  const parentOf = (path: (string | number)[]): Json => path.slice(0, -1).reduce<Json>((node, key) => (node as never)[key], copy);
  const setAt = (path: (string | number)[], value: Json) => {
    (parentOf(path) as Record<string | number, Json>)[path[path.length - 1] as string | number] = value;
  };
  switch (edit.kind) {
    case 'replace':
      setAt(pick(edit.place).path, edit.value);
      break;
    case 'nudge': {
      const { path, value } = pick(edit.place);
      if (typeof value === 'string') setAt(path, edit.delta % 2 === 0 ? `${value}${edit.text}` : edit.text);
      else if (typeof value === 'number') setAt(path, value + edit.delta);
      else if (typeof value === 'boolean') setAt(path, !value);
      break;
    }
    case 'remove': {
      const { path } = pick(edit.place);
      const parent = parentOf(path);
      const key = path[path.length - 1] as string | number;
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else Reflect.deleteProperty(parent as Record<string, Json>, key);
      break;
    }
    case 'repeat': {
      const { path, value } = pick(edit.place);
      const parent = parentOf(path);
      if (Array.isArray(parent)) parent.push(structuredClone(value));
      else setAt(path, [structuredClone(value), structuredClone(value)]);
      break;
    }
    case 'copy': {
      const from = pick(edit.from);
      setAt(pick(edit.to).path, structuredClone(from.value));
      break;
    }
  }
  return copy;
}

/** A user with every kind of row a restore carries. */
async function userWithEverything(user: UserClient): Promise<void> {
  okJson(await user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1000, startDate: '2026-11-06', frequency: 'BW' })));
  okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 1500, day: 1 })));
  okJson(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2026-11-01', endDate: '2027-01-31', currentBalance: 100.05 } }));
  okJson(await user.post(LEDGER_PATHS.addTransaction, { date: '2026-11-25', name: 'Twin', type: 'D', amount: 1 }));
  const ledger = ledgerOf(await user.get(LEDGER_PATHS.retrieve));
  okJson(await user.patch(LEDGER_PATHS.updateTransaction, { ...byName(ledger, 'Twin', '2026-11-25'), status: 'PAID' }));
  okJson(await user.delete(withId(LEDGER_PATHS.transaction, byName(ledger, 'Rent', '2027-01-01').id)));
  okJson(
    await user.post(STATEMENT_PATHS.import, { fileName: 'statement.csv', content: 'Date,Description,Amount\n2026-11-27,Coffee,-4.50\n' }),
  );
  const savings = accountSchema.parse(okJson(await user.post(ACCOUNTS_PATHS.list, { name: 'Savings', kind: 'SAVINGS' })));
  okJson(
    await user.post(inAccount(LEDGER_PATHS.create, savings.id), {
      ledger: { startDate: '2026-11-01', endDate: '2027-01-31', currentBalance: 0 },
    }),
  );
  const [checking] = (okJson(await user.get(ACCOUNTS_PATHS.list)) as { accounts: AccountInfo[] }).accounts;
  if (!checking) throw new Error('expected the primary account');
  okJson(await user.post(TRANSFERS_PATHS.add, { fromAccountId: checking.id, toAccountId: savings.id, date: '2026-11-28', amount: 25 }));
}

const READS = [DEPOSITS_PATHS.retrieve, EXPENSES_PATHS.retrieve, LEDGER_PATHS.retrieve, ACCOUNTS_PATHS.list];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** What a user reads, with ids replaced by their order of appearance: equal when only ids differ. */
async function readsOf(user: UserClient): Promise<string> {
  const seen = new Map<string, number>();
  const answers: string[] = [];
  for (const path of READS) {
    const answer = await user.get(path);
    answers.push(`${path} ${answer.statusCode} ${answer.body}`);
  }
  return answers.join('\n').replace(UUID, (id) => {
    if (!seen.has(id)) seen.set(id, seen.size);
    return `<id ${seen.get(id)}>`;
  });
}

const appOn = appsOnEveryDatabase();

describe.each(databaseKinds())('restore fuzzer on %s', (kind) => {
  let exported: Json;
  let ownerReads: string;
  beforeAll(async () => {
    const owner = appOn(kind).as('fuzz-owner');
    await userWithEverything(owner);
    exported = okJson(await owner.get(YOUR_DATA_PATHS.export)) as Json;
    ownerReads = await readsOf(owner);
  });

  it(
    'answers every changed document with the counts or a named refusal; a refusal changes nothing, an accepted one restores again the same',
    async () => {
      const test = appOn(kind);
      const restorer = test.as('fuzz-restorer');
      await fc.assert(
        fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 3 }), async (edits) => {
          const document = edits.reduce(changed, exported);
          const before = await test.snapshot();
          const answer = await restorer.post(YOUR_DATA_PATHS.restore, document);
          expect(answer.statusCode, answer.body).toBeLessThan(500);
          if (answer.statusCode === 200) {
            yourDataCountsSchema.parse(answer.json());
            // What was kept exports as a document the server accepts again, to the same reads.
            const reads = await readsOf(restorer);
            const again = okJson(await restorer.get(YOUR_DATA_PATHS.export));
            const second = await restorer.post(YOUR_DATA_PATHS.restore, again);
            expect(second.statusCode, second.body).toBe(200);
            expect(await readsOf(restorer)).toBe(reads);
          } else {
            expect([400, 413]).toContain(answer.statusCode);
            strictErrorBodySchema.parse(answer.json());
            expect(await test.snapshot()).toBe(before);
          }
        }),
        { numRuns: RUNS },
      );
      expect(await readsOf(test.as('fuzz-owner'))).toBe(ownerReads);
      // A restore and its checks take up to a second on PostgreSQL on a busy 2-core machine.
    },
    30_000 + RUNS * 1_000,
  );
});
