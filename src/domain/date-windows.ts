/**
 * A range of calendar days as spans of Unix time, cut into windows a bank bridge accepts (issue 37,
 * decision 0079). SimpleFIN asks for `start-date` (inclusive) and `end-date` (exclusive) in Unix
 * seconds and refuses more than 90 days a request; a user's days begin at their own midnight.
 * The windows are cut in seconds, not in days: a 90-day run of calendar days that holds the autumn
 * change of clocks is 90 days and an hour long, which the bridge would cap, losing that hour.
 * Pure (Intl's time zone data, no clock).
 */
import { type IsoDate, toDayNumber } from './calendar-date.js';
import { momentIn } from './time-zones.js';

const SECONDS_PER_DAY = 86_400;
const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;

/** A span of Unix time in whole seconds: `start` inclusive, `end` exclusive. */
export interface TimeWindow {
  readonly start: number;
  readonly end: number;
}

/** The instant `now` shows on a wall clock in `zone`, read as if that wall clock were UTC (ms). */
function wallClockMs(instantMs: number, zone: string): number {
  const moment = momentIn(new Date(instantMs), zone);
  return toDayNumber(moment.date) * SECONDS_PER_DAY * 1000 + moment.hour * MS_PER_HOUR + moment.minute * MS_PER_MINUTE;
}

/**
 * The first instant of a calendar day in an IANA zone, in Unix seconds: its midnight, or the end of
 * the gap where a change of clocks skips midnight (America/Santiago's spring, for one).
 */
export function dayStartSeconds(date: IsoDate, zone: string): number {
  const midnightAsUtc = toDayNumber(date) * SECONDS_PER_DAY * 1000;
  // The zone's offset near that midnight, read twice: the second read settles a guess that fell
  // on the other side of a change of clocks.
  let guess = midnightAsUtc;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const next = midnightAsUtc - (wallClockMs(guess, zone) - guess);
    if (next === guess) break;
    guess = next;
  }
  // Midnight skipped: the guess shows the evening before; the day begins once the clock has jumped.
  while (wallClockMs(guess, zone) < midnightAsUtc) guess += MS_PER_MINUTE;
  // Whole minutes before the guess that are still this day (a guess past a skipped midnight).
  while (wallClockMs(guess - MS_PER_MINUTE, zone) >= midnightAsUtc) guess -= MS_PER_MINUTE;
  return Math.floor(guess / 1000);
}

/**
 * The days `from` (inclusive) to `until` (exclusive) in `zone`, as consecutive spans of Unix time
 * of at most `maxDays` days (in seconds) each, in order, together covering every second of the range
 * once. None when `until` is not after `from`.
 */
export function dateRangeWindows(from: IsoDate, until: IsoDate, zone: string, maxDays: number): TimeWindow[] {
  if (!Number.isInteger(maxDays) || maxDays < 1) throw new RangeError(`a window must be a whole number of days, got ${maxDays}`);
  const start = dayStartSeconds(from, zone);
  const end = dayStartSeconds(until, zone);
  const longest = maxDays * SECONDS_PER_DAY;
  const windows: TimeWindow[] = [];
  for (let cursor = start; cursor < end; cursor += longest) windows.push({ start: cursor, end: Math.min(cursor + longest, end) });
  return windows;
}
