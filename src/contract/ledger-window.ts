/**
 * A window of the ledger (issue 27, decision 0053): `GET retrieve-ledger?limit=` answers the rows
 * from `from` (0 unless given) up to `limit` of them, each with its running balance, and what the
 * page shows around them without every row: the ledger's fields and balances, how many rows it has,
 * its pay periods up to the window's last row and how many there are, and the first row ahead
 * that goes below $0. Without a window parameter the call answers the whole ledger, as SPEC.md has
 * it. Apart from ledger.ts so the page's first view does not carry it (benchmark 4a).
 */
import * as z from 'zod/mini';
import { isIsoDate } from '../domain/calendar-date.js';
import { dollarsAnswerSchema } from './common.js';
import { forecastSchema, LEDGER_HEADER_FIELDS, ledgerTransactionSchema } from './ledger.js';

/** The most rows one window answers: a few screens, never the whole of a long ledger. */
export const LEDGER_WINDOW_MOST_ROWS = 500;
/** Rows a window answers when `limit` is left out but another window parameter is given. */
export const LEDGER_WINDOW_ROWS = 100;
/** The highest row index a window may start at: past the product's 20,000 rows (decision 0028), so every row can be asked for. */
const LAST_WINDOW_START = 99_999;

/** A whole number in a query string, in a range, with one message for every way to miss it. */
function queryNumber(label: string, min: number, max: number) {
  const message = `${label} must be a whole number from ${min} to ${max}.`;
  return z.optional(
    z.pipe(
      z
        .string({ error: message })
        .check(z.refine((text: string) => /^\d{1,6}$/.test(text) && Number(text) >= min && Number(text) <= max, message)),
      z.transform(Number),
    ),
  );
}

/** GET retrieve-ledger's query: any of these asks for a window instead of the whole ledger. */
export const ledgerWindowQuerySchema = z.object({
  from: queryNumber('from', 0, LAST_WINDOW_START),
  limit: queryNumber('limit', 1, LEDGER_WINDOW_MOST_ROWS),
  today: z.optional(
    z.string({ error: 'today must be a date (YYYY-MM-DD).' }).check(z.refine(isIsoDate, 'today must be a real date (YYYY-MM-DD).')),
  ),
});
export type LedgerWindowQuery = z.output<typeof ledgerWindowQuerySchema>;

/** Whether a retrieve-ledger query asks for a window. */
export function asksForWindow(query: LedgerWindowQuery): boolean {
  return query.from !== undefined || query.limit !== undefined || query.today !== undefined;
}

export const ledgerWindowSchema = z.object({
  window: z.object({
    ...LEDGER_HEADER_FIELDS,
    /** Every row of the ledger, not only those answered. */
    count: z.number(),
    /** The index in row order of the first row answered. */
    from: z.number(),
    /** Rows `from` onwards, at most `limit` of them, in row order, as the whole ledger answers them. */
    transactions: z.array(ledgerTransactionSchema),
    /**
     * The pay periods (issue 13) whose lines lie among the rows answered or before them: those that
     * start on or before the last row's date (every one when the window reaches the last row), and
     * end on or after the first row's date when the window does not start at the top.
     */
    payPeriods: forecastSchema.shape.payPeriods,
    /** How many pay periods the whole ledger has. */
    payPeriodCount: z.number(),
    /** What "ahead" means below: the query's `today`, or the server's (decision 0015). */
    today: z.string(),
    /** The first row dated today or later after which the balance is below $0, in the whole ledger. */
    firstBelowZero: forecastSchema.shape.firstBelowZero,
    /** While everyday spending comes out of this account (issue 36): counted in the warning and the pay periods, as in the forecast. */
    everyday: forecastSchema.shape.everyday,
    /**
     * While everyday spending comes out of a card this account is or pays (decision 0101): each
     * statement's share, which the warning and the pay periods above count and the rows do not (they
     * are the stored ones), so a page holding the whole ledger counts them too. Absent otherwise.
     */
    cardEveryday: z.optional(
      z.object({
        cardId: z.string(),
        side: z.enum(['C', 'D']),
        name: z.string(),
        shares: z.array(z.object({ closing: z.string(), due: z.string(), amount: dollarsAnswerSchema })),
      }),
    ),
  }),
});
export type LedgerWindow = z.infer<typeof ledgerWindowSchema>['window'];
