/**
 * The ledger dialogs' dates come in the wire's types (plain strings: decision 0034 encodes a held
 * row back for its form), so they are checked before formatDate writes them. Kept out of
 * calendar-date.ts: the first view loads that module, and only these lazy dialogs need this.
 */
import { formatDate, isIsoDate } from '../../../../domain/calendar-date.js';

/** "Fri, Jan 8, 2027" for a real date; any other text as it is. */
export function formatDateText(text: string): string {
  return isIsoDate(text) ? formatDate(text) : text;
}
