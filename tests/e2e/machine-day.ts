/**
 * Days on this machine's clock, as the server reads them (both run here): the end-to-end tests that
 * need rows due today or soon (Home's next 14 days, a card's closing day) seed them from these.
 */

/** The day `offsetDays` from today, at this moment of the day. */
export function dayAt(offsetDays = 0): Date {
  const day = new Date();
  day.setDate(day.getDate() + offsetDays);
  return day;
}

/** The day `offsetDays` from today as YYYY-MM-DD. */
export function isoDay(offsetDays = 0): string {
  const day = dayAt(offsetDays);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}
