/**
 * How large a statement may be. Apart from statements.ts so the page's first view, which refuses a
 * too-large file before reading it, does not carry the statement answers' schemas (benchmark 4a).
 */
/**
 * The largest statement, in characters of its text (UTF-16 code units). The page decodes the
 * file (UTF-8, or Windows-1252 when it is not UTF-8), and either way a file of 2 MB gives at most
 * 2 MiB characters, so "up to 2 MB" holds for a file in any encoding (decision 0021).
 */
export const MAX_STATEMENT_CHARACTERS = 2 * 1024 * 1024;
export const STATEMENT_TOO_LARGE = 'The statement is over 2 MB: export a shorter period.';

/**
 * The request body limit of the two statement calls, in bytes: every character of the content
 * may take two bytes in JSON (an accented letter in UTF-8, an escaped quote or line break), plus
 * room for the other fields and the decisions. Past it, Fastify answers 413 before parsing.
 */
export const STATEMENT_BODY_LIMIT_BYTES = 2 * MAX_STATEMENT_CHARACTERS + 512 * 1024;
