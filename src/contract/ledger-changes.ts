/**
 * The smaller answer of a write of one ledger row (decision 0030). Apart from ledger.ts so the
 * page's first view, which only reads whole ledgers, does not carry it (benchmark 4a).
 */
import * as z from 'zod/mini';
import { idSchema } from './common.js';
import { LEDGER_HEADER_FIELDS, ledgerInfoSchema, ledgerTransactionSchema } from './ledger.js';

/** What names one state of a ledger: a new one after every write that changes it. Opaque to clients. */
const versionSchema = z.string();

/**
 * How a write of one row may answer, named by its `answer` query parameter: the whole ledger (the
 * default, what SPEC.md's calls answer), or only what the write changed (decision 0030).
 */
export const LEDGER_ANSWERS = ['ledger', 'changes'] as const;

/** A changed or added row: the row as the whole ledger answers it, and its index in row order. */
const changedTransactionSchema = z.extend(ledgerTransactionSchema, { position: z.number() });

/**
 * `?answer=changes`: what a write of one row did, for a client holding the ledger at `basedOn`.
 * It removes the rows named in `removed` and those of `rows`, puts each of `rows` at its position
 * (in position order), and recomputes the balances; the ledger then has `count` rows, is at
 * `version`, and its balances are the ones given here. A client holding another version reloads.
 */
export const ledgerChangesSchema = z.object({
  changes: z.object({
    basedOn: versionSchema,
    version: versionSchema,
    ...LEDGER_HEADER_FIELDS,
    count: z.number(),
    rows: z.array(changedTransactionSchema),
    removed: z.array(idSchema),
  }),
});
export type LedgerChanges = z.infer<typeof ledgerChangesSchema>['changes'];

/** The answer of a write of one row, whichever the caller asked for. */
export const ledgerWriteAnswerSchema = z.union([ledgerInfoSchema, ledgerChangesSchema]);

/** `?answer=changes` on a write of one row: answer what it changed, not the whole ledger (decision 0030). */
export const ledgerAnswerQuerySchema = z.object({
  answer: z.optional(z.enum(LEDGER_ANSWERS, { error: 'answer must be "ledger" (the whole ledger) or "changes".' })),
});
