/**
 * POST /api/undo (decision 0040): the token a write answered with in its Leftover-Undo header
 * (UNDO_HEADER, common.ts), and the answer, which is what that write answered: the whole ledger
 * (a row write, an Extend, a statement import), the deposits, or the expenses.
 */
import * as z from 'zod/mini';
import { depositsInfoSchema } from './deposits.js';
import { expensesInfoSchema } from './expenses.js';
import { ledgerInfoSchema } from './ledger.js';
import { OBJECT_BODY } from './request-fields.js';

/** Longer than any token the server gives out (43 characters): anything longer is refused unread. */
export const MAX_UNDO_TOKEN_LENGTH = 100;

const TOKEN_MESSAGE = `Token must be the text of a Leftover-Undo header (1 to ${MAX_UNDO_TOKEN_LENGTH} characters).`;

export const undoRequestSchema = z.object(
  {
    token: z
      .string({ error: (issue) => (issue.input === undefined ? 'Token is required.' : TOKEN_MESSAGE) })
      .check(z.minLength(1, TOKEN_MESSAGE), z.maxLength(MAX_UNDO_TOKEN_LENGTH, TOKEN_MESSAGE)),
  },
  OBJECT_BODY,
);

/** The answer of the write undone: the ledger, the deposits or the expenses, each as its own call answers it. */
export const undoAnswerSchema = z.union([ledgerInfoSchema, depositsInfoSchema, expensesInfoSchema]);
