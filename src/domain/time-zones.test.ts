import { describe, expect, it } from 'vitest';
import { ianaTimeZone, momentIn, todayInZone } from './time-zones.js';

describe('time zones', () => {
  it('reads one instant as each zone’s own date and hour', () => {
    const instant = new Date('2026-11-21T10:30:00Z');
    expect(todayInZone(instant, 'UTC')).toBe('2026-11-21');
    expect(momentIn(instant, 'Pacific/Kiritimati')).toEqual({ date: '2026-11-22', hour: 0, minute: 30 });
    expect(momentIn(instant, 'Pacific/Niue')).toEqual({ date: '2026-11-20', hour: 23, minute: 30 });
    // Daylight saving: 08:00 in Los Angeles is 15:00 UTC in July and 16:00 UTC in November.
    expect(momentIn(new Date('2026-07-01T15:00:00Z'), 'America/Los_Angeles')).toEqual({ date: '2026-07-01', hour: 8, minute: 0 });
    expect(momentIn(new Date('2026-11-21T16:00:00Z'), 'America/Los_Angeles')).toEqual({ date: '2026-11-21', hour: 8, minute: 0 });
    // Midnight is hour 0, not 24.
    expect(momentIn(new Date('2026-11-21T00:00:00Z'), 'UTC').hour).toBe(0);
  });

  it('keeps an IANA zone as it was given, mending only its case, and knows nothing else (issue 34)', () => {
    expect(ianaTimeZone('America/Los_Angeles')).toBe('America/Los_Angeles');
    // Intl's own name for each is another (Europe/Kiev, America/Los_Angeles, America/Buenos_Aires, UTC): not what was given.
    expect(ianaTimeZone('Europe/Kyiv')).toBe('Europe/Kyiv');
    expect(ianaTimeZone('Europe/Kiev')).toBe('Europe/Kiev');
    expect(ianaTimeZone('US/Pacific')).toBe('US/Pacific');
    expect(ianaTimeZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
    expect(ianaTimeZone('Etc/UTC')).toBe('Etc/UTC');
    expect(ianaTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(ianaTimeZone('UTC')).toBe('UTC');
    for (const text of ['Mars/Olympus_Mons', '+05:00', '', ' UTC', 'a'.repeat(65), 'America/../UTC\n'])
      expect(ianaTimeZone(text)).toBeNull();
  });

  it('reads a zone the same under each of its names', () => {
    const instant = new Date('2026-07-01T21:30:00Z');
    expect(momentIn(instant, 'Europe/Kyiv')).toEqual({ date: '2026-07-02', hour: 0, minute: 30 });
    expect(momentIn(instant, 'Europe/Kiev')).toEqual(momentIn(instant, 'Europe/Kyiv'));
    expect(momentIn(instant, 'EUROPE/KYIV')).toEqual(momentIn(instant, 'Europe/Kyiv'));
  });
});
