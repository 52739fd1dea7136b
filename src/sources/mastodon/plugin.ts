import { z } from 'zod';
import { httpUrl, optional, pollSeconds, withDefault } from '../../shared/env-values.ts';
import { sourceDescriptor } from '../../shared/sources.ts';
import { defineSourcePlugin } from '../plugin.ts';
import type { Source } from '../source.ts';
import { createMastodonSource } from './connector.ts';
import { mastodonReplay } from './replay.ts';

/** A comma-separated list, each entry trimmed; empty entries kept (a token list may skip one). */
const commaList = (value: string) => value.split(',').map((entry) => entry.trim());

// Mastodon's public timeline needs no account on most instances; an instance that shows it
// only to signed-in apps takes an access token (read:statuses) in MASTODON_ACCESS_TOKENS.
export const mastodonPlugin = defineSourcePlugin({
  name: 'mastodon',
  settings: {
    MASTODON_INSTANCES: withDefault(
      z
        .string()
        .default('https://mastodon.social')
        .transform(commaList)
        .pipe(
          z
            .array(httpUrl)
            .min(1, 'must name at least one instance')
            .max(50, 'must name at most 50 instances'),
        ),
    ),
    MASTODON_ACCESS_TOKENS: optional(z.string().transform(commaList)),
    MASTODON_STREAMING: withDefault(
      z
        .enum(['true', 'false'], { error: 'must be true or false' })
        .default('true')
        .transform((value) => value === 'true'),
    ),
    MASTODON_POLL_SECONDS: withDefault(
      pollSeconds(sourceDescriptor('mastodon').defaultPollSeconds),
    ),
  },
  checkSettings: (settings) =>
    (settings.MASTODON_ACCESS_TOKENS?.length ?? 0) > settings.MASTODON_INSTANCES.length
      ? {
          path: ['MASTODON_ACCESS_TOKENS'],
          message:
            'has more tokens than MASTODON_INSTANCES has instances (one per instance, in the same order; leave an entry empty for none)',
        }
      : null,
  replay: mastodonReplay,
  pollSeconds: (settings) => settings.MASTODON_POLL_SECONDS,
  createSource: (settings, { http, streamRetryMs }) =>
    createMastodonSource({
      http,
      streamRetryMs,
      instances: settings.MASTODON_INSTANCES.map((url, index) => ({
        url,
        token: settings.MASTODON_ACCESS_TOKENS?.[index] || undefined,
      })),
      pollIntervalMs: settings.MASTODON_POLL_SECONDS * 1000,
      streaming: settings.MASTODON_STREAMING,
    }) as Source,
});
