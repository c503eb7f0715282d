/**
 * The ledger calls: each write is a single database transaction that applies the domain's ledger
 * rules (generation, what a change to a row may do) and answers the ledger with all its rows, in
 * cents. Refusals are the domain's errors, which the one error handler turns into status codes.
 */
import { generateLedgerDrafts, type TransactionDraft } from '../../domain/ledger.js';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import type { DateRange } from '../../domain/schedules.js';
import { checkDateWithinLedger, checkDeletion, decideUpdate, type RequestedRow, refusalError } from '../../domain/transaction-rules.js';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';
import { type LedgerFields, type LedgerScope, lockLedger, saveLedger, type StoredLedger, takeSequence } from './ledger-record.js';
import { findLedgerWithRows, findRow, listRows } from './ledger-reads.js';
import { ledgerSchedules } from './ledger-schedules.js';
import { insertRows } from './row-insert.js';
import { deleteAllRows, deleteRow, type StoredRow, updateRow } from './transaction-rows.js';

const NO_LEDGER = 'You have no ledger yet: create one first.';
const NO_TRANSACTION = 'No such transaction in your ledger.';
const CHANGED_MEANWHILE = 'This transaction was changed at the same time by another request. Reload the ledger and try again.';

/** A ledger with every one of its rows, as stored; balances are derived from it for each answer. */
export interface LedgerWithRows {
  readonly ledger: StoredLedger;
  readonly rows: readonly StoredRow[];
}

function rangeOf(ledger: StoredLedger): DateRange {
  return { from: ledger.startDate, to: ledger.endDate };
}

export class LedgerService {
  constructor(
    private readonly database: OpenDatabase,
    /** The app's clock, for the ledger's created_at. */
    private readonly now: () => Date,
  ) {}

  /** The caller's ledger, or undefined while they have none. */
  async retrieve(owner: Caller): Promise<LedgerWithRows | undefined> {
    return findLedgerWithRows(this.scope(this.database.db, owner));
  }

  /** Replaces the owner's ledger with every paycheck and bill between the dates, all PENDING. */
  async create(owner: Caller, fields: LedgerFields): Promise<LedgerWithRows> {
    return this.write(owner, async (scope) => {
      await lockLedger(scope);
      const { deposits, expenses } = await ledgerSchedules(scope);
      const drafts = generateLedgerDrafts(deposits, expenses, { from: fields.startDate, to: fields.endDate });
      // The drafts come in row order; numbering them in that order makes it their creation order.
      const rows = drafts.map((draft, index) => ({ ...draft, sequence: index + 1 }));
      const ledger = await saveLedger(scope, { ...fields, nextSequence: rows.length + 1 }, this.now());
      await deleteAllRows(scope, ledger.id);
      // The ledger is locked and now holds exactly these rows: answer them without reading them back.
      return { ledger, rows: await insertRows(scope, ledger.id, rows) };
    });
  }

  async addTransaction(owner: Caller, draft: TransactionDraft): Promise<LedgerWithRows> {
    return this.write(owner, async (scope) => {
      const ledger = await lockLedger(scope);
      if (!ledger) throw new NotFoundError(NO_LEDGER);
      const outside = checkDateWithinLedger(draft.date, rangeOf(ledger));
      if (outside) throw refusalError(outside);
      const sequence = await takeSequence(scope, ledger.id);
      await insertRows(scope, ledger.id, [{ ...draft, sequence }]);
      return { ledger, rows: await listRows(scope, ledger.id) };
    });
  }

  /**
   * Applies an edit (date, name, amount) or a status move to one row, as the domain decides. The
   * request is the whole row as the client holds it, so a stale copy is refused, not applied.
   */
  async updateTransaction(owner: Caller, id: string, requested: RequestedRow): Promise<LedgerWithRows> {
    return this.write(owner, async (scope) => {
      const { ledger, row } = await this.lockRow(scope, id);
      const decision = decideUpdate(row, requested, rangeOf(ledger));
      if (decision.kind === 'refused') throw refusalError(decision.refusal);
      if (decision.kind === 'change' && !(await updateRow(scope, ledger.id, row, decision.changes))) {
        throw new ConflictError(CHANGED_MEANWHILE);
      }
      return { ledger, rows: await listRows(scope, ledger.id) };
    });
  }

  async deleteTransaction(owner: Caller, id: string): Promise<LedgerWithRows> {
    return this.write(owner, async (scope) => {
      const { ledger, row } = await this.lockRow(scope, id);
      const refusal = checkDeletion(row);
      if (refusal) throw refusalError(refusal);
      if (!(await deleteRow(scope, ledger.id, row))) throw new ConflictError(CHANGED_MEANWHILE);
      return { ledger, rows: await listRows(scope, ledger.id) };
    });
  }

  /** The locked ledger and its row with this id; a missing ledger or row is the same not-found. */
  private async lockRow(scope: LedgerScope, id: string): Promise<{ ledger: StoredLedger; row: StoredRow }> {
    const ledger = await lockLedger(scope);
    const row = ledger && (await findRow(scope, ledger.id, id));
    if (!ledger || !row) throw new NotFoundError(NO_TRANSACTION);
    return { ledger, row };
  }

  /** One database transaction per write: a refusal thrown inside rolls everything back. */
  private write<T>(owner: Caller, work: (scope: LedgerScope) => Promise<T>): Promise<T> {
    return this.database.db.transaction().execute((trx) => work(this.scope(trx, owner)));
  }

  private scope(db: Database, owner: Caller): LedgerScope {
    return { db, owner, kind: this.database.kind };
  }
}
