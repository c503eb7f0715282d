/**
 * Working out what a statement would do to a ledger (the proposals and the plan), from the file as
 * read and the ledger's rows. The file's worker thread does it (file-tasks.ts); the request's own
 * thread does it first when the work is known to be small (decision 0114): a plan of a month's
 * statement takes about 2 ms, where copying its rows to the worker and the plan back, and waking
 * the worker, took about 6 ms more (benchmark 8), and cost this thread the copies' 2 ms anyway.
 * Plain data in and out, with no file parser: the request's thread loads none.
 */
import type { IsoDate } from '../../domain/calendar-date.js';
import type { LedgerRow } from '../../domain/ledger.js';
import type { Cents } from '../../domain/money.js';
import { type Reconciliation, reconcile } from '../../domain/statements/reconciliation.js';
import type { StatementFile } from '../../domain/statements/statement-file.js';
import {
  applyDecisions,
  type Decision,
  type ImportPlan,
  matchStatementWithin,
  type Proposal,
} from '../../domain/statements/statement-matching.js';

/**
 * The proposals, the plan with the decisions applied and the reconciliation, for a preview; or, as
 * 'plan-import', the plan alone: an import reconciles the rows it stored, and sending 2,000
 * proposals back to be dropped cost it about 1.5 ms (benchmark 8).
 */
export interface PlanStatementTask {
  readonly kind: 'plan-statement' | 'plan-import';
  readonly file: StatementFile;
  readonly ledger: { readonly startDate: IsoDate; readonly endDate: IsoDate; readonly openingBalance: Cents };
  readonly rows: readonly LedgerRow[];
  /** Import ids of the file's rows that the ledger took in before. */
  readonly importedIds: readonly string[];
  readonly decisions: readonly Decision[];
}

export interface StatementPlan {
  /** One per statement row, in the file's order. */
  readonly proposals: Proposal[];
  readonly plan: ImportPlan;
  /** The ledger as it would be with the plan applied, reconciled with the bank; null without a closing balance. */
  readonly reconciliation: Reconciliation | null;
}

/** What each kind of plan task answers. */
export interface StatementPlanAnswers {
  'plan-statement': StatementPlan;
  'plan-import': ImportPlan;
}

/**
 * Statement rows and ledger rows together, at most, for a plan worked out in the request's thread:
 * indexing and ordering the ledger's open rows is the part of matching that grows with the ledger
 * (a 20,000-row ledger takes the worker 10 ms and more), so a larger ledger goes to the worker.
 */
export const PLAN_HERE_MAX_ROWS = 5_000;

/**
 * Candidate pairs, at most, for a plan worked out in the request's thread: a real statement has
 * about one per row (a bill of one amount a month apart); a file of thousands of rows of one amount
 * on one day has 64 per row, and ranking them is what such a file drives up. Past this, the thread
 * stops (having spent about a millisecond) and the worker does the whole plan.
 */
export const PLAN_HERE_MAX_CANDIDATES = 5_000;

/** The ledger's rows as they would be with the plan applied: what the preview reconciles. */
function rowsAfter(rows: readonly LedgerRow[], plan: ImportPlan): LedgerRow[] {
  const matched = new Map(plan.matched.map((match) => [match.ledgerRowId, match.date]));
  const after = rows.map((row): LedgerRow => {
    const date = matched.get(row.id);
    return date === undefined ? row : { ...row, date, status: 'CLEARED' };
  });
  plan.added.forEach((row, position) => {
    after.push({
      id: `added-${position}`,
      sequence: Number.MAX_SAFE_INTEGER,
      date: row.date,
      name: row.name,
      type: row.type,
      amount: row.amount,
      status: 'CLEARED',
    });
  });
  return after;
}

/** The task's answer, or undefined when its proposals would take more than `candidateBudget` candidates. */
function planWithin<K extends PlanStatementTask['kind']>(
  task: PlanStatementTask & { readonly kind: K },
  candidateBudget: number,
): StatementPlanAnswers[K] | undefined {
  const { file, ledger, rows, importedIds, decisions } = task;
  const options = { startDate: ledger.startDate, endDate: ledger.endDate, importedIds: new Set(importedIds) };
  const proposals = matchStatementWithin(file.rows, rows, options, candidateBudget);
  if (proposals === undefined) return undefined;
  const plan = applyDecisions(proposals, decisions, file.rows, rows);
  // Each branch answers its own kind; TypeScript does not narrow K from task.kind.
  if (task.kind === 'plan-import') return plan as StatementPlanAnswers[K];
  const reconciliation = file.bank && reconcile(ledger.openingBalance, rowsAfter(rows, plan), file.bank);
  return { proposals, plan, reconciliation } as StatementPlanAnswers[K];
}

/** The whole plan, whatever it costs: in the file's worker thread. */
export function planStatementTask<K extends PlanStatementTask['kind']>(
  task: PlanStatementTask & { readonly kind: K },
): StatementPlanAnswers[K] {
  // An unlimited budget always answers.
  return planWithin(task, Number.POSITIVE_INFINITY) as StatementPlanAnswers[K];
}

/**
 * The plan worked out in this thread when it is known to be small (at most PLAN_HERE_MAX_ROWS rows
 * and PLAN_HERE_MAX_CANDIDATES candidates); undefined otherwise, for the worker to work out. An
 * invalid decision is refused here as in the worker.
 */
export function planHere<K extends PlanStatementTask['kind']>(
  task: PlanStatementTask & { readonly kind: K },
): StatementPlanAnswers[K] | undefined {
  if (task.file.rows.length + task.rows.length > PLAN_HERE_MAX_ROWS) return undefined;
  return planWithin(task, PLAN_HERE_MAX_CANDIDATES);
}
