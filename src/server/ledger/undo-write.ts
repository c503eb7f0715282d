/**
 * An undo (decision 0040) as a unit of work of its own: it finds the owner's entry, puts back the
 * schedule's row (through the caller's `undoSchedule`: a deposit's or an expense's table is not the
 * ledger's) and each ledger's rows as the write's journal recorded them, and uses the entry up.
 * Not undoable itself, and no follower runs: the journal holds the followers' rows too, so putting
 * it back is the write never having happened.
 */
import { onlyMakerCanUndo, UNNAMED_MEMBER } from '../../domain/activity.js';
import { type BudgetRole, OWNERS_ONLY_UNDO } from '../../domain/budgets.js';
import { ConflictError, ForbiddenError, GoneError, NotFoundError } from '../../domain/errors.js';
import type { Caller, SignedInUser } from '../auth/access-token.js';
import { decodeLedgerJournalInTurns, type LedgerJournal } from './ledger-journal.js';
import type { LedgerWithRows } from './ledger-reads.js';
import { type CheckedBeforeLock, UNDO_CONFLICT } from './ledger-undo.js';
import type { LedgerStore } from './ledger-store.js';
import type { LedgerWrite, LedgerWrites } from './ledger-write.js';
import { deleteUndoEntry, findUndoEntry, type StoredUndoEntry, UNDO_KINDS, undoEntryExists, undoTokenKey } from './undo-entries.js';

/** Who asks for an undo: the signed-in person and their role in the budget. */
export interface UndoingMember {
  readonly user: SignedInUser;
  readonly role: BudgetRole;
}

function samePerson(a: Caller, b: Caller): boolean {
  return a.issuer === b.issuer && a.subject === b.subject;
}

/**
 * Undo undoes only the caller's own changes (issue 38, decision 0094): another member's answers 403
 * with their name. An entry made before migration 0026 names nobody: it is the rows' owner's, so the
 * personal budget's user, or in a shared budget its owners.
 */
function checkMaker(entry: StoredUndoEntry, owner: Caller, member: UndoingMember): void {
  if (entry.actor === null) {
    if (samePerson(member.user, owner) || member.role === 'OWNER') return;
    throw new ForbiddenError(OWNERS_ONLY_UNDO);
  }
  if (!samePerson(member.user, entry.actor)) throw new ForbiddenError(onlyMakerCanUndo(entry.actor.name ?? UNNAMED_MEMBER));
}

/** An unknown token, a used one and another user's read the same: whose tokens exist must not show. */
export const NOTHING_TO_UNDO = 'Nothing to undo: this undo is not yours or was already used.';
export const TOO_OLD_TO_UNDO = 'This can no longer be undone: it is more than 10 minutes old.';

/** What the undone write answered, so the undo answers the same: its ledger, or which schedules to list. */
export type UndoneWrite = { readonly kind: 'ledger'; readonly ledger: LedgerWithRows } | { readonly kind: 'deposits' | 'expenses' };

/** The parts of a stored journal; each is checked by the module it belongs to. */
function journalParts(journal: unknown): { ledgers: unknown[]; schedule: unknown } {
  if (typeof journal !== 'object' || journal === null) throw new Error('unexpected undo journal in the database');
  const more: unknown = Reflect.get(journal, 'more') ?? [];
  if (!Array.isArray(more)) throw new Error('unexpected undo journal in the database');
  return { ledgers: [Reflect.get(journal, 'ledger'), ...more], schedule: Reflect.get(journal, 'schedule') ?? null };
}

/**
 * Takes back the write `token` names, for its owner alone, within its ten minutes on the app's clock.
 * An entry never changes once written: it is read and its journal decoded before the lock (a big
 * one in turns of the event loop), and checked against the ledger's rows there too (checkBeforeLock);
 * under the lock the undo makes sure the entry is still there and the ledger's version has not moved.
 */
export async function undoWrite(
  writes: LedgerWrites,
  owner: Caller,
  member: UndoingMember,
  token: string,
  undoSchedule: (write: LedgerWrite, change: unknown) => Promise<void>,
): Promise<UndoneWrite> {
  const key = undoTokenKey(token);
  // Text that is no token we give out is not looked up: it is as unknown as a used one.
  if (key === undefined) throw new NotFoundError(NOTHING_TO_UNDO);
  const entry = await findUndoEntry(writes.reader, owner, key);
  if (!entry) throw new NotFoundError(NOTHING_TO_UNDO);
  // Who made it never changes once written: checked once, before any work.
  checkMaker(entry, owner, member);
  if (writes.now().getTime() > entry.expiresAt.getTime()) throw new GoneError(TOO_OLD_TO_UNDO);
  const { ledgers, schedule } = journalParts(entry.journal);
  const journals: { journal: LedgerJournal; checked: CheckedBeforeLock | undefined }[] = [];
  for (const part of ledgers) {
    const journal = await decodeLedgerJournalInTurns(part);
    // Checked against the rows before the lock: under it, only whether the ledger's version moved since.
    journals.push({ journal, checked: await writes.checkUndoBeforeLock(owner, journal) });
  }
  return writes.run(
    owner,
    { growth: 'undo', undo: null, follow: false },
    {
      apply: async (write) => {
        if (!(await undoEntryExists(write.db, owner, key))) throw new NotFoundError(NOTHING_TO_UNDO);
        if (writes.now().getTime() > entry.expiresAt.getTime()) throw new GoneError(TOO_OLD_TO_UNDO);
        if (schedule !== null) await undoSchedule(write, schedule);
        // Each ledger the write changed, in its account; an account deleted since leaves nothing to put back into.
        const stores: LedgerStore[] = [];
        for (const { journal, checked } of journals) {
          const store = await write.storeOf(journal.accountId);
          if (!store) throw new ConflictError(UNDO_CONFLICT);
          await store.undo(journal, checked);
          stores.push(store);
        }
        await deleteUndoEntry(write.db, owner, key);
        write.noteActivity({ kind: 'undo', undone: entry.what });
        return { kind: UNDO_KINDS[entry.kind], first: stores[0] };
      },
      // Read in the transaction: the ledger as this undo left it, with the version it moved to.
      answer: async (_write, { kind, first }): Promise<UndoneWrite> => {
        if (kind !== 'ledger') return { kind };
        if (!first) throw new Error("a ledger write's undo entry without a ledger journal");
        return { kind, ledger: { ledger: first.require(), rows: await first.rows() } };
      },
    },
  );
}
