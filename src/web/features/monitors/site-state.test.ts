import { describe, expect, it } from 'vitest';
import type { SourceHealth } from '../../../shared/source-health.ts';
import {
  describeForecast,
  describeMissingSites,
  describeSiteState,
  formatCoverage,
  formatSince,
} from './site-state.ts';

const now = Date.parse('2026-11-24T15:30:00Z');
const clock = { now, timeZone: 'UTC' };
const health = (change: Partial<SourceHealth>): SourceHealth => ({
  source: 'hackernews',
  state: 'ok',
  lastSuccessAt: '2026-11-24T15:29:55.000Z',
  lastErrorAt: null,
  lastError: null,
  itemsPerMinute: 10,
  behindSeconds: 2,
  skipped: {},
  note: null,
  queue: null,
  ...change,
});

describe('the monitor form’s site states', () => {
  it.each([
    [{}, 'working', false],
    [{ state: 'lagging' }, 'working, behind', false],
    [{ state: 'lagging', lastSuccessAt: null }, 'starting', false],
    [{ state: 'not_configured', lastSuccessAt: null }, 'not configured', true],
    [
      { state: 'failing', lastSuccessAt: '2026-11-24T14:02:10.000Z', lastError: 'HTTP 503' },
      'failing since 14:02',
      false,
    ],
    [{ state: 'failing', lastSuccessAt: null }, 'failing, not reached yet', false],
  ] as const)('%j → %s', (change, text, needsSetUp) => {
    const state = describeSiteState(health(change), clock);
    expect(state.text).toBe(text);
    expect(state.needsSetUp).toBe(needsSetUp);
  });

  it('gives the date of a failure that began before today, in the given time zone', () => {
    expect(formatSince('2026-11-20T08:05:00Z', clock)).toBe('20 Nov, 08:05');
    // 14:00 UTC is today in UTC, yesterday (23:00 on the 24th) in Tokyo, where it is the 25th.
    expect(formatSince('2026-11-24T14:00:00Z', clock)).toBe('14:00');
    expect(formatSince('2026-11-24T14:00:00Z', { now, timeZone: 'Asia/Tokyo' })).toBe(
      '24 Nov, 23:00',
    );
  });

  it('names each chosen site the preview misses, and only those', () => {
    const sites = [
      health({ source: 'hackernews' }),
      health({ source: 'reddit', state: 'not_configured', lastSuccessAt: null }),
      health({
        source: 'lobsters',
        state: 'failing',
        lastSuccessAt: '2026-11-24T14:02:00Z',
      }),
    ];
    expect(describeMissingSites(['hackernews', 'reddit', 'lobsters'], sites, clock)).toEqual([
      'Reddit is not configured: nothing from it is in this preview, and the monitor hears nothing there until it is set up.',
      'Lobsters is failing since 14:02: its newest posts are missing here.',
    ]);
    expect(describeMissingSites(['hackernews'], sites, clock)).toEqual([]);
  });

  it.each([
    [0.2, '12 minutes'],
    [1 / 60, '1 minute'],
    [3.2, '3 hours'],
    [1, '1 hour'],
    [47, '47 hours'],
    [168, '7 days'],
  ])('%f hours of data → %s', (hours, text) => {
    expect(formatCoverage(hours)).toBe(text);
  });

  it.each([
    [{ count: 40, perDay: 5.7, coveredHours: 168 }, 'about 5.7 alerts a day, from 7 days of data'],
    [
      { count: 2, perDay: 16, coveredHours: 0.2 },
      'too soon to forecast a day: 12 minutes of data so far',
    ],
    [
      { count: 5, perDay: 120, coveredHours: 0 },
      'too soon to forecast a day: only posts from the last few minutes so far',
    ],
    [{ count: 0, perDay: 0, coveredHours: 0 }, 'no posts read from these sites yet'],
  ])('the forecast of %o: %s', (preview, text) => {
    expect(describeForecast(preview)).toBe(text);
  });
});
