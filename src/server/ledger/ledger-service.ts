/**
 * The ledger calls: each one a single database transaction that applies the domain's ledger rules
 * (generation, status moves, what may be edited) and answers the whole ledger. Balances are derived
 * from the stored rows on every answer, never stored. Refusals are thrown as HTTP errors for the
 * one error handler.
 */
import {
  canEdit,
  computeBalances,
  generateLedgerDrafts,
  isAllowedStatusMove,
  isWithinLedger,
  type TransactionStatus,
} from '../../domain/ledger.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import type { DateRange } from '../../domain/schedules.js';
import type { LedgerInfo, NewLedger, NewTransaction, TransactionUpdate } from '../../contract/ledger.js';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';
import { ConflictError, InvalidInputError as BadRequestError, NotFoundError } from '../../domain/errors.js';
import { type LedgerScope, lockLedger, saveLedger, type StoredLedger, takeSequence } from './ledger-record.js';
import { findLedgerWithRows, findRow, listRows } from './ledger-reads.js';
import { ledgerSchedules } from './ledger-schedules.js';
import { insertRows } from './row-insert.js';
import { deleteAllRows, deleteRow, type StoredRow, updateRow } from './transaction-rows.js';

const NO_LEDGER = 'You have no ledger yet: create one first.';
const NO_TRANSACTION = 'No such transaction in your ledger.';
const CHANGED_MEANWHILE = 'This transaction was changed at the same time by another request. Reload the ledger and try again.';

function rangeOf(ledger: StoredLedger): DateRange {
  return { from: ledger.startDate, to: ledger.endDate };
}

function dateOutsideLedger(ledger: StoredLedger): BadRequestError {
  return new BadRequestError('The date is outside the ledger.', {
    date: `Date must be within the ledger, from ${ledger.startDate} to ${ledger.endDate}.`,
  });
}

function statusMoveRefused(from: TransactionStatus, to: TransactionStatus): ConflictError {
  const why =
    to === 'PENDING' ? 'nothing returns to PENDING' : 'statuses only move forward: PENDING to PAID to CLEARED, or PENDING to CLEARED';
  return new ConflictError(`A ${from} transaction cannot become ${to}: ${why}.`);
}

/** The answer of every ledger call: rows in row order with running, current and pending balances. */
export function ledgerInfo(ledger: StoredLedger, rows: readonly StoredRow[]): LedgerInfo {
  const balances = computeBalances(ledger.openingBalance, rows);
  return {
    ledger: {
      startDate: ledger.startDate,
      endDate: ledger.endDate,
      openingBalance: centsToDollars(ledger.openingBalance),
      currentBalance: centsToDollars(balances.currentBalance),
      pendingBalance: centsToDollars(balances.pendingBalance),
      transactions: balances.rows.map((row) => ({
        id: row.id,
        date: row.date,
        name: row.name,
        type: row.type,
        amount: centsToDollars(row.amount),
        balance: centsToDollars(row.balance),
        status: row.status,
      })),
    },
  };
}

export class LedgerService {
  constructor(
    private readonly database: OpenDatabase,
    /** The app's clock, for the ledger's created_at. */
    private readonly now: () => Date,
  ) {}

  async retrieve(owner: Caller): Promise<LedgerInfo> {
    // One statement reads the ledger row and its rows from one snapshot, so a replacement committed
    // meanwhile cannot pair an old opening balance with new rows.
    const found = await findLedgerWithRows(this.scope(this.database.db, owner));
    return found ? ledgerInfo(found.ledger, found.rows) : { ledger: null };
  }

  /** Replaces the owner's ledger with every paycheck and bill between the dates, all PENDING. */
  async create(owner: Caller, request: NewLedger): Promise<LedgerInfo> {
    return this.write(owner, async (scope) => {
      await lockLedger(scope);
      const { deposits, expenses } = await ledgerSchedules(scope);
      const drafts = generateLedgerDrafts(deposits, expenses, { from: request.startDate, to: request.endDate });
      // The drafts come in row order; numbering them in that order makes it their creation order.
      const rows = drafts.map((draft, index) => ({ ...draft, sequence: index + 1 }));
      const ledger = await saveLedger(
        scope,
        {
          startDate: request.startDate,
          endDate: request.endDate,
          openingBalance: dollarsToCents(request.currentBalance),
          nextSequence: rows.length + 1,
        },
        this.now(),
      );
      await deleteAllRows(scope, ledger.id);
      // The ledger is locked and now holds exactly these rows: answer them without reading them back.
      return ledgerInfo(ledger, await insertRows(scope, ledger.id, rows));
    });
  }

  async addTransaction(owner: Caller, transaction: NewTransaction): Promise<LedgerInfo> {
    return this.write(owner, async (scope) => {
      const ledger = await lockLedger(scope);
      if (!ledger) throw new NotFoundError(NO_LEDGER);
      if (!isWithinLedger(transaction.date, rangeOf(ledger))) throw dateOutsideLedger(ledger);
      const sequence = await takeSequence(scope, ledger.id);
      await insertRows(scope, ledger.id, [
        { date: transaction.date, name: transaction.name, type: transaction.type, amount: dollarsToCents(transaction.amount), sequence },
      ]);
      return ledgerInfo(ledger, await listRows(scope, ledger.id));
    });
  }

  /**
   * Applies an edit (date, name, amount) or a status move to one row. The body is the whole row as
   * the client holds it; only the id, those fields and the status count (balance is derived).
   *
   * An edit and a status move in one request are refused (409), not applied in turn: the page sends
   * them separately, so a pay carrying other values is most likely a stale copy of the row, and
   * applying it would silently undo an edit made meanwhile.
   */
  async updateTransaction(owner: Caller, update: TransactionUpdate): Promise<LedgerInfo> {
    return this.write(owner, async (scope) => {
      const ledger = await lockLedger(scope);
      const row = ledger && (await findRow(scope, ledger.id, update.id));
      if (!ledger || !row) throw new NotFoundError(NO_TRANSACTION);

      if (update.type !== row.type) {
        throw new BadRequestError('The type of a transaction cannot change.', {
          type: `Type cannot change (it is ${row.type}): delete the transaction and add it again with the other type.`,
        });
      }
      const changes = { date: update.date, name: update.name, amount: dollarsToCents(update.amount), status: update.status };
      const edited = changes.date !== row.date || changes.name !== row.name || changes.amount !== row.amount;
      const moved = changes.status !== row.status;
      if (!edited && !moved) return ledgerInfo(ledger, await listRows(scope, ledger.id));

      if (!isAllowedStatusMove(row.status, changes.status)) throw statusMoveRefused(row.status, changes.status);
      if (edited && !canEdit(row.status)) {
        throw new ConflictError(
          `A ${row.status} transaction cannot be changed: date, name and amount can change only while it is PENDING.`,
        );
      }
      if (edited && moved) {
        throw new ConflictError(
          'Change the date, name or amount and the status in separate steps: save the changes first, then pay or clear.',
        );
      }
      if (changes.date !== row.date && !isWithinLedger(changes.date, rangeOf(ledger))) throw dateOutsideLedger(ledger);

      if (!(await updateRow(scope, ledger.id, row, changes))) throw new ConflictError(CHANGED_MEANWHILE);
      return ledgerInfo(ledger, await listRows(scope, ledger.id));
    });
  }

  /** Only an unpaid row can go: a PAID or CLEARED one is part of the account's history. */
  async deleteTransaction(owner: Caller, id: string): Promise<LedgerInfo> {
    return this.write(owner, async (scope) => {
      const ledger = await lockLedger(scope);
      const row = ledger && (await findRow(scope, ledger.id, id));
      if (!ledger || !row) throw new NotFoundError(NO_TRANSACTION);
      if (!canEdit(row.status)) {
        throw new ConflictError(`A ${row.status} transaction cannot be deleted: only PENDING transactions can.`);
      }
      if (!(await deleteRow(scope, ledger.id, row))) throw new ConflictError(CHANGED_MEANWHILE);
      return ledgerInfo(ledger, await listRows(scope, ledger.id));
    });
  }

  /** One database transaction per write: a refusal thrown inside rolls everything back. */
  private write<T>(owner: Caller, work: (scope: LedgerScope) => Promise<T>): Promise<T> {
    return this.database.db.transaction().execute((trx) => work(this.scope(trx, owner)));
  }

  private scope(db: Database, owner: Caller): LedgerScope {
    return { db, owner, kind: this.database.kind };
  }
}
