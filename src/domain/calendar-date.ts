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

/** Days since 1970-01-01 (negative before it). */
export function toDayNumber(date: IsoDate): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

export function fromDayNumber(dayNumber: number): IsoDate {
  return new Date(dayNumber * MS_PER_DAY).toISOString().slice(0, 10) as IsoDate;
}

const twoDigits = (value: number): string => (value < 10 ? `0${value}` : String(value));

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
