/**
 * Undo (issue 24, decision 0040): a token a write answered with takes that write back, once, for
 * ten minutes, for its owner alone. The undo runs under the owner's ledger lock in one
 * transaction: it finds the entry, puts back the schedule's row (a deposit's or an expense's
 * write) and the ledger's rows, skipped occurrences, imported statement rows and end date as the
 * write's journal recorded them, and uses the entry up. Anything the write touched that changed
 * since refuses it, and then nothing changes. Undoing a Pay is the Pay never having happened, not
 * a status moving back: no rule of an edit (decideUpdate) applies to it.
 *
 * A big undo (a journal of thousands of rows) runs in a thread of its own (decision 0103):
 * the same service there, with the thread's connection, answering as the route would.
 */
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { depositRepository, type StoredDeposit } from '../deposits/deposit-repository.js';
import { expenseRepository, type StoredExpense } from '../expenses/expense-repository.js';
import {
  countAccounts,
  type LedgerWithRows,
  type LedgerWrites,
  type UndoingMember,
  undoJournalLength,
  undoTokenKey,
  undoWrite,
} from '../ledger/index.js';
import { scheduleOfChange, undoScheduleChange } from '../schedules/schedule-writes.js';

export type Undone =
  | { readonly answer: 'ledger'; readonly ledger: LedgerWithRows }
  /** A big undo's ledger answered in its thread: the JSON text the route sends, its ETag, and how many rows it holds. */
  | { readonly answer: 'ledger-text'; readonly body: string; readonly etag: string; readonly rows: number }
  | { readonly answer: 'deposits'; readonly deposits: StoredDeposit[]; readonly manyAccounts: boolean }
  | { readonly answer: 'expenses'; readonly expenses: StoredExpense[]; readonly manyAccounts: boolean };

/** Where a big undo runs instead (big-write-thread.ts), answering as it would here. */
export type UndoElsewhere = (owner: Caller, member: UndoingMember, token: string) => Promise<Undone>;

/**
 * A journal at least this long (in characters) is a big undo: about 3,000 rows of an Extend, fewer of
 * a write that kept before-images. Smaller ones cost a few milliseconds here, less than a thread's turn.
 */
const BIG_UNDO_JOURNAL_CHARS = 200_000;

export class UndoService {
  constructor(
    private readonly database: OpenDatabase,
    /** An undo is a ledger write too: one unit of work, which moves the versions it changed. */
    private readonly writes: LedgerWrites,
    /** Where a big undo runs (the app's big writes' thread); without it every undo runs here. */
    private readonly elsewhere?: UndoElsewhere,
  ) {}

  async undo(owner: Caller, member: UndoingMember, token: string): Promise<Undone> {
    if (this.elsewhere) {
      const key = undoTokenKey(token);
      const length = key === undefined ? undefined : await undoJournalLength(this.database.db, owner, key);
      if (length !== undefined && length >= BIG_UNDO_JOURNAL_CHARS) return this.elsewhere(owner, member, token);
    }
    const answer = await undoWrite(this.writes, owner, member, token, async (write, change) => {
      const { kind } = scheduleOfChange(change);
      if (kind === 'deposit') await undoScheduleChange(depositRepository(write.db), write, kind, change);
      else await undoScheduleChange(expenseRepository(write.db), write, kind, change);
    });
    if (answer.kind === 'ledger') return { answer: 'ledger', ledger: answer.ledger };
    const manyAccounts = (await countAccounts(this.database.db, owner)) > 1;
    if (answer.kind === 'deposits') {
      return { answer: 'deposits', deposits: await depositRepository(this.database.db).list(owner), manyAccounts };
    }
    return { answer: 'expenses', expenses: await expenseRepository(this.database.db).list(owner), manyAccounts };
  }
}
