/**
 * Bank statements in (issue 14): read a file, match it to the caller's ledger, and apply the
 * user's plan. Reading, matching, decisions and reconciliation are the domain's; this fetches
 * what they need and stores the result. An import recomputes everything inside the ledger lock
 * and one transaction: the page's preview is never trusted, and a refusal stores nothing.
 */
import { ConflictError, InvalidInputError, NotFoundError, TooLargeError } from '../../domain/errors.js';
import { compareDrafts, type LedgerRow } from '../../domain/ledger.js';
import type { CsvMapping } from '../../domain/statements/csv-statement.js';
import { type Reconciliation, reconcile } from '../../domain/statements/reconciliation.js';
import type { StatementFile } from '../../domain/statements/statement-file.js';
// From statement-row.ts: statement-file.ts would load the parsers (papaparse) at start, in this thread.
import { bankAccountEnding } from '../../domain/statements/statement-row.js';
import type { Decision, ImportCounts, ImportPlan, Proposal } from '../../domain/statements/statement-matching.js';
import type { BankBalance } from '../../domain/statements/statement-row.js';
import { MAX_STATEMENT_CHARACTERS, STATEMENT_TOO_LARGE } from '../../contract/statements.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import type { FileWorkPool } from '../file-work/file-work-pool.js';
import type { FileTask, FileTaskAnswers } from '../file-work/file-tasks.js';
import { type PlanStatementTask, planHere, type StatementPlanAnswers } from '../file-work/statement-plans.js';
import {
  type AccountChoice,
  checkExpectedVersion,
  countAccounts,
  type ClearedMatch,
  type ImportedRow,
  importedIds,
  importKeys,
  ledgerScope,
  type LedgerStore,
  type LedgerWithRows,
  type LedgerWrites,
  NO_LEDGER,
  readLedger,
  type StoredLedger,
  type StoredRow,
} from '../ledger/index.js';
import { findStatementAccount, rememberStatementAccount } from './statement-account-store.js';

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
  /** Statement rows and ledger rows the preview read: what it is charged for. */
  readonly rowsRead: number;
  /** The file's bank account, for a user with more than one account (decision 0046); undefined otherwise. */
  readonly fileAccount?: FileAccount;
}

/** An OFX or QFX file's bank account as the preview names it: its ending, and the account it was last imported into. */
export interface FileAccount {
  /** The last four characters of its ACCTID. */
  readonly ending: string;
  /** The caller's account a file of this bank account was last imported into; null when none was, or it is gone. */
  readonly accountId: string | null;
}

export interface StatementImportResult {
  readonly ledger: LedgerWithRows;
  readonly counts: ImportCounts;
  readonly bank: BankBalance | null;
  readonly reconciliation: Reconciliation | null;
  /** Statement rows and ledger rows the import read: what it is charged for. */
  readonly rowsRead: number;
  /** The token that undoes the import (decision 0040); undefined when it changed nothing. */
  readonly undo: string | undefined;
}

const CHOOSE_COLUMNS = 'Choose the date, description and amount columns before importing this file.';
export const LEDGER_CHANGED_DURING_IMPORT = 'The ledger kept changing while the statement was being matched. Import it again.';

/**
 * How often an import matches again when the ledger changed between its matching (done outside
 * the lock, in a worker) and its writing: a user's own second tab is the only usual cause.
 */
const IMPORT_ATTEMPTS = 3;

type RunFileTask = <K extends FileTask>(task: K) => Promise<FileTaskAnswers[K['kind']]>;

/** The statement's rows, or a refusal: too large (413), unreadable or a mapping that does not fit (400). */
function readFile(run: RunFileTask, input: StatementInput): Promise<StatementFile> {
  // Checked before reading anything: parsing costs time in proportion to the text.
  if (input.content.length > MAX_STATEMENT_CHARACTERS) throw new TooLargeError(STATEMENT_TOO_LARGE, 'content');
  return run({ kind: 'read-statement', fileName: input.fileName, content: input.content, mapping: input.mapping });
}

export class StatementService {
  constructor(
    private readonly database: OpenDatabase,
    private readonly fileWork: FileWorkPool,
    /** The app's clock: when a row was imported. */
    private readonly now: () => Date,
    /** An import is one unit of work: a card's payments follow its rows (decision 0045), and it is undoable. */
    private readonly writes: LedgerWrites,
  ) {}

  /**
   * What importing the file would do now, with no decisions; changes nothing. `person`: who sent the
   * file, whose one file in the works it is, whatever budget it is for (decision 0088).
   */
  async preview(owner: Caller, person: Caller, account: AccountChoice, input: StatementInput): Promise<StatementPreviewResult> {
    return this.fileWork.forOwner(person, 'content', async (run) => {
      // The ledger is read while a worker reads the file.
      const [file, found] = await Promise.all([readFile(run, input), readLedger(this.database, owner, account)]);
      if (!found) throw new NotFoundError(NO_LEDGER);
      const [{ proposals, reconciliation }, fileAccount] = await Promise.all([
        this.plan('plan-statement', run, owner, found, file, []),
        this.fileAccount(owner, file),
      ]);
      return { file, proposals, reconciliation, rowsRead: file.rows.length + found.rows.length, ...(fileAccount && { fileAccount }) };
    });
  }

  /**
   * Which account the file's bank account was last imported into, said only while there is a choice
   * of account: a user with one account gets the preview as it always was (decision 0046).
   */
  private async fileAccount(owner: Caller, file: StatementFile): Promise<FileAccount | undefined> {
    if (file.bankAccountId === undefined || (await countAccounts(this.database.db, owner)) < 2) return undefined;
    const accountId = await findStatementAccount(this.database.db, owner, file.bankAccountId);
    return { ending: bankAccountEnding(file.bankAccountId), accountId: accountId ?? null };
  }

  /**
   * Applies the file with the user's decisions: matched rows become CLEARED on the bank's date,
   * new rows are added CLEARED, and every one of them remembers its statement row's import id.
   * The matching runs in a worker on the ledger as read before the lock is taken; the writing
   * runs under the lock only if the ledger's version is still the one matched against, so no
   * other user waits on the matching and the page's preview is never trusted.
   */
  async import(
    owner: Caller,
    person: Caller,
    account: AccountChoice,
    input: StatementInput,
    decisions: readonly Decision[],
    /** The version the caller's If-Match names (decision 0030), or null to import at whatever version. */
    expected: string | null = null,
  ): Promise<StatementImportResult> {
    return this.fileWork.forOwner(person, 'content', async (run) => {
      // The ledger is read while a worker reads the file; each later attempt reads it again.
      const [file, firstRead] = await Promise.all([readFile(run, input), readLedger(this.database, owner, account)]);
      if (file.needsMapping) throw new InvalidInputError(CHOOSE_COLUMNS, { mapping: CHOOSE_COLUMNS });
      // Each import id is hashed once, however often it is looked up and recorded.
      const keyOf = importKeys(file.rows.map((row) => row.importId));
      for (let attempt = 1; attempt <= IMPORT_ATTEMPTS; attempt += 1) {
        const found = attempt === 1 ? firstRead : await readLedger(this.database, owner, account);
        if (!found) throw new NotFoundError(NO_LEDGER);
        // Refused before any matching when the caller's version is already gone; checked again under the lock.
        checkExpectedVersion(found.ledger, expected);
        const plan = await this.plan('plan-import', run, owner, found, file, decisions, keyOf);
        const rowsRead = file.rows.length + found.rows.length;
        const stored = await this.writes.runOn(
          owner,
          account,
          { growth: 'import', undo: 'importStatement' },
          {
            apply: async (store, write) => {
              const ledger = store.require();
              store.checkExpectedVersion(expected);
              if (ledger.id !== found.ledger.id || ledger.version !== found.ledger.version) return null;
              const stored = await this.storePlan(store, ledger, found.rows, file, plan, keyOf);
              const rows = plan.added.length + plan.matched.length;
              if (rows > 0) write.noteActivity({ kind: 'import', rows, account: store.account.name });
              // The next file of this bank account preselects the account it went into. Not part of the
              // undo: like the CSV columns the page remembers, it is a choice, not the ledger's data.
              if (file.bankAccountId !== undefined) {
                await rememberStatementAccount(write.db, owner, file.bankAccountId, store.account.id, this.now());
              }
              return stored;
            },
            // A card's new and cleared rows change what its statements owe: its payments followed (decision 0045).
            answer: async (store, stored, undo, write) => {
              if (!stored) return null;
              const result = write.cardWrites.has(store) ? await withRowsAsStored(store, stored, file) : stored;
              return { ...result, ledger: { ...result.ledger, ledger: store.require() }, undo };
            },
          },
        );
        if (stored) return { ...stored, rowsRead };
      }
      throw new ConflictError(LEDGER_CHANGED_DURING_IMPORT);
    });
  }

  /**
   * The proposals, the plan with the decisions applied and the reconciliation (`plan-statement`, a
   * preview), or the plan alone (`plan-import`): worked out here when the work is known to be small,
   * in a worker otherwise (decision 0114).
   */
  private async plan<K extends PlanStatementTask['kind']>(
    kind: K,
    run: RunFileTask,
    owner: Caller,
    { ledger, rows }: LedgerWithRows,
    file: StatementFile,
    decisions: readonly Decision[],
    keyOf?: (importId: string) => string,
  ): Promise<StatementPlanAnswers[K]> {
    const imported = await importedIds(
      ledgerScope(this.database, owner),
      ledger.id,
      file.rows.map((row) => row.importId),
      keyOf,
    );
    const task: PlanStatementTask & { readonly kind: K } = {
      kind,
      file,
      ledger: { startDate: ledger.startDate, endDate: ledger.endDate, openingBalance: ledger.openingBalance },
      rows,
      importedIds: [...imported],
      decisions,
    };
    // Past planHere's limits, the worker gets what matching reads of a row and no more: each field
    // crosses to it as a copy (benchmark 8). Worked out here, the rows are read where they are.
    return planHere(task) ?? run({ ...task, rows: rows.map(matchedFields) });
  }

  /** Writes the plan under the owner's lock, at the version it was worked out for. */
  private async storePlan(
    store: LedgerStore,
    ledger: StoredLedger,
    rows: readonly StoredRow[],
    file: StatementFile,
    plan: ImportPlan,
    keyOf: (importId: string) => string,
  ): Promise<Omit<StatementImportResult, 'rowsRead' | 'undo'>> {
    const byId = new Map(rows.map((row) => [row.id, row]));
    const matches = plan.matched.map((match): ClearedMatch => {
      const row = byId.get(match.ledgerRowId);
      // applyDecisions only matches rows of this ledger.
      if (!row) throw new Error(`matched row ${match.ledgerRowId} is not in the ledger`);
      return { row, date: match.date };
    });
    const cleared = await store.clear(matches);
    // New rows are numbered in row order, and added CLEARED: the bank already reports them.
    const ordered = [...plan.added].sort(compareDrafts);
    const added = await store.insert(ordered, 'CLEARED');
    const importedRows: ImportedRow[] = plan.matched.map((match) => ({ importId: match.importId, transactionId: match.ledgerRowId }));
    // insert answers the rows in the order given.
    ordered.forEach((row, position) => importedRows.push({ importId: row.importId, transactionId: (added[position] as StoredRow).id }));
    await store.recordImports(importedRows, this.now(), keyOf);

    // The ledger as stored now, without reading it again: under the lock nothing else wrote to
    // it since `rows` were read (its version is the one they were read at), each cleared row was
    // updated only at the version it was read at (so it is that row with the update's changes),
    // and the added rows are as inserted.
    const clearedById = new Map(cleared.map((row) => [row.id, row]));
    const after = rows.map((row) => clearedById.get(row.id) ?? row);
    for (const row of added) after.push(row);
    return {
      // The unit of work moves the version on once it is done: the answer takes the ledger as it ends.
      ledger: { ledger, rows: after },
      counts: plan.counts,
      bank: file.bank,
      reconciliation: file.bank && reconcile(ledger.openingBalance, after, file.bank),
    };
  }
}

function matchedFields({ id, sequence, date, name, type, amount, status, bank }: LedgerRow): LedgerRow {
  // Whether the bank still lists it: a row no longer at the bank is never matched (decision 0084).
  return { id, sequence, date, name, type, amount, status, bank: bank ? { state: bank.state } : null };
}

/** The import's answer with the ledger as stored after its card payments moved (decision 0045), and its reconciliation with those rows. */
async function withRowsAsStored(
  store: LedgerStore,
  stored: Omit<StatementImportResult, 'rowsRead' | 'undo'>,
  file: StatementFile,
): Promise<Omit<StatementImportResult, 'rowsRead' | 'undo'>> {
  const ledger = store.require();
  const rows = await store.rows();
  return { ...stored, ledger: { ledger, rows }, reconciliation: file.bank && reconcile(ledger.openingBalance, rows, file.bank) };
}
