import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../../domain/calendar-date.js';
import { cents } from '../../../../domain/money.js';
import { dateToSeconds, forecastSeries, sameSeries, withWhatIf } from './forecast-points.js';
import { januaryForecast, point } from './forecast-test-support.js';

describe('forecastSeries', () => {
  it('starts with the opening balance, keeps one point per date (its last balance) and holds the last to the end date', () => {
    const { openingBalance, startDate, endDate, points } = januaryForecast();
    const series = forecastSeries(openingBalance, startDate, endDate, points);
    expect(series.dates).toEqual(['2027-01-01', '2027-01-04', '2027-01-08', '2027-01-15', '2027-01-22', '2027-01-31']);
    expect(series.balances).toEqual([50_000, 45_000, 230_000, -12_000, 188_000, 188_000]);
    expect(series.ys).toEqual([500, 450, 2300, -120, 1880, 1880]);
    expect(series.xs[0]).toBe(Date.UTC(2027, 0, 1) / 1000);
    expect(series.xs[5]).toBe(Date.UTC(2027, 0, 31) / 1000);
  });

  it('lets rows on the start date replace the opening balance, and adds no end point when the last row is on the end date', () => {
    const series = forecastSeries(cents(1_000), isoDate('2027-03-01'), isoDate('2027-03-02'), [
      point('2027-03-01', 'Paycheck: Acme', 110, true),
      point('2027-03-02', 'Gym', 70),
    ]);
    expect(series.dates).toEqual(['2027-03-01', '2027-03-02']);
    expect(series.balances).toEqual([11_000, 7_000]);
  });

  it('draws a ledger without rows as its opening balance from start to end', () => {
    const series = forecastSeries(cents(-2_500), isoDate('2027-03-01'), isoDate('2027-03-31'), []);
    expect(series.dates).toEqual(['2027-03-01', '2027-03-31']);
    expect(series.balances).toEqual([-2_500, -2_500]);
  });

  it('turns 2,000 rows over five years into at most one point per day, ending at the last row’s balance', () => {
    const start = isoDate('2027-01-01');
    const points = Array.from({ length: 2_000 }, (_, i) => ({
      date: isoDate(new Date(Date.UTC(2027, 0, 1 + Math.floor(i * 0.9))).toISOString().slice(0, 10)),
      name: `Row ${i}`,
      balance: cents(100_000 - i * 10),
      paycheck: i % 14 === 0,
    }));
    // Speed belongs in npm run bench, not here: a 50 ms wall-clock limit here failed (126 ms) on a busy machine.
    const series = forecastSeries(cents(100_000), start, isoDate('2031-12-31'), points);
    expect(new Set(series.dates).size).toBe(series.dates.length);
    expect(series.dates.length).toBeLessThanOrEqual(1_802);
    expect(series.balances[series.balances.length - 1]).toBe(100_000 - 1_999 * 10);
  });
});

describe('sameSeries', () => {
  it('is true when only statuses changed (new arrays, same balances) and false when a balance moved', () => {
    const { openingBalance, startDate, endDate, points } = januaryForecast();
    const before = forecastSeries(openingBalance, startDate, endDate, points);
    expect(sameSeries(before, forecastSeries(openingBalance, startDate, endDate, [...points]))).toBe(true);
    const edited = points.map((p) => (p.name === 'Rent' ? { ...p, balance: cents(5_000) } : p));
    expect(sameSeries(before, forecastSeries(openingBalance, startDate, endDate, edited))).toBe(false);
  });
});

describe('dateToSeconds', () => {
  it('is the date at UTC midnight in seconds, whatever the local zone', () => {
    expect(dateToSeconds(isoDate('2027-01-08'))).toBe(1_799_366_400);
    expect(new Date(dateToSeconds(isoDate('2027-01-08')) * 1000).toISOString()).toBe('2027-01-08T00:00:00.000Z');
  });
});

describe('withWhatIf (issue 36: the dashed line of "Can I afford it?")', () => {
  it('puts a purchase on a date without rows into the series, keeps the solid line, and lowers the dashed one from its date on', () => {
    const { openingBalance, startDate, endDate, points } = januaryForecast();
    const base = forecastSeries(openingBalance, startDate, endDate, points);
    const { series, after } = withWhatIf(base, [{ date: isoDate('2027-01-10'), amount: cents(40_000) }]);
    expect(series.dates).toEqual(['2027-01-01', '2027-01-04', '2027-01-08', '2027-01-10', '2027-01-15', '2027-01-22', '2027-01-31']);
    // The solid line holds its balance over the added date: it draws the same.
    expect(series.balances).toEqual([50_000, 45_000, 230_000, 230_000, -12_000, 188_000, 188_000]);
    expect(after).toEqual([null, null, null, 1900, -520, 1480, 1480]);
  });

  it('adds up several purchases, each from its own date; one on a date with rows adds no date', () => {
    const { openingBalance, startDate, endDate, points } = januaryForecast();
    const base = forecastSeries(openingBalance, startDate, endDate, points);
    const { series, after } = withWhatIf(base, [
      { date: isoDate('2027-01-15'), amount: cents(1_000) },
      { date: isoDate('2027-01-08'), amount: cents(500) },
    ]);
    expect(series.dates).toEqual(base.dates);
    expect(after).toEqual([null, null, 2295, -135, 1865, 1865]);
  });
});
