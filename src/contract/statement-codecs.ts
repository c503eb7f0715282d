/**
 * The statement answers as the page holds them (decision 0034), with the same field codecs as
 * every other answer. Apart from codecs.ts, as ledger-changes-codec.ts is: the api client loads
 * this module with the first statement call, so the page's first view does not carry the
 * statement schemas (benchmark 4a). First-view code imports only types from here (`import type`),
 * never through codecs.ts: it imports this module's field codecs, so a re-export there was a circle.
 */
import * as z from 'zod/mini';
import { centsFromDollars, isoDateFrom, ledgerCodec } from './codecs.js';
import {
  bankBalanceSchema,
  reconciliationSchema,
  statementImportSchema,
  statementPreviewSchema,
  statementRowSchema,
} from './statements.js';

export const statementRowCodec = z.extend(statementRowSchema, { date: isoDateFrom, amount: centsFromDollars });
export type StatementRowView = z.output<typeof statementRowCodec>;

export const bankBalanceCodec = z.extend(bankBalanceSchema, { balance: centsFromDollars, date: isoDateFrom });
export type BankBalanceView = z.output<typeof bankBalanceCodec>;

export const reconciliationCodec = z.extend(reconciliationSchema, {
  bankBalance: centsFromDollars,
  date: isoDateFrom,
  leftover: centsFromDollars,
  difference: centsFromDollars,
});
export type ReconciliationView = z.output<typeof reconciliationCodec>;

const STATEMENT_FIGURES = { bank: z.nullable(bankBalanceCodec), reconciliation: z.nullable(reconciliationCodec) };

export const statementPreviewCodec = z.extend(statementPreviewSchema, { rows: z.array(statementRowCodec), ...STATEMENT_FIGURES });
export type StatementPreviewView = z.output<typeof statementPreviewCodec>;

export const statementImportCodec = z.extend(statementImportSchema, { ledger: z.nullable(ledgerCodec), ...STATEMENT_FIGURES });
export type StatementImportView = z.output<typeof statementImportCodec>;
