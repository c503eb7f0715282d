/**
 * Calendar dates as 'YYYY-MM-DD' strings: no time zone, no clock. A date string compares
 * correctly with < and >, and day arithmetic goes through a day number so DST never matters.
 */
declare const isoDateBrand: unique symbol;
export type IsoDate = string & { readonly [isoDateBrand]: 'IsoDate' };

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** True for a real date in 'YYYY-MM-DD' form between years 1900 and 9999 (so 2026-02-30 is false). */
export function isIsoDate(text: string): text is IsoDate {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return year >= 1900 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

export function isoDate(text: string): IsoDate {
  if (!isIsoDate(text)) throw new RangeError(`not a calendar date: ${text}`);
  return text;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month (1 to 12) of the proleptic Gregorian calendar, the one Date.UTC also counts in. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/*
 * Day numbers by arithmetic (the proleptic Gregorian calendar in 400-year eras, as in Howard
 * Hinnant's days_from_civil and civil_from_days), not through Date: a forecast with everyday
 * spending walks every day of a 5-year ledger several times, and splitting each date and going
 * through Date.UTC and toISOString took 10 of its 19 ms (benchmark 13a). They agree with Date for
 * every day of years 1000 to 9999 (calendar-date.test.ts); other input goes through Date as before.
 */

const twoDigits = (value: number): string => (value < 10 ? `0${value}` : String(value));

/** Days from 0000-03-01 to 1970-01-01: the eras count from a March, so a leap day ends its year. */
const DAYS_TO_EPOCH = 719_468;
const DAYS_PER_ERA = 146_097;

/** Days since 1970-01-01 (negative before it). */
export function toDayNumber(date: IsoDate): number {
  if (date.length === 10 && date[4] === '-' && date[7] === '-') {
    const year = Number(date.slice(0, 4));
    const month = Number(date.slice(5, 7));
    const day = Number(date.slice(8, 10));
    // A day past its month's end carries over as Date.UTC does; a month outside 1 to 12 goes through it.
    if (year >= 1000 && month >= 1 && month <= 12 && day >= 0 && Number.isInteger(day)) return civilDays(year, month, day);
  }
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

/** days_from_civil for a year of 1000 or later and a month of 1 to 12. */
function civilDays(year: number, month: number, day: number): number {
  const marchYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(marchYear / 400);
  const yearOfEra = marchYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * DAYS_PER_ERA + dayOfEra - DAYS_TO_EPOCH;
}

/** 1000-01-01 and 9999-12-31 as day numbers: the years written with four digits and no sign. */
const FIRST_FOUR_DIGIT_DAY = -354_285;
const LAST_FOUR_DIGIT_DAY = 2_932_896;

export function fromDayNumber(dayNumber: number): IsoDate {
  if (!Number.isInteger(dayNumber) || dayNumber < FIRST_FOUR_DIGIT_DAY || dayNumber > LAST_FOUR_DIGIT_DAY) {
    return new Date(dayNumber * MS_PER_DAY).toISOString().slice(0, 10) as IsoDate;
  }
  // civil_from_days.
  const shifted = dayNumber + DAYS_TO_EPOCH;
  const era = Math.floor(shifted / DAYS_PER_ERA);
  const dayOfEra = shifted - era * DAYS_PER_ERA;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${twoDigits(month)}-${twoDigits(day)}` as IsoDate;
}

/**
 * The date of a year, month and day; a day or month past its end carries over as Date.UTC does
 * (month 13 is January of the next year). Real dates are written out directly: generating a
 * 5-year ledger makes about 1,800 of them, and going through Date cost most of that time.
 */
export function fromParts(year: number, month: number, day: number): IsoDate {
  if (
    Number.isInteger(year) &&
    Number.isInteger(month) &&
    Number.isInteger(day) &&
    year >= 1000 &&
    year <= 9999 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month)
  ) {
    return `${year}-${twoDigits(month)}-${twoDigits(day)}` as IsoDate;
  }
  return fromDayNumber(Date.UTC(year, month - 1, day) / MS_PER_DAY);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromDayNumber(toDayNumber(date) + days);
}

export function daysBetween(from: IsoDate, to: IsoDate): number {
  return toDayNumber(to) - toDayNumber(from);
}

export function weekdayOf(date: IsoDate): Weekday {
  // 1970-01-01 was a Thursday (index 4).
  const index = (((toDayNumber(date) + 4) % 7) + 7) % 7;
  return WEEKDAYS[index] as Weekday;
}

export function yearMonthOf(date: IsoDate): { year: number; month: number } {
  return { year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) };
}

/** The same calendar day `years` later, with Feb 29 becoming Feb 28 in a common year. */
export function addYears(date: IsoDate, years: number): IsoDate {
  const { year, month } = yearMonthOf(date);
  const day = Number(date.slice(8, 10));
  const targetYear = year + years;
  return fromParts(targetYear, month, Math.min(day, daysInMonth(targetYear, month)));
}

/** The same day of the month `months` later, or the month's last day when it is shorter. */
export function addMonths(date: IsoDate, months: number): IsoDate {
  const { year, month } = yearMonthOf(date);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  const day = Number(date.slice(8, 10));
  return fromParts(targetYear, targetMonth, Math.min(day, daysInMonth(targetYear, targetMonth)));
}

/** Today's date in the server's or browser's local time zone. */
export function todayIn(now: Date): IsoDate {
  const year = now.getFullYear();
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${year}-${month}-${day}` as IsoDate;
}

export function maxDate(a: IsoDate, b: IsoDate): IsoDate {
  return a > b ? a : b;
}

/** Three letters a month: one string weighs less in the first view than twelve (benchmark 4a). */
const MONTH_ABBREVIATIONS = 'JanFebMarAprMayJunJulAugSepOctNovDec';

/*
 * The page writes every date one way (issue 24 item 4, decision 0038), while files and the API keep
 * 'YYYY-MM-DD'. Written out rather than through Intl: the same text in every browser and test, no
 * bytes for a formatter in the first view, and no time zone can move a calendar date to the day before.
 */

/** 'Jan 8': the short form, only where the year is in view beside it (the chart's date axis). */
export function formatMonthDay(date: IsoDate): string {
  const month = Number(date.slice(5, 7));
  return `${MONTH_ABBREVIATIONS.slice(month * 3 - 3, month * 3)} ${Number(date.slice(8, 10))}`;
}

/** 'Fri, Jan 8, 2027': every full date the page shows, in tables, sentences, dialogs and the chart. */
export function formatDate(date: IsoDate): string {
  return `${weekdayOf(date).slice(0, 3)}, ${formatMonthDay(date)}, ${date.slice(0, 4)}`;
}
