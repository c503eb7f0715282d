/** The requests of "Can I afford it?" and the everyday spending suggestion (issue 36), as the server checks them. */
import * as z from 'zod/mini';
import { MAX_TRANSACTION_NAME_LENGTH } from '../domain/ledger.js';
import { accountIdField, isoDateField, limitedDollarsField, OBJECT_BODY, trimmedText } from './request-fields.js';

/** The most purchases one what-if may weigh. */
export const MAX_WHAT_IF_ITEMS = 10;

const ITEMS_MESSAGE = `Items must list from 1 to ${MAX_WHAT_IF_ITEMS} purchases.`;

/** One purchase: what Home's "Can I afford it?" form checks too. */
export const whatIfItemSchema = z.object(
  {
    accountId: accountIdField,
    date: isoDateField('Date'),
    amount: limitedDollarsField('Amount', false),
    name: z.optional(trimmedText('Name', MAX_TRANSACTION_NAME_LENGTH)),
  },
  { error: 'Each item must be { date, amount, accountId?, name? }.' },
);

/**
 * POST /api/what-if: 1 to 10 purchases, each an amount spent on a date (today or later, within the
 * account's ledger: the server checks those two against the caller's today and ledger), out of an
 * account (the primary one when left out).
 */
export const whatIfRequestSchema = z.object(
  {
    items: z
      .array(whatIfItemSchema, { error: ITEMS_MESSAGE })
      .check(z.minLength(1, ITEMS_MESSAGE), z.maxLength(MAX_WHAT_IF_ITEMS, ITEMS_MESSAGE)),
  },
  OBJECT_BODY,
);
export type WhatIfRequest = z.output<typeof whatIfRequestSchema>;

/** GET /api/everyday-spending/suggestion?accountId=: the account to suggest for (the primary one when left out). */
export const everydaySuggestionQuerySchema = z.object({ accountId: accountIdField });
