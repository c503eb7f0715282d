/** Dates as people in the US read them (issue 13): "Fri, Jan 8, 2027" for a point, "01/08/2027" in summaries. */
import type { IsoDate } from '../../../../domain/calendar-date.js';

// UTC on both sides: an IsoDate is a calendar day, read at UTC midnight, so no zone can shift it.
const pointDate = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

export function formatPointDate(date: IsoDate): string {
  return pointDate.format(new Date(`${date}T00:00:00Z`));
}

export function formatSummaryDate(date: IsoDate): string {
  return `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`;
}
