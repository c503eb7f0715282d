/**
 * A chosen statement file as the server reads it: its text, decoded in the page (decision 0020:
 * the server never sees bytes). Bank exports are UTF-8, or Windows-1252 from older systems.
 */

export const STATEMENT_FILE_TYPES = '.csv,.ofx,.qfx';

/** The server's limit and its words, which lazy-import-statement-dialog.tsx hands the dialog (decision 0022). */
export interface StatementSizeLimit {
  /** A file of this many bytes decodes to at most as many characters, the server's limit. */
  readonly maxBytes: number;
  readonly message: string;
}

/** Refused in the page before anything is read or sent. */
export function fileSizeProblem(file: Blob, limit: StatementSizeLimit): string | null {
  return file.size > limit.maxBytes ? limit.message : null;
}

/** UTF-8 when the bytes are valid UTF-8 (a byte order mark is dropped), Windows-1252 otherwise. */
export async function readStatementText(file: Blob): Promise<string> {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Every byte means something in Windows-1252, so this never fails.
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
