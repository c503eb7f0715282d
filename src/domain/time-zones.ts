/**
 * Each user's own "today" (issue 26, decision 0047): the calendar date and hour of an instant in an
 * IANA time zone. Pure (Intl's time zone data, no clock): the caller passes the instant.
 */
import type { IsoDate } from './calendar-date.js';

/** What a zone name may look like before Intl is asked: letters, digits and _ + - / (America/Port-au-Prince, Etc/GMT+5). */
const ZONE_TEXT = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/** One formatter per zone, made on first use: Intl costs memory (decision 0041), and there are a few hundred zones at most. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
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
    formatters.set(zone, formatter);
  }
  return formatter;
}

/**
 * The zone's canonical IANA name ("US/Pacific" and "america/los_angeles" are America/Los_Angeles),
 * or null when the text names no zone Intl knows. Only canonical names are stored and cached.
 */
export function canonicalTimeZone(text: string): string | null {
  if (!ZONE_TEXT.test(text)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export interface ZonedMoment {
  readonly date: IsoDate;
  /** 0 to 23. */
  readonly hour: number;
  readonly minute: number;
}

/** The wall-clock date, hour and minute of `now` in `zone` (a canonical zone name). */
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
