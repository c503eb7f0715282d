/**
 * Each user's own "today" (issue 26, decision 0047): the calendar date and hour of an instant in an
 * IANA time zone. Pure (Intl's time zone data, no clock): the caller passes the instant.
 */
import type { IsoDate } from './calendar-date.js';

/** What a zone name may look like before Intl is asked: letters, digits and _ + - / (America/Port-au-Prince, Etc/GMT+5). */
const ZONE_TEXT = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * One formatter per zone, made on first use: Intl costs memory (decision 0041). Keyed by the name
 * in lower case: Intl reads a zone's name in any case, so however many spellings users store, there
 * are a few hundred entries at most.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  const key = zone.toLowerCase();
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * The zone as Leftover keeps it (issue 34, decision 0068): the name as given when Intl knows it as
 * an IANA zone, or null when it does not. Intl answers its own canonical name for a zone, which is
 * CLDR's and lags the IANA database (Node 20 answers Europe/Kiev for Europe/Kyiv, and
 * America/Buenos_Aires for America/Argentina/Buenos_Aires), so that name is kept only to mend the
 * case of a name given in another ("europe/paris" is Europe/Paris); any other valid name, a link
 * such as US/Pacific included, is kept as written.
 */
export function ianaTimeZone(text: string): string | null {
  if (!ZONE_TEXT.test(text)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return resolved.toLowerCase() === text.toLowerCase() ? resolved : text;
}

export interface ZonedMoment {
  readonly date: IsoDate;
  /** 0 to 23. */
  readonly hour: number;
  readonly minute: number;
}

/** The wall-clock date, hour and minute of `now` in `zone` (a name ianaTimeZone kept). */
export function momentIn(now: Date, zone: string): ZonedMoment {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(zone).formatToParts(now)) parts[part.type] = part.value;
  return {
    date: `${parts.year}-${parts.month}-${parts.day}` as IsoDate,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

/** Today's date in `zone`: the date every rule that depends on today uses for a user in that zone. */
export function todayInZone(now: Date, zone: string): IsoDate {
  return momentIn(now, zone).date;
}

/** The zone of the process (TZ, else the system's): the default for users who have none stored. */
export function processTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
