/**
 * A window of the ledger (decision 0053) as the page holds it (decision 0034): the same field codecs
 * as the whole ledger's and the forecast's. Apart from codecs.ts, as the changes' codec is, so the
 * page's first view does not carry it (benchmark 4a).
 */
import * as z from 'zod/mini';
import { centsFromDollars, forecastCodec, isoDateFrom, LEDGER_FIELDS, ledgerInfoCodec, ledgerTransactionCodec } from './codecs.js';
import { ledgerWindowSchema } from './ledger-window.js';

const windowSchema = ledgerWindowSchema.shape.window;
/** The card's shares (decision 0101), present or not. */
const cardEverydaySchema = windowSchema.shape.cardEveryday.def.innerType;

export const ledgerWindowCodec = z.extend(ledgerWindowSchema, {
  window: z.extend(windowSchema, {
    ...LEDGER_FIELDS,
    transactions: z.array(ledgerTransactionCodec),
    payPeriods: forecastCodec.shape.payPeriods,
    today: forecastCodec.shape.today,
    firstBelowZero: forecastCodec.shape.firstBelowZero,
    everyday: forecastCodec.shape.everyday,
    cardEveryday: z.optional(
      z.extend(cardEverydaySchema, { shares: z.array(z.object({ closing: isoDateFrom, due: isoDateFrom, amount: centsFromDollars })) }),
    ),
  }),
});
export type LedgerWindowInfoView = z.output<typeof ledgerWindowCodec>;
export type LedgerWindowView = LedgerWindowInfoView['window'];

/** What a window request answers: the window, or `{ ledger: null }` while there is no ledger. */
export const ledgerWindowAnswerCodec = z.union([ledgerWindowCodec, ledgerInfoCodec]);
