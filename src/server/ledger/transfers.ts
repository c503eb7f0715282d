/**
 * Transfers between the owner's accounts (decision 0043), in one place: writing a one-off transfer,
 * and the follower the unit of work runs after every ledger write (ledger-write.ts) to keep each
 * pair whole. The rules are the domain's (domain/transfers.ts); this reads and writes the ledgers
 * through their stores, so the unit journals and versions what it does with the write that caused it.
 */
import type { IsoDate } from '../../domain/calendar-date.js';
import { ConflictError, InvalidInputError } from '../../domain/errors.js';
import { isWithinLedger, type ScheduleRef } from '../../domain/ledger.js';
import type { Cents } from '../../domain/money.js';
import type { RowChanges } from '../../domain/transaction-rules.js';
import { followDelete, followEdit, pairRecurringSides, type ScheduleSide } from '../../domain/transfers.js';
import { defaultTransferName } from '../../contract/transfers.js';
import { newId } from '../db/ids.js';
import { type AccountSchedules, transferIn } from './account-schedules.js';
import type { StoredLedger } from './ledger-record.js';
import type { LedgerStore, LockedStores } from './ledger-store.js';
import type { StoredRow } from './transaction-rows.js';

export const CHANGED_MEANWHILE = 'This transaction was changed at the same time by another request. Reload the ledger and try again.';

/** A side of a transfer a write edited (its changes) or deleted (null), as it was read before. */
export interface WrittenSide {
  readonly store: LedgerStore;
  readonly row: StoredRow;
  readonly changes: RowChanges | null;
}

/** What the follower reads beside the locked stores: the schedules, for which expenses are recurring transfers. */
export interface TransferFollowing extends LockedStores {
  schedules(): Promise<AccountSchedules>;
}

/** A transfer to write: From, To (accounts' ids), and the row both sides get; no name means "Transfer to <To>". */
export interface TransferDraft {
  readonly fromAccountId: string;
  readonly toAccountId: string;
  readonly date: IsoDate;
  readonly amount: Cents;
  readonly name: string | undefined;
}

/** The ledger a side of a transfer is written to, or a refusal naming `field` (the side's account). */
function transferLedger(store: LedgerStore, field: string): StoredLedger {
  if (!store.ledger) {
    const message = `${store.account.name} has no ledger yet: create one first.`;
    throw new InvalidInputError(message, { [field]: message });
  }
  return store.ledger;
}

/** A side of a transfer must lie within its account's ledger: a 400 naming the date and that ledger. */
function checkTransferDate(store: LedgerStore, ledger: StoredLedger, date: IsoDate): void {
  if (isWithinLedger(date, { from: ledger.startDate, to: ledger.endDate })) return;
  throw new InvalidInputError(`The date is outside ${store.account.name}'s ledger.`, {
    date: `Date must be between ${ledger.startDate} and ${ledger.endDate}, the dates of ${store.account.name}'s ledger.`,
  });
}

/**
 * A transfer between two of the owner's accounts: a debit in From's ledger and a credit in To's,
 * with the same date, name and amount, each naming the other. Answers From's store.
 */
export async function writeTransfer(write: LockedStores, draft: TransferDraft, expected: string | null): Promise<LedgerStore> {
  const from = await write.store({ id: draft.fromAccountId });
  const to = await write.store({ id: draft.toAccountId });
  if (from === to) {
    throw new InvalidInputError('A transfer moves money between two accounts.', {
      toAccountId: 'To must be another account than From.',
    });
  }
  const fromLedger = transferLedger(from, 'fromAccountId');
  const toLedger = transferLedger(to, 'toAccountId');
  from.checkExpectedVersion(expected);
  checkTransferDate(from, fromLedger, draft.date);
  checkTransferDate(to, toLedger, draft.date);
  const row = { date: draft.date, name: draft.name ?? defaultTransferName(to.account.name), amount: draft.amount };
  const [fromId, toId] = [newId(), newId()];
  await from.insert([{ ...row, id: fromId, type: 'D', transfer: { id: toId, accountId: to.account.id } }]);
  await to.insert([{ ...row, id: toId, type: 'C', transfer: { id: fromId, accountId: from.account.id } }]);
  return from;
}

/**
 * The follower: after a write, each side it edited or deleted has its other side follow (the same
 * date, name and amount, or deleted too; refused while that side is paid or cleared), and each
 * recurring transfer whose rows it added or removed has its pairs made again. `expenses` names the
 * expenses whose rows were written, each with whether one of them carried a link.
 */
export async function followTransfers(
  write: TransferFollowing,
  sides: readonly WrittenSide[],
  expenses: ReadonlyMap<string, boolean>,
): Promise<void> {
  for (const { store, row, changes } of sides) {
    const other = await store.otherSide(row);
    if (!other) continue;
    const where = other.store.account.name;
    if (changes) {
      const followed = followEdit(changes, other.row);
      if ('kind' in followed) {
        throw new ConflictError(
          `The other side of this transfer, in ${where}, is ${followed.status}: a transfer's date, name and amount can change only while both sides are PENDING.`,
        );
      }
      checkTransferDate(other.store, other.store.require(), changes.date);
      if (!(await other.store.update(other.row, followed.changes, true, true))) throw new ConflictError(CHANGED_MEANWHILE);
    } else {
      const refusal = followDelete(other.row);
      if (refusal) {
        throw new ConflictError(
          `The other side of this transfer, in ${where}, is ${refusal.status}: a transfer can be deleted only while both sides are PENDING.`,
        );
      }
      if (!(await other.store.delete(other.row, true))) throw new ConflictError(CHANGED_MEANWHILE);
    }
  }
  if (expenses.size > 0) await pairRecurringTransfers(write, expenses);
}

/**
 * Links each recurring transfer's debits with its credits of the same occurrences (decision 0043):
 * a row already paired with a row that names it back stays so; a row left without its other side
 * carries no link. Only rows whose link changes are written.
 */
async function pairRecurringTransfers(write: TransferFollowing, expenses: ReadonlyMap<string, boolean>): Promise<void> {
  const schedules = await write.schedules();
  for (const [id, carriedLink] of expenses) {
    const transfer = transferIn(schedules, id);
    // An ordinary bill whose rows never carried a link has nothing to pair.
    if (!transfer && !carriedLink) continue;
    if (transfer) {
      await write.storeOf(transfer.from);
      await write.storeOf(transfer.to);
    }
    const schedule: ScheduleRef = { kind: 'expense', id };
    const byAccount = new Map<string, LedgerStore>();
    const found: ScheduleSide<StoredRow>[] = [];
    for (const store of write.openedStores()) {
      if (!store.ledger) continue;
      byAccount.set(store.account.id, store);
      for (const row of await store.scheduleRows(schedule)) found.push({ accountId: store.account.id, row });
    }
    const byId = new Map(found.map((side) => [side.row.id, side.row]));
    const paired = new Set<string>();
    for (const { accountId, row } of found) {
      if (!row.transfer) continue;
      const store = byAccount.get(accountId);
      // The other side may be in a ledger the expense paid into before: its own store says.
      const other = byId.get(row.transfer.id) ?? (store && (await store.otherSide(row))?.row);
      if (other?.transfer?.id === row.id) paired.add(row.id);
    }
    for (const { side, link } of pairRecurringSides(found, transfer, paired)) {
      const store = byAccount.get(side.accountId);
      if (!store || !(await store.setTransfer(side.row, link))) throw new ConflictError(CHANGED_MEANWHILE);
    }
  }
}
