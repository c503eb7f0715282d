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
import { decodeLedgerJournal, type LedgerWithRows, withLedgerLock } from '../ledger/index.js';
import { scheduleOfChange, undoScheduleChange } from '../schedules/schedule-writes.js';
import { deleteUndoEntry, findUndoEntry, undoTokenKey, type UndoKind } from './undo-store.js';

/** An unknown token, a used one and another user's read the same: whose tokens exist must not show. */
export const NOTHING_TO_UNDO = 'Nothing to undo: this undo is not yours or was already used.';
export const TOO_OLD_TO_UNDO = 'This can no longer be undone: it is more than 10 minutes old.';

/** What the write that is undone answered, so the undo answers the same. */
type UndoneAnswer = 'ledger' | 'deposits' | 'expenses';

const ANSWERS: { readonly [Kind in UndoKind]: UndoneAnswer } = {
  addTransaction: 'ledger',
  updateTransaction: 'ledger',
  deleteTransaction: 'ledger',
  extendLedger: 'ledger',
  importStatement: 'ledger',
  addDeposit: 'deposits',
  updateDeposit: 'deposits',
  deleteDeposit: 'deposits',
  addExpense: 'expenses',
  updateExpense: 'expenses',
  deleteExpense: 'expenses',
};

export type Undone =
  | { readonly answer: 'ledger'; readonly ledger: LedgerWithRows }
  | { readonly answer: 'deposits'; readonly deposits: StoredDeposit[] }
  | { readonly answer: 'expenses'; readonly expenses: StoredExpense[] };

/** The parts of a stored journal; each is checked by the module it belongs to. */
function journalParts(journal: unknown): { ledger: unknown; schedule: unknown } {
  if (typeof journal !== 'object' || journal === null) throw new Error('unexpected undo journal in the database');
  return { ledger: Reflect.get(journal, 'ledger'), schedule: Reflect.get(journal, 'schedule') ?? null };
}

export class UndoService {
  constructor(
    private readonly database: OpenDatabase,
    /** The app's clock: an entry lives ten minutes on it. */
    private readonly now: () => Date,
  ) {}

  async undo(owner: Caller, token: string): Promise<Undone> {
    const key = undoTokenKey(token);
    // Text that is no token we give out is not looked up: it is as unknown as a used one.
    if (key === undefined) throw new NotFoundError(NOTHING_TO_UNDO);
    const answer = await withLedgerLock(this.database, owner, async (store) => {
      const entry = await findUndoEntry(store.db, owner, key);
      if (!entry) throw new NotFoundError(NOTHING_TO_UNDO);
      if (this.now().getTime() > entry.expiresAt.getTime()) throw new GoneError(TOO_OLD_TO_UNDO);
      const { ledger, schedule } = journalParts(entry.journal);
      if (schedule !== null) {
        const { kind } = scheduleOfChange(schedule);
        if (kind === 'deposit') await undoScheduleChange(depositRepository(store.db), owner, kind, schedule);
        else await undoScheduleChange(expenseRepository(store.db), owner, kind, schedule);
      }
      await store.undo(decodeLedgerJournal(ledger));
      await deleteUndoEntry(store.db, owner, key);
      const kind = ANSWERS[entry.kind];
      // Read in the transaction: the ledger as this undo left it, with the version it moved to.
      return kind === 'ledger' ? { kind, ledger: { ledger: store.require(), rows: await store.rows() } } : { kind };
    });
    if (answer.kind === 'ledger') return { answer: 'ledger', ledger: answer.ledger };
    if (answer.kind === 'deposits') return { answer: 'deposits', deposits: await depositRepository(this.database.db).list(owner) };
    return { answer: 'expenses', expenses: await expenseRepository(this.database.db).list(owner) };
  }
}
