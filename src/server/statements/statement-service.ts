/**
 * Bank statements in (issue 14): read a file, match it to the caller's ledger, and apply the
 * user's plan. Reading, matching, decisions and reconciliation are the domain's; this fetches
 * what they need and stores the result. An import recomputes everything inside the ledger lock
 * and one transaction: the page's preview is never trusted, and a refusal stores nothing.
 */
import { checkLedgerRows } from '../../domain/limits.js';
import { InvalidInputError, NotFoundError, TooLargeError } from '../../domain/errors.js';
import { compareDrafts, type LedgerRow } from '../../domain/ledger.js';
import type { CsvMapping } from '../../domain/statements/csv-statement.js';
import { type Reconciliation, reconcile } from '../../domain/statements/reconciliation.js';
import { readStatement, type StatementFile } from '../../domain/statements/statement-file.js';
import {
  applyDecisions,
  type Decision,
  type ImportCounts,
  type ImportPlan,
  matchStatement,
  type Proposal,
} from '../../domain/statements/statement-matching.js';
import type { BankBalance } from '../../domain/statements/statement-row.js';
import { MAX_STATEMENT_CHARACTERS, STATEMENT_TOO_LARGE } from '../../contract/statements.js';
import type { Caller } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';
import { importedIds, importKeyCache, recordImports } from '../ledger/imported-rows.js';
import { findLedgerWithRows, listRows } from '../ledger/ledger-reads.js';
import { advanceVersion, type LedgerScope, lockLedger, type StoredLedger, takeSequences } from '../ledger/ledger-record.js';
import { type LedgerWithRows, NO_LEDGER } from '../ledger/ledger-service.js';
import { insertRows } from '../ledger/row-insert.js';
import { type ClearedMatch, clearMatchedRows, type StoredRow } from '../ledger/transaction-rows.js';

export interface StatementInput {
  readonly fileName: string;
  readonly content: string;
  readonly mapping?: CsvMapping;
}

export interface StatementPreviewResult {
  readonly file: StatementFile;
  /** One per statement row, in the file's order. */
  readonly proposals: readonly Proposal[];
  /** With the proposals applied; null when the statement states no closing balance. */
  readonly reconciliation: Reconciliation | null;
}

export interface StatementImportResult {
  readonly ledger: LedgerWithRows;
  readonly counts: ImportCounts;
  readonly bank: BankBalance | null;
  readonly reconciliation: Reconciliation | null;
}

const CHOOSE_COLUMNS = 'Choose the date, description and amount columns before importing this file.';

/** The statement's rows, or a refusal: too large (413), unreadable or a mapping that does not fit (400). */
function readFile(input: StatementInput): StatementFile {
  // Checked before reading anything: parsing costs time in proportion to the text.
  if (input.content.length > MAX_STATEMENT_CHARACTERS) throw new TooLargeError(STATEMENT_TOO_LARGE, 'content');
  return readStatement(input.fileName, input.content, input.mapping);
}

/** The ledger's rows as they would be with the plan applied: what the preview reconciles. */
function rowsAfter(rows: readonly LedgerRow[], plan: ImportPlan): LedgerRow[] {
  const matched = new Map(plan.matched.map((match) => [match.ledgerRowId, match.date]));
  const updated = rows.map((row) => {
    const date = matched.get(row.id);
    return date === undefined ? row : { ...row, date, status: 'CLEARED' as const };
  });
  const added = plan.added.map((row, position): LedgerRow => ({
    id: `added-${position}`,
    sequence: Number.MAX_SAFE_INTEGER,
    date: row.date,
    name: row.name,
    type: row.type,
    amount: row.amount,
    status: 'CLEARED',
  }));
  return [...updated, ...added];
}

function reconciled(ledger: StoredLedger, rows: readonly LedgerRow[], bank: BankBalance | null): Reconciliation | null {
  return bank && reconcile(ledger.openingBalance, rows, bank);
}

export class StatementService {
  constructor(
    private readonly database: OpenDatabase,
    /** The app's clock: when a row was imported. */
    private readonly now: () => Date,
  ) {}

  /** What importing the file would do now, with no decisions; changes nothing. */
  async preview(owner: Caller, input: StatementInput): Promise<StatementPreviewResult> {
    const file = readFile(input);
    const scope = this.scope(this.database.db, owner);
    const found = await findLedgerWithRows(scope);
    if (!found) throw new NotFoundError(NO_LEDGER);
    const proposals = await this.propose(scope, found.ledger, found.rows, file);
    const plan = applyDecisions(proposals, [], file.rows, found.rows);
    return { file, proposals, reconciliation: reconciled(found.ledger, rowsAfter(found.rows, plan), file.bank) };
  }

  /**
   * Applies the file with the user's decisions: matched rows become CLEARED on the bank's date,
   * new rows are added CLEARED, and every one of them remembers its statement row's import id.
   */
  async import(owner: Caller, input: StatementInput, decisions: readonly Decision[]): Promise<StatementImportResult> {
    // Reading the file needs no lock: it depends on the request alone.
    const file = readFile(input);
    if (file.needsMapping) throw new InvalidInputError(CHOOSE_COLUMNS, { mapping: CHOOSE_COLUMNS });
    return this.database.db.transaction().execute(async (trx) => {
      const scope = this.scope(trx, owner);
      const ledger = await lockLedger(scope);
      if (!ledger) throw new NotFoundError(NO_LEDGER);
      const rows = await listRows(scope, ledger.id);
      // Each import id is hashed once, whether looked up, recorded, or both.
      const keyOf = importKeyCache();
      const proposals = await this.propose(scope, ledger, rows, file, keyOf);
      const plan = applyDecisions(proposals, decisions, file.rows, rows);

      const byId = new Map(rows.map((row) => [row.id, row]));
      const matches = plan.matched.map((match): ClearedMatch => {
        const row = byId.get(match.ledgerRowId);
        // applyDecisions only matches rows of this ledger.
        if (!row) throw new Error(`matched row ${match.ledgerRowId} is not in the ledger`);
        return { row, date: match.date };
      });
      const tooMany = plan.added.length > 0 ? checkLedgerRows('import', rows.length + plan.added.length) : undefined;
      if (tooMany) throw tooMany;
      const cleared = await clearMatchedRows(scope, ledger.id, matches);
      const added = await this.addRows(scope, ledger.id, plan);
      await recordImports(
        scope,
        ledger.id,
        [
          ...plan.matched.map((match) => ({ importId: match.importId, transactionId: match.ledgerRowId })),
          ...added.map(({ importId, row }) => ({ importId, transactionId: row.id })),
        ],
        this.now(),
        keyOf,
      );

      // The ledger as stored now, without reading it again: under the lock nothing else wrote to
      // it since `rows` were read, each cleared row was updated only at the version it was read
      // at (so it is that row with the update's changes), and the added rows are as inserted.
      const clearedById = new Map(cleared.map((row) => [row.id, row]));
      const after = [...rows.map((row) => clearedById.get(row.id) ?? row), ...added.map(({ row }) => row)];
      const changed = cleared.length > 0 || added.length > 0;
      return {
        ledger: { ledger: changed ? await advanceVersion(scope, ledger) : ledger, rows: after },
        counts: plan.counts,
        bank: file.bank,
        reconciliation: reconciled(ledger, after, file.bank),
      };
    });
  }

  private async propose(
    scope: LedgerScope,
    ledger: StoredLedger,
    rows: readonly LedgerRow[],
    file: StatementFile,
    keyOf?: (importId: string) => string,
  ): Promise<Proposal[]> {
    const imported = await importedIds(
      scope,
      ledger.id,
      file.rows.map((row) => row.importId),
      keyOf,
    );
    return matchStatement(file.rows, rows, { startDate: ledger.startDate, endDate: ledger.endDate, importedIds: imported });
  }

  /** Stores the plan's new rows as CLEARED rows added by hand, numbered in row order. */
  private async addRows(scope: LedgerScope, ledgerId: string, plan: ImportPlan): Promise<{ importId: string; row: StoredRow }[]> {
    if (plan.added.length === 0) return [];
    const ordered = [...plan.added].sort(compareDrafts);
    const first = await takeSequences(scope, ledgerId, ordered.length);
    const stored = await insertRows(
      scope,
      ledgerId,
      ordered.map((row, position) => ({
        date: row.date,
        name: row.name,
        type: row.type,
        amount: row.amount,
        sequence: first + position,
        status: 'CLEARED' as const,
      })),
    );
    // insertRows answers the rows in the order given.
    return ordered.map((row, position) => ({ importId: row.importId, row: stored[position] as StoredRow }));
  }

  private scope(db: Database, owner: Caller): LedgerScope {
    return { db, owner, kind: this.database.kind };
  }
}
