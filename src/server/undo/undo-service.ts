/**
 * Undo (issue 24, decision 0040): a token a write answered with takes that write back, once, for
 * ten minutes, for its owner alone. The undo runs under the owner's ledger lock in one
 * transaction: it finds the entry, puts back the schedule's row (a deposit's or an expense's
 * write) and the ledger's rows, skipped occurrences, imported statement rows and end date as the
 * write's journal recorded them, and uses the entry up. Anything the write touched that changed
 * since refuses it, and then nothing changes. Undoing a Pay is the Pay never having happened, not
 * a status moving back: no rule of an edit (decideUpdate) applies to it.
 */
import { GoneError, NotFoundError } from '../../domain/errors.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { depositRepository, type StoredDeposit } from '../deposits/deposit-repository.js';
import { expenseRepository, type StoredExpense } from '../expenses/expense-repository.js';
import { ConflictError } from '../../domain/errors.js';
import {
  countAccounts,
  decodeLedgerJournal,
  deleteUndoEntry,
  findUndoEntry,
  type LedgerStore,
  type LedgerWithRows,
  type LedgerWrites,
  UNDO_CONFLICT,
  UNDO_KINDS,
  undoTokenKey,
} from '../ledger/index.js';
import { scheduleOfChange, undoScheduleChange } from '../schedules/schedule-writes.js';

/** An unknown token, a used one and another user's read the same: whose tokens exist must not show. */
export const NOTHING_TO_UNDO = 'Nothing to undo: this undo is not yours or was already used.';
export const TOO_OLD_TO_UNDO = 'This can no longer be undone: it is more than 10 minutes old.';

export type Undone =
  | { readonly answer: 'ledger'; readonly ledger: LedgerWithRows }
  | { readonly answer: 'deposits'; readonly deposits: StoredDeposit[]; readonly manyAccounts: boolean }
  | { readonly answer: 'expenses'; readonly expenses: StoredExpense[]; readonly manyAccounts: boolean };

/** The parts of a stored journal; each is checked by the module it belongs to. */
function journalParts(journal: unknown): { ledgers: unknown[]; schedule: unknown } {
  if (typeof journal !== 'object' || journal === null) throw new Error('unexpected undo journal in the database');
  const more: unknown = Reflect.get(journal, 'more') ?? [];
  if (!Array.isArray(more)) throw new Error('unexpected undo journal in the database');
  return { ledgers: [Reflect.get(journal, 'ledger'), ...more], schedule: Reflect.get(journal, 'schedule') ?? null };
}

export class UndoService {
  constructor(
    private readonly database: OpenDatabase,
    /** The app's clock: an entry lives ten minutes on it. */
    private readonly now: () => Date,
    /** An undo is a ledger write too: one unit of work, which moves the versions it changed. */
    private readonly writes: LedgerWrites,
  ) {}

  async undo(owner: Caller, token: string): Promise<Undone> {
    const key = undoTokenKey(token);
    // Text that is no token we give out is not looked up: it is as unknown as a used one.
    if (key === undefined) throw new NotFoundError(NOTHING_TO_UNDO);
    // Not undoable itself, and no follower runs: it puts back exactly what the write's journal recorded, followers' rows included.
    const answer = await this.writes.run(
      owner,
      { growth: 'undo', undo: null, follow: false },
      {
        apply: async (locked) => {
          const entry = await findUndoEntry(locked.db, owner, key);
          if (!entry) throw new NotFoundError(NOTHING_TO_UNDO);
          if (this.now().getTime() > entry.expiresAt.getTime()) throw new GoneError(TOO_OLD_TO_UNDO);
          const { ledgers, schedule } = journalParts(entry.journal);
          if (schedule !== null) {
            const { kind } = scheduleOfChange(schedule);
            if (kind === 'deposit') await undoScheduleChange(depositRepository(locked.db), locked, kind, schedule);
            else await undoScheduleChange(expenseRepository(locked.db), locked, kind, schedule);
          }
          // Each ledger the write changed, in its account; an account deleted since leaves nothing to put back into.
          const stores: LedgerStore[] = [];
          for (const part of ledgers) {
            const journal = decodeLedgerJournal(part);
            const store = await locked.storeOf(journal.accountId);
            if (!store) throw new ConflictError(UNDO_CONFLICT);
            await store.undo(journal);
            stores.push(store);
          }
          await deleteUndoEntry(locked.db, owner, key);
          return { kind: UNDO_KINDS[entry.kind], first: stores[0] };
        },
        // Read in the transaction: the ledger as this undo left it, with the version it moved to.
        answer: async (_locked, { kind, first }) => {
          if (kind !== 'ledger') return { kind };
          if (!first) throw new Error("a ledger write's undo entry without a ledger journal");
          return { kind, ledger: { ledger: first.require(), rows: await first.rows() } };
        },
      },
    );
    if (answer.kind === 'ledger') return { answer: 'ledger', ledger: answer.ledger };
    const manyAccounts = (await countAccounts(this.database.db, owner)) > 1;
    if (answer.kind === 'deposits') {
      return { answer: 'deposits', deposits: await depositRepository(this.database.db).list(owner), manyAccounts };
    }
    return { answer: 'expenses', expenses: await expenseRepository(this.database.db).list(owner), manyAccounts };
  }
}
