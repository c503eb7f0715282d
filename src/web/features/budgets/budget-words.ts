/** How the page names roles and says what a failed budget call did. */
import type { BudgetRole } from '../../../domain/budgets.js';
import { ApiCallError } from '../../api/api-client.js';

export const ROLE_WORDS: Readonly<Record<BudgetRole, string>> = { OWNER: 'Owner', EDITOR: 'Editor', VIEWER: 'Viewer' };

/** The catalogue's words for the call and the server's own ("Failed to remove the member! The last owner cannot leave."). */
export function problemOf(error: unknown): string {
  if (error instanceof ApiCallError) {
    const fields = Object.values(error.fields);
    return [error.message, fields.length > 0 ? fields.join(' ') : error.detail].join(' ');
  }
  return error instanceof Error ? error.message : String(error);
}
