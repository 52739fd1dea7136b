import { describe, expect, it } from 'vitest';
import type { SourceHealth } from '../../../shared/source-health.ts';
import {
  describeSourceDetail,
  describeSourceHealth,
  formatBehind,
} from './describe-source-health.ts';

const base: SourceHealth = {
  source: 'hackernews',
  state: 'ok',
  lastSuccessAt: '2026-11-24T10:00:00.000Z',
  lastErrorAt: null,
  lastError: null,
  itemsPerMinute: 40,
  behindSeconds: 3,
  skipped: {},
  note: null,
  queue: null,
};

describe('describeSourceHealth', () => {
  it.each([
    [{}, 'Hacker News: live, 3 s behind'],
    [{ behindSeconds: null }, 'Hacker News: live'],
    [{ source: 'reddit', state: 'not_configured' }, 'Reddit: not configured'],
    [{ state: 'lagging', behindSeconds: 300 }, 'Hacker News: lagging, 5 min behind'],
    [{ state: 'lagging', lastSuccessAt: null, behindSeconds: null }, 'Hacker News: starting'],
    [{ source: 'lobsters', state: 'failing' }, 'Lobsters: failing, retrying'],
    [
      { source: 'bluesky', behindSeconds: 1, queue: { depth: 40, maxDepth: 900, lagMs: 800 } },
      'Bluesky: live, 1 s behind, 40 queued',
    ],
    [
      { source: 'bluesky', behindSeconds: 0, queue: { depth: 0, maxDepth: 900, lagMs: 300 } },
      'Bluesky: live, 0 s behind',
    ],
    [
      { source: 'stackoverflow', behindSeconds: null, note: 'out of requests until midnight UTC' },
      'Stack Overflow: live; out of requests until midnight UTC',
    ],
  ] as const)('%j → %s', (change, text) => {
    expect(describeSourceHealth({ ...base, ...change })).toBe(text);
  });

  it('says how to turn on a site that lacks a credential, and names the last fault', () => {
    expect(describeSourceDetail({ ...base, source: 'reddit', state: 'not_configured' })).toBe(
      'To turn it on, set REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET (the credentials of a Reddit "script" app).',
    );
    expect(describeSourceDetail({ ...base, state: 'not_configured' })).toBe(
      'turned off by SOURCES',
    );
    expect(describeSourceDetail({ ...base, state: 'failing', lastError: 'HTTP 503' })).toBe(
      'HTTP 503',
    );
  });

  it('shortens long delays', () => {
    expect([formatBehind(0), formatBehind(89), formatBehind(600), formatBehind(7200)]).toEqual([
      '0 s',
      '89 s',
      '10 min',
      '2 h',
    ]);
  });
});
