/** What a failed call of Your data says to the user: the catalogue's words and the server's own. */
import { ApiCallError } from '../../api/api-client.js';

export function problemOf(error: unknown): string {
  if (error instanceof ApiCallError) {
    const fields = Object.entries(error.fields).map(([path, message]) => `${path}: ${message}`);
    return [error.message, fields.length > 0 ? fields.join(' ') : error.detail].join(' ');
  }
  return error instanceof Error ? error.message : String(error);
}
