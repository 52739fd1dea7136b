import { describe, expect, it } from 'vitest';
import { formatDay, lastDays, mentionsPerDay, todayIn } from './mentions-per-day.ts';

describe('the chart of mentions per day', () => {
  const now = Date.parse('2026-11-24T22:30:00Z');

  it('counts days in the user’s time zone', () => {
    expect(todayIn('UTC', now)).toBe('2026-11-24');
    expect(todayIn('Asia/Tokyo', now)).toBe('2026-11-25');
    expect(lastDays('2026-03-01', 3)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
  });

  it('lays out every day, quiet ones at zero, and only monitors with a mention', () => {
    const chart = mentionsPerDay(
      {
        timezone: 'UTC',
        days: [
          { date: '2026-11-24', monitorId: 'a', count: 3 },
          { date: '2026-11-22', monitorId: 'b', count: 2 },
          { date: '2026-11-24', monitorId: 'b', count: 1 },
          // Outside the window: left out.
          { date: '2026-11-01', monitorId: 'c', count: 9 },
        ],
      },
      ['c', 'b', 'a', 'd'],
      4,
      now,
    );
    expect(chart.days.map((day) => [day.date, day.total])).toEqual([
      ['2026-11-21', 0],
      ['2026-11-22', 2],
      ['2026-11-23', 0],
      ['2026-11-24', 4],
    ]);
    expect(chart.days[3]?.counts).toEqual({ a: 3, b: 1 });
    expect(chart.monitorIds).toEqual(['b', 'a']);
    expect(chart.total).toBe(6);
  });

  it('splits by any key of a row: by tone, the monitors’ counts add up', () => {
    const chart = mentionsPerDay(
      {
        timezone: 'UTC',
        days: [
          { date: '2026-11-24', monitorId: 'a', sentiment: 'negative', count: 3 },
          { date: '2026-11-24', monitorId: 'b', sentiment: 'negative', count: 1 },
          { date: '2026-11-24', monitorId: 'b', sentiment: null, count: 2 },
        ],
      },
      ['negative', 'neutral', 'positive', 'none'],
      2,
      now,
      (row) => row.sentiment ?? 'none',
    );
    expect(chart.days[1]?.counts).toEqual({ negative: 4, none: 2 });
    expect(chart.monitorIds).toEqual(['negative', 'none']);
  });

  it('names days briefly', () => {
    expect(formatDay('2026-11-24')).toBe('24 Nov');
    expect(formatDay('2026-11-24', true)).toBe('Tue 24 Nov');
  });
});
