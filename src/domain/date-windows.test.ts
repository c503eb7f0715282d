import { describe, expect, it } from 'vitest';
import { addDays, type IsoDate, isoDate } from './calendar-date.js';
import { dateRangeWindows, dayStartSeconds } from './date-windows.js';
import { momentIn } from './time-zones.js';

const DAY = 86_400;

describe('dayStartSeconds', () => {
  it("is the zone's midnight: UTC's, Chicago's six hours later, and either side of a change of clocks", () => {
    expect(dayStartSeconds(isoDate('2027-01-08'), 'UTC')).toBe(Date.UTC(2027, 0, 8) / 1000);
    expect(dayStartSeconds(isoDate('2027-01-08'), 'America/Chicago')).toBe(Date.UTC(2027, 0, 8, 6) / 1000);
    // New York springs forward at 2:00 on 2027-03-14: that day began at -05:00, the next at -04:00.
    expect(dayStartSeconds(isoDate('2027-03-14'), 'America/New_York')).toBe(Date.UTC(2027, 2, 14, 5) / 1000);
    expect(dayStartSeconds(isoDate('2027-03-15'), 'America/New_York')).toBe(Date.UTC(2027, 2, 15, 4) / 1000);
    expect(dayStartSeconds(isoDate('2027-01-08'), 'Pacific/Kiritimati')).toBe(Date.UTC(2027, 0, 7, 10) / 1000);
  });

  it('is the first instant that shows the day, also where a change of clocks skips midnight', () => {
    const cases: [string, string][] = [
      // Chile and Cuba move their clocks at midnight.
      ['America/Santiago', '2026-09-06'],
      ['America/Havana', '2027-03-14'],
      ['America/Los_Angeles', '2026-11-01'],
      ['Australia/Lord_Howe', '2026-10-04'],
      ['Asia/Kolkata', '2026-02-28'],
    ];
    for (const [zone, day] of cases) {
      const start = dayStartSeconds(isoDate(day), zone);
      expect(momentIn(new Date(start * 1000), zone).date, `${zone} ${day}`).toBe(day);
      expect(momentIn(new Date((start - 60) * 1000), zone).date, `${zone} ${day}`).toBe(addDays(isoDate(day), -1));
    }
  });
});

describe('dateRangeWindows', () => {
  it('cuts 200 days into 90, 90 and 20, one after another', () => {
    const from = isoDate('2026-05-01');
    const windows = dateRangeWindows(from, addDays(from, 200), 'UTC', 90);
    expect(windows.map((window) => (window.end - window.start) / DAY)).toEqual([90, 90, 20]);
    expect(windows[0]?.start).toBe(Date.UTC(2026, 4, 1) / 1000);
    expect(windows[1]?.start).toBe(windows[0]?.end);
    expect(windows[2]?.start).toBe(windows[1]?.end);
  });

  it('keeps every window within 90 days of seconds when the range holds an extra hour (autumn), covering it whole', () => {
    // 2026-09-01 to 2026-11-30 in Chicago: 90 calendar days, one of them 25 hours long.
    const from = isoDate('2026-09-01');
    const until = isoDate('2026-11-30');
    const windows = dateRangeWindows(from, until, 'America/Chicago', 90);
    expect(windows).toHaveLength(2);
    for (const window of windows) expect(window.end - window.start).toBeLessThanOrEqual(90 * DAY);
    expect(windows[0]?.start).toBe(dayStartSeconds(from, 'America/Chicago'));
    expect(windows[1]?.start).toBe(windows[0]?.end);
    expect(windows.at(-1)?.end).toBe(dayStartSeconds(until, 'America/Chicago'));
    expect((windows.at(-1)?.end ?? 0) - (windows[0]?.start ?? 0)).toBe(90 * DAY + 3600);
  });

  it('has no window for an empty range, and one for a single day', () => {
    const day: IsoDate = isoDate('2027-01-08');
    expect(dateRangeWindows(day, day, 'UTC', 90)).toEqual([]);
    expect(dateRangeWindows(addDays(day, 1), day, 'UTC', 90)).toEqual([]);
    expect(dateRangeWindows(day, addDays(day, 1), 'UTC', 90)).toEqual([
      { start: Date.UTC(2027, 0, 8) / 1000, end: Date.UTC(2027, 0, 9) / 1000 },
    ]);
    expect(() => dateRangeWindows(day, addDays(day, 1), 'UTC', 0)).toThrow(RangeError);
  });
});
