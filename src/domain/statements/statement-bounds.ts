/**
 * How much of a statement file is read. A file within MAX_STATEMENT_CHARACTERS can still be built
 * to make a reader work far past what any bank's export needs; past these bounds the file is
 * refused (InvalidInputError on `content`, through `unreadable`) with the limit in the message.
 */
import { formatCount } from '../limits.js';

/** A month of a busy business account is a few thousand transactions: more is a wrong export or an attack. */
export const MAX_STATEMENT_ROWS = 10_000;

/** Twice the transactions, for a summary block, a header and descriptions written over several lines. */
export const MAX_CSV_LINES = 20_000;

/** Banks export fewer than 20 columns: past 100 a line is not a table of transactions. */
export const MAX_CSV_COLUMNS = 100;

/** The column preview shows a cell to recognise it, not to read it: this keeps the answer small. */
export const MAX_PREVIEW_CELL_CHARACTERS = 200;

/** OFX statements nest about ten deep (an SGML leaf written empty adds one): deeper is not a statement. */
export const MAX_OFX_DEPTH = 64;

export const TOO_MANY_TRANSACTIONS = `The statement has more than ${formatCount(MAX_STATEMENT_ROWS)} transactions: export a shorter period.`;
export const TOO_MANY_LINES = `The file has more than ${formatCount(MAX_CSV_LINES)} lines: export a shorter period.`;
export const TOO_MANY_COLUMNS = `A line of the file has more than ${formatCount(MAX_CSV_COLUMNS)} columns: a bank statement has far fewer.`;
export const NESTED_TOO_DEEP = `The file nests its elements more than ${formatCount(MAX_OFX_DEPTH)} deep: it is not a bank statement.`;
