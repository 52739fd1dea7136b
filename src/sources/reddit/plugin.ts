import { z } from 'zod';
import { count, httpUrl, optional, pollSeconds, withDefault } from '../../shared/env-values.ts';
import { sourceDescriptor } from '../../shared/sources.ts';
import { defineSourcePlugin } from '../plugin.ts';
import type { Source } from '../source.ts';
import { createRedditSource } from './connector.ts';
import { createAppOnlyToken } from './oauth.ts';

// Reddit refuses unauthenticated JSON: without an app's credentials it is "not configured".
export const redditPlugin = defineSourcePlugin({
  name: 'reddit',
  settings: {
    REDDIT_CLIENT_ID: optional(z.string().trim().min(1)),
    REDDIT_CLIENT_SECRET: optional(z.string().trim().min(1)),
    REDDIT_AUTH_URL: withDefault(httpUrl.default('https://www.reddit.com/api/v1/access_token')),
    REDDIT_API_URL: withDefault(httpUrl.default('https://oauth.reddit.com')),
    REDDIT_POLL_SECONDS: withDefault(pollSeconds(sourceDescriptor('reddit').defaultPollSeconds)),
    REDDIT_BACKFILL_ITEMS: withDefault(count(100, 0, 100_000)),
  },
  checkSettings: (settings) =>
    Boolean(settings.REDDIT_CLIENT_ID) === Boolean(settings.REDDIT_CLIENT_SECRET)
      ? null
      : {
          path: [settings.REDDIT_CLIENT_ID ? 'REDDIT_CLIENT_SECRET' : 'REDDIT_CLIENT_ID'],
          message: 'must be set together with the other REDDIT_CLIENT_* variable (or unset both)',
        },
  hasCredentials: (settings) => Boolean(settings.REDDIT_CLIENT_ID && settings.REDDIT_CLIENT_SECRET),
  pollSeconds: (settings) => settings.REDDIT_POLL_SECONDS,
  createSource: (settings, { http }) =>
    createRedditSource({
      http,
      token: createAppOnlyToken({
        http,
        authUrl: settings.REDDIT_AUTH_URL,
        clientId: settings.REDDIT_CLIENT_ID ?? '',
        clientSecret: settings.REDDIT_CLIENT_SECRET ?? '',
      }),
      apiUrl: settings.REDDIT_API_URL,
      pollIntervalMs: settings.REDDIT_POLL_SECONDS * 1000,
      backfillItems: settings.REDDIT_BACKFILL_ITEMS,
    }) as Source,
});
