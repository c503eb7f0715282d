/**
 * What a user enters to add, rename or delete an account (decision 0042): the server's check and,
 * later, the page's form. Apart from accounts.ts so the page's first view does not carry it.
 */
import * as z from 'zod/mini';
import { ACCOUNT_KINDS, CARD_RULES, MAX_ACCOUNT_NAME_LENGTH } from '../domain/accounts.js';
import { idSchema } from './common.js';
import { OBJECT_BODY, positiveDollarsField, trimmedText, wholeNumberField } from './request-fields.js';

const PAY_FROM = 'Pay From must be the id of one of your accounts that is not a card.';
const AMOUNT_FOR_RULE = 'Amount is required for the MINIMUM and FIXED rules.';
const NO_AMOUNT_FOR_STATEMENT = 'Amount must be empty for the STATEMENT rule: the payment is the statement balance.';

/** A card's settings: closing and due days, the account that pays it, the payment rule and an optional limit. */
export const cardInputSchema = z
  .object(
    {
      closingDay: wholeNumberField('Closing Day', 1, 31),
      dueDay: wholeNumberField('Due Day', 1, 31),
      payFromAccountId: z.string({ error: PAY_FROM }).check(z.regex(/^[A-Za-z0-9-]{1,64}$/, PAY_FROM)),
      rule: z.enum(CARD_RULES, { error: 'Rule must be STATEMENT, MINIMUM or FIXED.' }),
      amount: z.optional(z.nullable(positiveDollarsField('Amount'))),
      creditLimit: z.optional(z.nullable(positiveDollarsField('Credit Limit'))),
    },
    { error: 'Card must be an object with closingDay, dueDay, payFromAccountId, rule, amount and creditLimit.' },
  )
  .check(
    z.superRefine((card, context) => {
      const hasAmount = card.amount !== undefined && card.amount !== null;
      if (card.rule === 'STATEMENT' && hasAmount) context.addIssue({ code: 'custom', path: ['amount'], message: NO_AMOUNT_FOR_STATEMENT });
      if (card.rule !== 'STATEMENT' && !hasAmount) context.addIssue({ code: 'custom', path: ['amount'], message: AMOUNT_FOR_RULE });
    }),
  );
export type CardInput = z.output<typeof cardInputSchema>;

const accountName = trimmedText('Name', MAX_ACCOUNT_NAME_LENGTH);

/** POST /api/accounts. Only a card has card settings, and a card must have them. */
export const newAccountSchema = z
  .object(
    {
      name: accountName,
      kind: z.enum(ACCOUNT_KINDS, { error: 'Kind must be CHECKING, SAVINGS, CARD or CASH.' }),
      card: z.optional(z.nullable(cardInputSchema)),
    },
    OBJECT_BODY,
  )
  .check(
    z.superRefine((account, context) => {
      const hasCard = account.card !== undefined && account.card !== null;
      if (account.kind === 'CARD' && !hasCard) {
        context.addIssue({
          code: 'custom',
          path: ['card'],
          message: 'Card is required for a credit card: its closing day, due day, Pay From and rule.',
        });
      }
      if (account.kind !== 'CARD' && hasCard)
        context.addIssue({ code: 'custom', path: ['card'], message: 'Only a credit card has card settings.' });
    }),
  );
export type NewAccount = z.output<typeof newAccountSchema>;

/**
 * PATCH /api/accounts/{id}: a new name, and/or `primary: true` to make it the primary account,
 * and/or a card's new settings (decision 0045: its payments are projected afresh).
 */
export const accountUpdateSchema = z.object(
  {
    name: z.optional(accountName),
    primary: z.optional(z.literal(true, { error: 'Primary can only be true: to change the primary account, make another one primary.' })),
    card: z.optional(cardInputSchema),
  },
  OBJECT_BODY,
);
export type AccountUpdate = z.output<typeof accountUpdateSchema>;

/** DELETE /api/accounts/{id}: the account's name, as the user typed it to confirm. */
export const removeAccountRequestSchema = z.object(
  { confirm: z.string({ error: "Type the account's name to confirm." }).check(z.maxLength(200, "Type the account's name to confirm.")) },
  OBJECT_BODY,
);

/** The path of a row of an account's ledger: the account (`id`) and the row (`transaction`). */
export const accountTransactionParamsSchema = z.object({ id: idSchema, transaction: idSchema });
