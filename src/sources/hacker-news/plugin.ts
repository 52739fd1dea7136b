import { count, httpUrl, pollSeconds, withDefault } from '../../shared/env-values.ts';
import { sourceDescriptor } from '../../shared/sources.ts';
import { defineSourcePlugin } from '../plugin.ts';
import type { Source } from '../source.ts';
import { createHackerNewsSource } from './connector.ts';

export const hackerNewsPlugin = defineSourcePlugin({
  name: 'hackernews',
  settings: {
    HN_API_URL: withDefault(httpUrl.default('https://hacker-news.firebaseio.com/v0')),
    HN_POLL_SECONDS: withDefault(pollSeconds(sourceDescriptor('hackernews').defaultPollSeconds)),
    HN_BACKFILL_ITEMS: withDefault(count(1000, 0, 100_000)),
  },
  pollSeconds: (settings) => settings.HN_POLL_SECONDS,
  createSource: (settings, { http }) =>
    createHackerNewsSource({
      http,
      apiUrl: settings.HN_API_URL,
      pollIntervalMs: settings.HN_POLL_SECONDS * 1000,
      backfillItems: settings.HN_BACKFILL_ITEMS,
    }) as Source,
});
