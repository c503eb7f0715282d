/**
 * What one user may hold (docs/decisions/0028-per-user-limits-and-dev-provider.md): enough for any
 * household many times over, small enough that no user's writes can stall the server for others.
 * The checks answer the refusal, or undefined; the server runs them inside the write's transaction,
 * under the owner's lock, so two writes at once cannot both slip under a limit.
 */
import { ConflictError } from './errors.js';
import type { ScheduleKind } from './ledger.js';

export const MAX_DEPOSITS = 100;
export const MAX_EXPENSES = 300;
export const MAX_LEDGER_ROWS = 20_000;
export const MAX_ACCOUNTS = 20;

/**
 * "20,000": a count as a message writes it, as Intl.NumberFormat('en-US') would. Written out: the
 * statement bounds' messages are built when the server starts, and Intl's first use loads ICU's
 * locale data, about 5 MB of the server's memory (docs/decisions/0041-start-fast-idle-light.md).
 */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const SCHEDULE_LIMITS: Record<ScheduleKind, { max: number; plural: string }> = {
  deposit: { max: MAX_DEPOSITS, plural: 'deposits' },
  expense: { max: MAX_EXPENSES, plural: 'expenses' },
};

/** Refuses a schedule past its limit; `total` is how many the owner would have with it. */
export function checkScheduleCount(kind: ScheduleKind, total: number): ConflictError | undefined {
  const { max, plural } = SCHEDULE_LIMITS[kind];
  if (total <= max) return undefined;
  return new ConflictError(`You can have at most ${formatCount(max)} ${plural}. Remove one before adding another.`);
}

/** Refuses an account past the limit; `total` is how many the owner would have with it. */
export function checkAccountCount(total: number): ConflictError | undefined {
  if (total <= MAX_ACCOUNTS) return undefined;
  return new ConflictError(`You can have at most ${formatCount(MAX_ACCOUNTS)} accounts. Delete one before adding another.`);
}

/** Why a ledger would grow: the advice differs. */
export type LedgerGrowth = 'create' | 'extend' | 'schedule' | 'add' | 'import' | 'restore' | 'undo';

const ADVICE: Record<LedgerGrowth, string> = {
  create: 'Choose a shorter period or fewer schedules.',
  extend: 'Choose an earlier end date, or create a shorter ledger.',
  schedule: 'Shorten the ledger or remove other schedules first.',
  add: 'Create a shorter ledger first.',
  import: 'Import a shorter statement, or create a shorter ledger first.',
  restore: 'This export holds more than the server allows.',
  undo: 'Delete other rows first, then undo.',
};

/** Refuses a ledger that would hold more than MAX_LEDGER_ROWS rows; `total` is how many it would hold. */
export function checkLedgerRows(growth: LedgerGrowth, total: number): ConflictError | undefined {
  if (total <= MAX_LEDGER_ROWS) return undefined;
  return new ConflictError(
    `A ledger holds at most ${formatCount(MAX_LEDGER_ROWS)} rows: this one would hold ${formatCount(total)}. ${ADVICE[growth]}`,
  );
}
