import { expect, test } from 'vitest';
import type { TokenRecord } from '../token-record.ts';
import { createSessionRefresher } from './session-refresher.ts';

function refresherOver(initial: TokenRecord) {
  let stored: TokenRecord | null = initial;
  let issued = 0;
  const refresh = createSessionRefresher({
    store: {
      read: () => stored,
      write: (record) => (stored = record),
      clear: () => (stored = null),
    },
    refresh: async () => {
      issued++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { AccessToken: `access-${issued}`, IdToken: `id-${issued}` };
    },
    onRefreshed: () => true,
    onSignedOut: () => {},
    errorName: () => '',
    warn: () => {},
  });
  return { refresh, issued: () => issued, stored: () => stored };
}

const record = { AccessToken: 'access-0', IdToken: 'id-0', RefreshToken: 'refresh' } as TokenRecord;

test('calls at once share one refresh', async () => {
  const session = refresherOver(record);
  const outcomes = await Promise.all([session.refresh('access-0'), session.refresh('access-0')]);
  expect(outcomes).toEqual(['refreshed', 'refreshed']);
  expect(session.issued()).toBe(1);
  expect(session.stored()?.AccessToken).toBe('access-1');
});

test('a caller whose expired token a refresh that just ended replaced refreshes nothing', async () => {
  const session = refresherOver(record);
  await session.refresh('access-0');
  // This caller read access-0 before that refresh ended and asks only now.
  expect(await session.refresh('access-0')).toBe('refreshed');
  expect(session.issued()).toBe(1);
  // The token it holds now expires in turn: that is a refresh.
  expect(await session.refresh('access-1')).toBe('refreshed');
  expect(session.issued()).toBe(2);
  // Asked without a token (new claims wanted): always a refresh.
  await session.refresh();
  expect(session.issued()).toBe(3);
});
