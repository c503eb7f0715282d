import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  addYears,
  daysBetween,
  daysInMonth,
  formatDate,
  formatMonthDay,
  fromDayNumber,
  fromParts,
  isIsoDate,
  isoDate,
  type IsoDate,
  todayIn,
  toDayNumber,
  weekdayOf,
} from './calendar-date.js';

describe('calendar dates', () => {
  it('knows real dates from impossible ones', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('2026-00-10')).toBe(false);
    expect(isIsoDate('2026-1-01')).toBe(false);
    expect(isIsoDate('2026-01-01T00:00:00Z')).toBe(false);
    expect(isIsoDate('')).toBe(false);
  });

  it('names weekdays', () => {
    expect(weekdayOf(isoDate('2026-11-21'))).toBe('Saturday');
    expect(weekdayOf(isoDate('1970-01-01'))).toBe('Thursday');
    expect(weekdayOf(isoDate('1969-12-31'))).toBe('Wednesday');
    expect(weekdayOf(isoDate('2024-02-29'))).toBe('Thursday');
  });

  it('steps days across months, years and DST changes', () => {
    expect(addDays(isoDate('2026-02-28'), 1)).toBe('2026-03-01');
    expect(addDays(isoDate('2026-12-31'), 1)).toBe('2027-01-01');
    expect(addDays(isoDate('2026-03-08'), 14)).toBe('2026-03-22');
    expect(daysBetween(isoDate('2026-01-01'), isoDate('2027-01-01'))).toBe(365);
  });

  it('adds years, keeping Feb 29 inside February', () => {
    expect(addYears(isoDate('2024-02-29'), 5)).toBe('2029-02-28');
    expect(addYears(isoDate('2026-11-21'), 5)).toBe('2031-11-21');
  });

  it('reads today in local time', () => {
    expect(todayIn(new Date(2026, 10, 21, 23, 59))).toBe('2026-11-21');
    expect(todayIn(new Date(2026, 0, 1, 0, 0))).toBe('2026-01-01');
  });

  it('round-trips day numbers and agrees with string order', () => {
    fc.assert(
      fc.property(fc.integer({ min: -25_000, max: 2_900_000 }), fc.integer({ min: -25_000, max: 2_900_000 }), (a, b) => {
        const dateA = fromDayNumber(a);
        const dateB = fromDayNumber(b);
        expect(isIsoDate(dateA)).toBe(true);
        expect(toDayNumber(dateA)).toBe(a);
        expect(Math.sign(a - b)).toBe(dateA < dateB ? -1 : dateA > dateB ? 1 : 0);
      }),
    );
  });

  it('counts day numbers as Date does, for every year written with four digits, and carries a day past its month over as Date.UTC does', () => {
    const byDate = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
    // 1000-01-01 and 9999-12-31, the ends of the arithmetic's range, and the days around them.
    for (const day of [-354_286, -354_285, -354_284, -1, 0, 1, 11_016, 2_932_896, 2_932_897]) {
      expect(fromDayNumber(day)).toBe(byDate(day));
    }
    fc.assert(
      fc.property(fc.integer({ min: -354_285, max: 2_932_896 }), (day) => {
        const date = byDate(day);
        expect(fromDayNumber(day)).toBe(date);
        expect(toDayNumber(date as IsoDate)).toBe(day);
      }),
      { numRuns: 2000 },
    );
    for (const text of ['2027-02-29', '2028-02-30', '2026-04-31', '2026-12-32', '2026-01-00', '2026-13-01', '0999-12-31', '2026-1-5']) {
      const [year, month, day] = text.split('-').map(Number) as [number, number, number];
      expect(toDayNumber(text as IsoDate)).toBe(Date.UTC(year, month - 1, day) / 86_400_000);
    }
    expect(toDayNumber('2026-01-xx' as IsoDate)).toBeNaN();
  });

  it('counts days in a month as the calendar does, leap years included (property)', () => {
    expect([daysInMonth(2028, 2), daysInMonth(2026, 2), daysInMonth(2100, 2), daysInMonth(2000, 2), daysInMonth(2026, 4)]).toEqual([
      29, 28, 28, 29, 30,
    ]);
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 9999 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        expect(daysInMonth(year, month)).toBe(new Date(Date.UTC(year, month, 0)).getUTCDate());
      }),
    );
  });

  it('makes a date of its parts, carrying a day or month past its end over as Date.UTC does (property)', () => {
    expect(fromParts(2027, 1, 5)).toBe('2027-01-05');
    expect(fromParts(2027, 2, 29)).toBe('2027-03-01');
    expect(fromParts(2027, 13, 1)).toBe('2028-01-01');
    expect(fromParts(2027, 1, 0)).toBe('2026-12-31');
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 9998 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: -2, max: 33 }),
        (year, month, day) => {
          expect(fromParts(year, month, day)).toBe(new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('dates as people in the US read them', () => {
  // One way to write a date on the page (issue 24 item 4, decision 0038).
  it.each([
    ['1900-01-01', 'Mon, Jan 1, 1900'],
    ['1994-12-31', 'Sat, Dec 31, 1994'],
    ['1999-12-31', 'Fri, Dec 31, 1999'],
    ['2000-02-29', 'Tue, Feb 29, 2000'],
    ['2024-02-29', 'Thu, Feb 29, 2024'],
    ['2027-01-01', 'Fri, Jan 1, 2027'],
    ['2027-01-05', 'Tue, Jan 5, 2027'],
    ['2027-01-08', 'Fri, Jan 8, 2027'],
    ['2027-01-16', 'Sat, Jan 16, 2027'],
    ['2027-03-14', 'Sun, Mar 14, 2027'],
    ['2027-11-07', 'Sun, Nov 7, 2027'],
    ['2028-02-29', 'Tue, Feb 29, 2028'],
    ['2030-12-31', 'Tue, Dec 31, 2030'],
    ['2100-02-28', 'Sun, Feb 28, 2100'],
    ['2100-03-01', 'Mon, Mar 1, 2100'],
    ['9999-12-31', 'Fri, Dec 31, 9999'],
  ])('writes %s as %s', (date, written) => {
    expect(formatDate(isoDate(date))).toBe(written);
  });

  it('shortens to month and day where the year is in view (the chart axis)', () => {
    expect(formatMonthDay(isoDate('2027-01-08'))).toBe('Jan 8');
    expect(formatMonthDay(isoDate('2028-02-29'))).toBe('Feb 29');
    expect(formatMonthDay(isoDate('2027-12-31'))).toBe('Dec 31');
  });

  it("agrees with the browser's own US format for any date", () => {
    const us = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    fc.assert(
      fc.property(fc.integer({ min: toDayNumberOf('1900-01-01'), max: toDayNumberOf('9999-12-31') }), (day) => {
        const date = fromDayNumber(day);
        expect(formatDate(date)).toBe(us.format(new Date(`${date}T00:00:00Z`)));
      }),
    );
  });

  /*
   * A calendar date never goes through the local time zone: read as local midnight, 2027-01-05 is
   * still Jan 4 in Los Angeles' evening before, and Kiritimati (UTC+14) skipped 1994-12-31 outright.
   */
  describe.each([
    ['America/Los_Angeles', 480],
    ['Pacific/Kiritimati', -840],
  ])('in %s', (zone, offsetMinutes) => {
    const zoneBefore = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = zone;
    });
    afterAll(() => {
      if (zoneBefore === undefined) delete process.env.TZ;
      else process.env.TZ = zoneBefore;
    });

    it('is really in that zone', () => {
      expect(new Date(Date.UTC(2027, 0, 5)).getTimezoneOffset()).toBe(offsetMinutes);
    });

    it('writes every date as the calendar has it, never a day off', () => {
      const us = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
      fc.assert(
        fc.property(fc.integer({ min: toDayNumberOf('1900-01-01'), max: toDayNumberOf('9999-12-31') }), (day) => {
          const date = fromDayNumber(day);
          expect(formatDate(date)).toBe(us.format(new Date(`${date}T00:00:00Z`)));
        }),
      );
      expect(formatDate(isoDate('2027-01-05'))).toBe('Tue, Jan 5, 2027');
      expect(formatDate(isoDate('1994-12-31'))).toBe('Sat, Dec 31, 1994');
      expect(formatDate(isoDate('2028-02-29'))).toBe('Tue, Feb 29, 2028');
      expect(formatMonthDay(isoDate('2027-01-01'))).toBe('Jan 1');
    });
  });
});

function toDayNumberOf(text: string): number {
  return Math.round(Date.parse(`${text}T00:00:00Z`) / 86_400_000);
}
