import { z } from 'zod';
import { withDefault } from '../../shared/env-values.ts';
import { defineSourcePlugin } from '../plugin.ts';

/**
 * The feeds and Discourse forums users add by URL (docs/product.md, "Feeds by URL"): no connector
 * of its own, since each feed is polled on its own schedule by the pipeline
 * (`src/pipeline/poll-feeds.ts`); its settings are the address rules and limits of those fetches.
 */
export const feedsPlugin = defineSourcePlugin({
  name: 'feeds',
  settings: {
    FEEDS_ALLOW_PRIVATE: withDefault(
      z
        .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
        .default('false')
        .transform((value) => value === 'true' || value === '1'),
    ),
    MAX_FEEDS_PER_USER: withDefault(
      z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(10_000).default(50),
    ),
    FEED_TIMEOUT_MS: withDefault(
      z.coerce
        .number({ error: 'must be a whole number of milliseconds' })
        .int()
        .min(100, 'must be at least 100 ms')
        .max(120_000, 'must be at most 120000 ms')
        .default(15_000),
    ),
    FEED_MAX_BYTES: withDefault(
      z.coerce
        .number({ error: 'must be a whole number of bytes' })
        .int()
        .min(1024, 'must be at least 1024')
        .max(100 * 1024 * 1024, 'must be at most 104857600')
        .default(2 * 1024 * 1024),
    ),
  },
  pollSeconds: () => 300,
});
