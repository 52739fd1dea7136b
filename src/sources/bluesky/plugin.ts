import { z } from 'zod';
import { count, pollSeconds, withDefault } from '../../shared/env-values.ts';
import { sourceDescriptor } from '../../shared/sources.ts';
import { defineSourcePlugin } from '../plugin.ts';
import type { Source } from '../source.ts';
import { createBlueskySource } from './connector.ts';
import { blueskyReplay } from './replay.ts';

const websocketUrl = z
  .string()
  .trim()
  .refine((value) => /^wss?:\/\/[^\s/]+/u.test(value) && URL.canParse(value), {
    message: 'must be a ws:// or wss:// URL',
  });

// Jetstream needs no account: it is Bluesky's public firehose, as JSON over a WebSocket.
export const blueskyPlugin = defineSourcePlugin({
  name: 'bluesky',
  settings: {
    BLUESKY_JETSTREAM_URL: withDefault(
      websocketUrl.default('wss://jetstream2.us-east.bsky.network/subscribe'),
    ),
    BLUESKY_POLL_SECONDS: withDefault(pollSeconds(sourceDescriptor('bluesky').defaultPollSeconds)),
    BLUESKY_QUEUE_LIMIT: withDefault(count(10_000, 100, 1_000_000)),
  },
  replay: blueskyReplay,
  pollSeconds: (settings) => settings.BLUESKY_POLL_SECONDS,
  createSource: (settings) =>
    createBlueskySource({
      url: settings.BLUESKY_JETSTREAM_URL,
      pollIntervalMs: settings.BLUESKY_POLL_SECONDS * 1000,
      queueLimit: settings.BLUESKY_QUEUE_LIMIT,
    }) as Source,
});
