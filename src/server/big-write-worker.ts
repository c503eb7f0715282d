/**
 * The thread big writes run in (decision 0103; the server's side is big-write-thread.ts):
 * a restore of your data, an undo whose journal is long, and a create of thousands of rows (decision 0123). It opens the database (the SQLite file,
 * or PostgreSQL) with a connection of its own and builds the ledger's unit of work as the app does, so the services
 * (your-data/your-data-service.ts, undo/undo-service.ts) run here unchanged: parsing a journal,
 * checking it against 20,000 rows, staging, inserting, deleting and committing them (each commit
 * waits for the disk) is this thread's work, never the thread that serves every other user. A ledger
 * answer leaves as the JSON text the route would have sent, checked against the same schema here:
 * 20,000 rows are not copied back as objects.
 *
 * Tasks and answers are plain data. The app's clock comes with each task (tests fix it), and a
 * refusal comes back as its kind and words, which the server throws again as the same error.
 */
import { performance } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { YourDataCounts } from '../contract/your-data.js';
import { ledgerEtag, ledgerInfoSchema } from '../contract/ledger.js';
import { undoAnswerSchema } from '../contract/undo.js';
import type { Caller, SignedInUser } from './auth/access-token.js';
import { type ErrorInThread, errorInThread } from './bank/errors-in-thread.js';
import { type OpenDatabase, openPostgresInThread, openSqliteInThread } from './db/database.js';
import { answerSerializerCompiler } from './http/answer-serializer.js';
import {
  type AccountChoice,
  ledgerAnswer,
  type LedgerFields,
  LedgerService,
  type LedgerText,
  LedgerWrites,
  type UndoingMember,
  versionOf,
} from './ledger/index.js';
import { readLedgerSchedules } from './ledger-schedules.js';
import { changeTextOf } from './live/change-text.js';
import { userToday } from './profile/user-today.js';
import { type Undone, UndoService } from './undo/undo-service.js';
import { type PackedStorableData, unpackStorableData } from './your-data/your-data.js';
import { YourDataService } from './your-data/your-data-service.js';

/** The database the server runs on, as the thread opens it. */
export type ThreadDatabase = { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string };

interface TaskBase {
  readonly database: ThreadDatabase;
  readonly defaultTimeZone: string;
  /** The app's clock at the task's start, as an ISO string. */
  readonly now: string;
  readonly owner: Caller;
  /** The member the write is made by (decision 0094); null for no person. */
  readonly actor: SignedInUser | null;
}

export type BigWriteTask =
  | { readonly kind: 'ready' }
  | (TaskBase & { readonly kind: 'undo'; readonly member: UndoingMember; readonly token: string })
  | (TaskBase & { readonly kind: 'restore'; readonly data: PackedStorableData })
  | (TaskBase & {
      readonly kind: 'create';
      readonly account: AccountChoice;
      readonly fields: LedgerFields;
      readonly expected: string | null;
    });

/** What the thread's unit of work did beside its answer, for the server to pass on. */
export interface BigWriteMade {
  /** Rows the write added, took away and changed, for the server to charge to the request (issue 34). */
  readonly rowsTouched: number;
  /** What the activity entry said, for the other members' open pages (decision 0096). */
  readonly changeText: string | null;
}

/** What an undo answers, as the route sends it (a ledger as its JSON text). */
export type UndoneInThread = Exclude<Undone, { readonly answer: 'ledger' }> & BigWriteMade;

export type RestoredInThread = YourDataCounts & BigWriteMade;

/** A created ledger as the route sends it (its JSON text), with the rows it stored. */
export type CreatedInThread = LedgerText & BigWriteMade;

export type BigWriteTaskOutcome =
  | { readonly ok: true; readonly value: UndoneInThread | RestoredInThread | CreatedInThread | null }
  | { readonly ok: false; readonly error: ErrorInThread };

/** The undo's answer as the route's serializer writes it (http/answer-serializer.ts). */
const serialize = answerSerializerCompiler({ schema: undoAnswerSchema, method: 'POST', url: '/api/undo', httpStatus: '200' });

/** A created ledger's answer, as the create route's serializer writes it. */
const serializeCreated = answerSerializerCompiler({
  schema: ledgerInfoSchema,
  method: 'POST',
  url: '/api/ledger/create-ledger',
  httpStatus: '200',
});

/** How long the thread's statements run back to back before it gives the processor back for a moment. */
const WORK_MS = 8;
const REST_MS = 1;

/**
 * Rests a moment every WORK_MS of statements. On a machine whose cores are all busy, a thread that
 * never sleeps holds its core for its whole time slice, and the server's thread, woken by another
 * user's request, waits for one; a rest after each few milliseconds lets it in sooner. The write
 * takes a little longer; it holds nothing meanwhile that the server's thread needs.
 */
class GiveWay implements KyselyPlugin {
  private since = performance.now();

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (performance.now() - this.since >= WORK_MS) {
      await new Promise((resolve) => setTimeout(resolve, REST_MS));
      this.since = performance.now();
    }
    return result;
  }
}

/** One connection per database for the thread's life. */
const opened = new Map<string, OpenDatabase>();

async function openedFor(where: ThreadDatabase): Promise<OpenDatabase> {
  const key = where.kind === 'sqlite' ? `sqlite ${where.file}` : `postgres ${where.url}`;
  let database = opened.get(key);
  if (!database) {
    const own = where.kind === 'sqlite' ? openSqliteInThread(SQLite, where.file) : await openPostgresInThread(where.url);
    database = { ...own, db: own.db.withPlugin(new GiveWay()) };
    opened.set(key, database);
  }
  return database;
}

async function unitOf(
  task: TaskBase,
): Promise<{ database: OpenDatabase; writes: LedgerWrites; clock: () => Date; made: () => BigWriteMade }> {
  const database = await openedFor(task.database);
  const now = new Date(task.now);
  const clock = () => now;
  let rowsTouched = 0;
  const writes = new LedgerWrites(
    database,
    clock,
    { schedules: readLedgerSchedules, todayOf: userToday(task.defaultTimeZone, clock) },
    (_owner, rows) => {
      rowsTouched += rows;
    },
    () => task.actor ?? undefined,
  );
  return { database, writes, clock, made: () => ({ rowsTouched, changeText: changeTextOf(task.owner) ?? null }) };
}

async function undo(task: Extract<BigWriteTask, { kind: 'undo' }>): Promise<UndoneInThread> {
  const { database, writes, made } = await unitOf(task);
  const undone = await new UndoService(database, writes).undo(task.owner, task.member, task.token);
  if (undone.answer !== 'ledger') return { ...undone, ...made() };
  const { ledger } = undone;
  return {
    answer: 'ledger-text',
    etag: ledgerEtag(versionOf(ledger.ledger)),
    body: serialize(ledgerAnswer(ledger)) as string,
    rows: ledger.rows.length,
    ...made(),
  };
}

async function restore(task: Extract<BigWriteTask, { kind: 'restore' }>): Promise<RestoredInThread> {
  const { database, writes, clock, made } = await unitOf(task);
  const counts = await new YourDataService(database, clock, writes).restore(task.owner, await unpackStorableData(task.data));
  return { ...counts, ...made() };
}

async function create(task: Extract<BigWriteTask, { kind: 'create' }>): Promise<CreatedInThread> {
  const { database, writes, made } = await unitOf(task);
  const created = await new LedgerService(database, writes).createHere(task.owner, task.account, task.fields, task.expected);
  return {
    answer: 'ledger-text',
    etag: ledgerEtag(versionOf(created.ledger)),
    body: serializeCreated(ledgerAnswer(created)) as string,
    rows: created.rows.length,
    written: created.written ?? 0,
    ...made(),
  };
}

/** Each task's work, by its kind. */
function run(task: Exclude<BigWriteTask, { kind: 'ready' }>): Promise<UndoneInThread | RestoredInThread | CreatedInThread> {
  if (task.kind === 'undo') return undo(task);
  if (task.kind === 'restore') return restore(task);
  return create(task);
}

export default async function runBigWriteTask(task: BigWriteTask): Promise<BigWriteTaskOutcome> {
  try {
    if (task.kind === 'ready') return { ok: true, value: null };
    return { ok: true, value: await run(task) };
  } catch (error) {
    return { ok: false, error: errorInThread(error) };
  }
}
