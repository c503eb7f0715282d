/**
 * Durability: the built server runs as a child process under a write load from several users,
 * is killed with SIGKILL while requests are in flight, and is restarted on the same data. Every
 * write it answered 2xx must be there afterwards, and every ledger must be whole: exactly the
 * state of the last acknowledged ledger write, or that state plus the one write that was in flight
 * (all of it, never part of it).
 *
 * Each user runs two lanes at once: schedules (add-deposit, add-expense) and ledger (add-transaction,
 * pay, create-ledger). The ledger lane sends one request at a time, so the order of its writes is
 * known and each answer (the whole ledger) is the state that write left behind. The schedules the
 * load adds start after the ledger ends or ended before it starts, so a create-ledger always
 * generates the same rows from the seeded schedules, whatever the schedules lane has done by then.
 *
 * SIGKILL ends the process, not the machine: this proves that nothing acknowledged lives only in the
 * server's memory. Surviving a power cut rests on SQLite's synchronous=FULL and PostgreSQL's fsync.
 */
import { describe, expect, it } from 'vitest';
import { DEPOSITS_PATHS, depositsInfoSchema } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS, expensesInfoSchema } from '../../src/contract/expenses.js';
import { type Ledger, LEDGER_PATHS, ledgerInfoSchema, type LedgerTransaction } from '../../src/contract/ledger.js';
import { openDatabaseReader } from '../support/database-reader.js';
import { type HttpAnswer, type HttpUser, httpUser, isSuccess } from '../support/http-user.js';
import { recordFigures } from '../support/reliability-figures.js';
import { processRunOn } from '../support/process-run.js';
import type { ServerProcess } from '../support/server-process.js';
import { databaseKinds } from '../support/test-databases.js';

const USERS = 6;
const ROUNDS = 3;
/** Users whose ledger lane sends nothing but create-ledger. */
const CREATE_ONLY_USERS = 2;
/** Acknowledged writes per round before the kill; the time limit ends a round that is slower. */
const KILL_AFTER_ACKNOWLEDGED = 300;
const ROUND_TIME_LIMIT_MS = 15_000;
/** A lane never sends more than this in a round, whatever happens to the clock. */
const MAX_WRITES_PER_LANE = 2_000;

const LEDGER_RANGE = { startDate: '2026-12-01', endDate: '2027-02-28' } as const;
const PATHS = {
  deposits: DEPOSITS_PATHS.retrieve,
  addDeposit: DEPOSITS_PATHS.add,
  expenses: EXPENSES_PATHS.retrieve,
  addExpense: EXPENSES_PATHS.add,
  ledger: LEDGER_PATHS.retrieve,
  createLedger: LEDGER_PATHS.create,
  addTransaction: LEDGER_PATHS.addTransaction,
  updateTransaction: LEDGER_PATHS.updateTransaction,
} as const;

// The seeded schedules: the only ones with occurrences inside LEDGER_RANGE.
const SEED_DEPOSITS = [
  { name: 'Salary', type: 'Direct Deposit', day: 'Friday', amount: 1500, startDate: '2026-12-04', frequency: 'BW' },
  { name: 'Side job', type: 'Check', day: 'N/A', amount: 300, startDate: '2026-11-30', frequency: 'EOM' },
] as const;
const SEED_EXPENSES = [
  { name: 'Rent', type: 'Housing', day: 1, amount: 1200, endDate: null },
  { name: 'Phone', type: 'Utilities', day: 20, amount: 80.5, endDate: null },
] as const;

type WriteKind = 'add-deposit' | 'add-expense' | 'create-ledger' | 'add-transaction' | 'pay';
const WRITE_KINDS: readonly WriteKind[] = ['add-deposit', 'add-expense', 'create-ledger', 'add-transaction', 'pay'];

interface Tally {
  /** Answered 2xx. */
  acknowledged: number;
  /** Acknowledged and not legitimately undone by a later acknowledged create-ledger. */
  mustBeFound: number;
  found: number;
  /** In flight when the server died: may or may not have landed, but only whole. */
  unanswered: number;
  unansweredLanded: number;
}

type LedgerWrite =
  | { readonly kind: 'create-ledger'; readonly currentBalance: number }
  | { readonly kind: 'add-transaction'; readonly date: string; readonly name: string; readonly type: 'C' | 'D'; readonly amount: number }
  | { readonly kind: 'pay'; readonly row: LedgerTransaction };

interface UserState {
  readonly user: HttpUser;
  /** Load-added schedule names and whether their add was answered 2xx. */
  readonly deposits: Map<string, 'acknowledged' | 'unanswered'>;
  readonly expenses: Map<string, 'acknowledged' | 'unanswered'>;
  /** The ledger as the last acknowledged ledger write (or the last check) left it. */
  ledger: Ledger;
  /** This round's acknowledged ledger writes, in order. */
  ledgerLog: LedgerWrite[];
  ledgerInFlight: LedgerWrite | undefined;
  depositsThisRound: Set<string>;
  expensesThisRound: Set<string>;
}

function emptyTallies(): Record<WriteKind, Tally> {
  const tallies = {} as Record<WriteKind, Tally>;
  for (const kind of WRITE_KINDS) tallies[kind] = { acknowledged: 0, mustBeFound: 0, found: 0, unanswered: 0, unansweredLanded: 0 };
  return tallies;
}

function ledgerOf(answer: HttpAnswer): Ledger {
  const { ledger } = ledgerInfoSchema.parse(answer.body);
  if (!ledger) throw new Error('expected a ledger in the answer');
  return ledger;
}

function rowKey(row: LedgerTransaction, withId: boolean): string {
  return [withId ? row.id : '-', row.date, row.name, row.type, row.amount.toFixed(2), row.status].join('|');
}

/** A ledger as comparable data: its range, opening balance and its rows as a sorted multiset. */
function shape(ledger: Ledger, withIds: boolean) {
  return {
    startDate: ledger.startDate,
    endDate: ledger.endDate,
    openingBalance: ledger.openingBalance,
    rows: ledger.transactions.map((row) => rowKey(row, withIds)).sort(),
  };
}

async function seed(user: HttpUser): Promise<Ledger> {
  for (const deposit of SEED_DEPOSITS) expect((await user.call('POST', PATHS.addDeposit, deposit)).status).toBe(200);
  for (const expense of SEED_EXPENSES) expect((await user.call('POST', PATHS.addExpense, expense)).status).toBe(200);
  const answer = await user.call('POST', PATHS.createLedger, { ledger: { ...LEDGER_RANGE, currentBalance: 0 } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return ledgerOf(answer);
}

describe.each(databaseKinds())('durability through SIGKILL on %s', (kind) => {
  const processes = processRunOn(kind);

  it(`finds every write answered 2xx, and no half-written ledger, after ${ROUNDS} kills mid-load`, { timeout: 150_000 }, async () => {
    const { issuer, database, start } = processes();
    let server = await start();
    const port = server.port;
    const users: UserState[] = [];
    for (let index = 0; index < USERS; index += 1) {
      const user = await httpUser(server.origin, issuer, `durable-${kind}-${index}`);
      users.push({
        user,
        deposits: new Map(),
        expenses: new Map(),
        ledger: await seed(user),
        ledgerLog: [],
        ledgerInFlight: undefined,
        depositsThisRound: new Set(),
        expensesThisRound: new Set(),
      });
    }
    // Every create-ledger must generate exactly these rows (all PENDING): the template of a whole ledger.
    const template = users[0]?.ledger;
    if (!template) throw new Error('no users');
    const generated = shape(template, false).rows;
    expect(generated.length).toBeGreaterThan(10);

    const tallies = emptyTallies();
    const failures: string[] = [];
    const rounds: { acknowledged: number; inFlightAtKill: number }[] = [];

    for (let round = 1; round <= ROUNDS; round += 1) {
      const running = server;
      let killing = false;
      let inFlight = 0;
      let acknowledgedThisRound = 0;
      for (const state of users) {
        state.ledgerLog = [];
        state.ledgerInFlight = undefined;
        state.depositsThisRound = new Set();
        state.expensesThisRound = new Set();
      }

      /** Sends one write; undefined when the server died under it (then it counts as unanswered). */
      const send = async (
        state: UserState,
        kindOfWrite: WriteKind,
        method: string,
        path: string,
        body: unknown,
      ): Promise<HttpAnswer | undefined> => {
        inFlight += 1;
        try {
          const answer = await state.user.call(method, path, body);
          if (!isSuccess(answer)) {
            failures.push(`${state.user.subject} ${kindOfWrite}: ${answer.status} ${JSON.stringify(answer.body)}`);
            return undefined;
          }
          tallies[kindOfWrite].acknowledged += 1;
          acknowledgedThisRound += 1;
          return answer;
        } catch (error) {
          if (!killing) failures.push(`${state.user.subject} ${kindOfWrite}: ${error instanceof Error ? error.message : String(error)}`);
          tallies[kindOfWrite].unanswered += 1;
          return undefined;
        } finally {
          inFlight -= 1;
        }
      };

      const schedulesLane = async (state: UserState, userIndex: number) => {
        for (let n = 0; n < MAX_WRITES_PER_LANE && !killing && failures.length === 0; n += 1) {
          const amount = (n % 90) + 10 + userIndex / 100;
          if (n % 2 === 0) {
            const name = `dep-r${round}-${n}`;
            state.deposits.set(name, 'unanswered');
            state.depositsThisRound.add(name);
            // Starts after the ledger ends: generates no ledger rows.
            const body = { name, type: 'Check', day: 'N/A', amount, startDate: '2028-01-31', frequency: 'EOM' };
            if (await send(state, 'add-deposit', 'POST', PATHS.addDeposit, body)) state.deposits.set(name, 'acknowledged');
          } else {
            const name = `exp-r${round}-${n}`;
            state.expenses.set(name, 'unanswered');
            state.expensesThisRound.add(name);
            // Ended before the ledger starts: generates no ledger rows.
            const body = { name, type: 'Old bill', day: 5, amount, endDate: '2026-01-31' };
            if (await send(state, 'add-expense', 'POST', PATHS.addExpense, body)) state.expenses.set(name, 'acknowledged');
          }
        }
      };

      const ledgerLane = async (state: UserState, userIndex: number) => {
        for (let n = 0; n < MAX_WRITES_PER_LANE && !killing && failures.length === 0; n += 1) {
          const pending = state.ledger.transactions.filter((row) => row.status === 'PENDING');
          let write: LedgerWrite;
          // Mostly adds and pays; a create now and then, early enough that writes follow it. The first
          // two users only create, so creates are on the wire at every kill.
          const step = userIndex < CREATE_ONLY_USERS ? 9 : n % 20;
          if (step === 9) {
            write = { kind: 'create-ledger', currentBalance: round * 10_000 + n + userIndex / 100 };
          } else if (step % 3 === 2 && pending.length > 0) {
            write = { kind: 'pay', row: pending[(n * 7) % pending.length] as LedgerTransaction };
          } else {
            const day = String((n % 28) + 1).padStart(2, '0');
            write = {
              kind: 'add-transaction',
              date: `2027-01-${day}`,
              name: `txn-r${round}-${n}`,
              type: n % 3 === 0 ? 'C' : 'D',
              amount: (n % 40) + 0.25,
            };
          }
          state.ledgerInFlight = write;
          let answer: HttpAnswer | undefined;
          if (write.kind === 'create-ledger') {
            answer = await send(state, write.kind, 'POST', PATHS.createLedger, {
              ledger: { ...LEDGER_RANGE, currentBalance: write.currentBalance },
            });
          } else if (write.kind === 'pay') {
            answer = await send(state, write.kind, 'PATCH', PATHS.updateTransaction, { ...write.row, status: 'PAID' });
          } else {
            const body = { date: write.date, name: write.name, type: write.type, amount: write.amount };
            answer = await send(state, write.kind, 'POST', PATHS.addTransaction, body);
          }
          if (!answer) return; // Dead server (ledgerInFlight stays set) or a failure already recorded.
          state.ledgerInFlight = undefined;
          state.ledger = ledgerOf(answer);
          state.ledgerLog.push(write);
          if (write.kind === 'create-ledger' && JSON.stringify(shape(state.ledger, false).rows) !== JSON.stringify(generated)) {
            failures.push(`${state.user.subject} create-ledger answered other rows than the schedules generate`);
          }
        }
      };

      const lanes = users.flatMap((state, index) => [schedulesLane(state, index), ledgerLane(state, index)]);
      const deadline = Date.now() + ROUND_TIME_LIMIT_MS;
      // Bounded wait: by count of acknowledged writes, by time, and by failures.
      while (acknowledgedThisRound < KILL_AFTER_ACKNOWLEDGED && Date.now() < deadline && failures.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const inFlightAtKill = inFlight;
      killing = true;
      await running.kill();
      await Promise.all(lanes);
      expect(failures).toEqual([]);
      // The kill must land mid-load, with writes on the wire, or it proves nothing.
      expect(inFlightAtKill).toBeGreaterThan(0);
      rounds.push({ acknowledged: acknowledgedThisRound, inFlightAtKill });

      server = await start({ port });
      for (const state of users) await verifyUser(server, state, generated, tallies);
      await verifyStoredRows(database.url, issuer.issuer, users);
    }

    const figures = {
      database: kind,
      users: USERS,
      rounds,
      writes: Object.fromEntries(WRITE_KINDS.map((writeKind) => [writeKind, tallies[writeKind]])),
      acknowledged: WRITE_KINDS.reduce((sum, writeKind) => sum + tallies[writeKind].acknowledged, 0),
      mustBeFound: WRITE_KINDS.reduce((sum, writeKind) => sum + tallies[writeKind].mustBeFound, 0),
      found: WRITE_KINDS.reduce((sum, writeKind) => sum + tallies[writeKind].found, 0),
    };
    recordFigures(`durability-${kind}`, figures);
    for (const writeKind of WRITE_KINDS) expect(tallies[writeKind].found, writeKind).toBe(tallies[writeKind].mustBeFound);
  });
});

/**
 * After a restart: every acknowledged schedule is there and nothing unknown is; the ledger is the
 * last acknowledged state, or that state with the in-flight write applied whole.
 */
async function verifyUser(
  server: ServerProcess,
  state: UserState,
  generated: readonly string[],
  tallies: Record<WriteKind, Tally>,
): Promise<void> {
  // The restarted server listens on the same port, so each user's client (and token) still works.
  const deposits = depositsInfoSchema.parse((await callOk(server, state.user, PATHS.deposits)).body);
  const expenses = expensesInfoSchema.parse((await callOk(server, state.user, PATHS.expenses)).body);
  checkSchedules(
    'add-deposit',
    deposits.deposits.map((deposit) => deposit.name),
    SEED_DEPOSITS.map((deposit) => deposit.name),
    state.deposits,
    state.depositsThisRound,
    tallies,
  );
  checkSchedules(
    'add-expense',
    expenses.expenses.map((expense) => expense.name),
    SEED_EXPENSES.map((expense) => expense.name),
    state.expenses,
    state.expensesThisRound,
    tallies,
  );

  const final = ledgerOf(await callOk(server, state.user, PATHS.ledger));
  const before = shape(state.ledger, true);
  const inFlight = state.ledgerInFlight;
  let landed = false;
  if (inFlight?.kind === 'create-ledger') {
    landed = final.openingBalance === inFlight.currentBalance;
    if (landed) {
      expect(shape(final, false), `${state.user.subject}: a create-ledger landed only in part`).toEqual({
        ...LEDGER_RANGE,
        openingBalance: inFlight.currentBalance,
        rows: generated,
      });
    }
  } else if (inFlight?.kind === 'add-transaction') {
    const added = final.transactions.filter((row) => row.name === inFlight.name);
    landed = added.length > 0;
    if (landed) {
      expect(added.map((row) => [row.date, row.type, row.amount, row.status])).toEqual([
        [inFlight.date, inFlight.type, inFlight.amount, 'PENDING'],
      ]);
      expect(shape({ ...final, transactions: final.transactions.filter((row) => row.name !== inFlight.name) }, true)).toEqual(before);
    }
  } else if (inFlight?.kind === 'pay') {
    landed = final.transactions.find((row) => row.id === inFlight.row.id)?.status === 'PAID';
    if (landed) {
      const paid = {
        ...state.ledger,
        transactions: state.ledger.transactions.map((row) => (row.id === inFlight.row.id ? { ...row, status: 'PAID' as const } : row)),
      };
      expect(shape(final, true)).toEqual(shape(paid, true));
    }
  }
  if (!landed) expect(shape(final, true), `${state.user.subject}: the ledger is not the last acknowledged one`).toEqual(before);
  if (inFlight && landed) tallies[inFlight.kind].unansweredLanded += 1;

  // What the acknowledged writes left visible: everything after the last create that still stands.
  const lastCreate =
    landed && inFlight?.kind === 'create-ledger'
      ? state.ledgerLog.length
      : state.ledgerLog.map((write) => write.kind).lastIndexOf('create-ledger');
  state.ledgerLog.forEach((write, index) => {
    if (index < lastCreate) return;
    tallies[write.kind].mustBeFound += 1;
    const found =
      write.kind === 'create-ledger'
        ? final.openingBalance === write.currentBalance
        : write.kind === 'add-transaction'
          ? final.transactions.some((row) => row.name === write.name)
          : final.transactions.find((row) => row.id === write.row.id)?.status === 'PAID';
    if (found) tallies[write.kind].found += 1;
  });
  state.ledger = final;
}

async function callOk(server: ServerProcess, user: HttpUser, path: string): Promise<HttpAnswer> {
  const answer = await user.call('GET', path);
  expect(answer.status, `${path} after restart: ${JSON.stringify(answer.body)}\n${server.output()}`).toBe(200);
  return answer;
}

function checkSchedules(
  kind: 'add-deposit' | 'add-expense',
  stored: readonly string[],
  seeded: readonly string[],
  sent: ReadonlyMap<string, 'acknowledged' | 'unanswered'>,
  thisRound: ReadonlySet<string>,
  tallies: Record<WriteKind, Tally>,
): void {
  const names = new Set(stored);
  expect(stored.length, `${kind}: a name is stored twice`).toBe(names.size);
  // Nothing appears that was never sent.
  for (const name of names) expect(seeded.includes(name) || sent.has(name), `${kind}: unknown ${name}`).toBe(true);
  for (const name of seeded) expect(names.has(name), `${kind}: seeded ${name} is gone`).toBe(true);
  for (const [name, outcome] of sent) {
    if (outcome === 'acknowledged') {
      // Every acknowledged add, from this round or an earlier one, survives every kill so far.
      expect(names.has(name), `${kind}: acknowledged ${name} is gone`).toBe(true);
      if (thisRound.has(name)) {
        tallies[kind].mustBeFound += 1;
        tallies[kind].found += 1;
      }
    } else if (thisRound.has(name) && names.has(name)) {
      tallies[kind].unansweredLanded += 1;
    }
  }
}

/** Below the API: one ledger row per user, and no transaction row outside it (nothing orphaned). */
async function verifyStoredRows(url: string, issuer: string, users: readonly UserState[]): Promise<void> {
  const reader = openDatabaseReader(url);
  try {
    for (const state of users) {
      const subject = state.user.subject;
      const ledgers = await reader.db
        .selectFrom('ledgers')
        .select(['id', 'next_sequence'])
        .where('owner_iss', '=', issuer)
        .where('owner_sub', '=', subject)
        .execute();
      expect(ledgers, subject).toHaveLength(1);
      const ledger = ledgers[0] as { id: string; next_sequence: number };
      const rows = await reader.db
        .selectFrom('ledger_transactions')
        .select(['ledger_id', 'sequence'])
        .where('owner_iss', '=', issuer)
        .where('owner_sub', '=', subject)
        .execute();
      expect(
        rows.every((row) => row.ledger_id === ledger.id),
        `${subject}: rows outside the ledger`,
      ).toBe(true);
      expect(rows).toHaveLength(state.ledger.transactions.length);
      expect(new Set(rows.map((row) => row.sequence)).size).toBe(rows.length);
      expect(Math.max(0, ...rows.map((row) => row.sequence))).toBeLessThan(ledger.next_sequence);
    }
  } finally {
    await reader.close();
  }
}
