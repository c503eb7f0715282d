/**
 * The thread a big undo runs in on SQLite (decision 0103; the server's side is undo-thread.ts). It
 * opens the database file with a connection of its own and builds the ledger's unit of work as the
 * app does, so the undo (undo/undo-service.ts) runs here unchanged: reading and parsing its journal,
 * checking it against 20,000 rows, deleting them and committing is this thread's work, never the
 * thread that serves every other user. A ledger answer leaves as the JSON text the route would have
 * sent, checked against the same schema here: 20,000 rows are not copied back as objects.
 *
 * Tasks and answers are plain data. The app's clock comes with each task (tests fix it), and a
 * refusal comes back as its kind and words, which the server throws again as the same error.
 */
import SQLite from 'better-sqlite3';
import { ledgerEtag } from '../contract/ledger.js';
import { undoAnswerSchema } from '../contract/undo.js';
import type { Caller } from './auth/access-token.js';
import { type ErrorInThread, errorInThread } from './bank/errors-in-thread.js';
import { type OpenDatabase, openSqliteInThread } from './db/database.js';
import { answerSerializerCompiler } from './http/answer-serializer.js';
import { ledgerAnswer, LedgerWrites, type UndoingMember, versionOf } from './ledger/index.js';
import { readLedgerSchedules } from './ledger-schedules.js';
import { changeTextOf } from './live/change-text.js';
import { userToday } from './profile/user-today.js';
import { type Undone, UndoService } from './undo/undo-service.js';

export type UndoTask =
  | { readonly kind: 'ready' }
  | {
      readonly kind: 'undo';
      readonly file: string;
      readonly defaultTimeZone: string;
      /** The app's clock at the task's start, as an ISO string. */
      readonly now: string;
      readonly owner: Caller;
      readonly member: UndoingMember;
      readonly token: string;
    };

/** What the undo answers, as the route sends it (a ledger as its JSON text), and what the server does with it. */
export type UndoneInThread = Exclude<Undone, { readonly answer: 'ledger' }> & {
  /** Rows the undo added, took away and changed, for the server to charge to the request (issue 34). */
  readonly rowsTouched: number;
  /** What the activity entry said, for the other members' open pages (decision 0096). */
  readonly changeText: string | null;
};

export type UndoTaskOutcome =
  { readonly ok: true; readonly value: UndoneInThread | null } | { readonly ok: false; readonly error: ErrorInThread };

/** The undo's answer as the route's serializer writes it (http/answer-serializer.ts). */
const serialize = answerSerializerCompiler({ schema: undoAnswerSchema, method: 'POST', url: '/api/undo', httpStatus: '200' });

/** One connection per file for the thread's life. */
const opened = new Map<string, OpenDatabase>();

async function undo(task: Extract<UndoTask, { kind: 'undo' }>): Promise<UndoneInThread> {
  let database = opened.get(task.file);
  if (!database) {
    database = openSqliteInThread(SQLite, task.file);
    opened.set(task.file, database);
  }
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
    () => task.member.user,
  );
  const undone = await new UndoService(database, writes).undo(task.owner, task.member, task.token);
  const made = { rowsTouched, changeText: changeTextOf(task.owner) ?? null };
  if (undone.answer !== 'ledger') return { ...undone, ...made };
  const { ledger } = undone;
  return {
    answer: 'ledger-text',
    etag: ledgerEtag(versionOf(ledger.ledger)),
    body: serialize(ledgerAnswer(ledger)) as string,
    rows: ledger.rows.length,
    ...made,
  };
}

export default async function runUndoTask(task: UndoTask): Promise<UndoTaskOutcome> {
  try {
    if (task.kind === 'ready') return { ok: true, value: null };
    return { ok: true, value: await undo(task) };
  } catch (error) {
    return { ok: false, error: errorInThread(error) };
  }
}
