import { z } from 'zod';
import { httpUrl, optional, pollSeconds, withDefault } from '../../shared/env-values.ts';
import { sourceDescriptor } from '../../shared/sources.ts';
import { defineSourcePlugin } from '../plugin.ts';
import type { Source } from '../source.ts';
import { createStackExchangeSource } from './connector.ts';
import { stackExchangeReplay } from './replay.ts';

/** A site's API name: `stackoverflow`, `superuser`, `math`, or a domain such as `mathoverflow.net`. */
const siteName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9.-]*$/u, 'must be Stack Exchange site names such as stackoverflow');

// Stack Exchange's API needs no account to read; without an app key an address has 300
// requests a day, which the connector spreads out (decision 0041).
export const stackoverflowPlugin = defineSourcePlugin({
  name: 'stackoverflow',
  settings: {
    STACKEXCHANGE_API_URL: withDefault(httpUrl.default('https://api.stackexchange.com/2.3')),
    STACKEXCHANGE_SITES: withDefault(
      z
        .string()
        .default('stackoverflow')
        .transform((value) =>
          value
            .split(',')
            .map((entry) => entry.trim().toLowerCase())
            .filter((entry) => entry !== ''),
        )
        .pipe(
          z
            .array(siteName)
            .min(1, 'must name at least one site')
            .max(20, 'must name at most 20 sites'),
        ),
    ),
    STACKEXCHANGE_KEY: optional(z.string().trim().min(1)),
    STACKEXCHANGE_POLL_SECONDS: withDefault(
      pollSeconds(sourceDescriptor('stackoverflow').defaultPollSeconds),
    ),
  },
  replay: stackExchangeReplay,
  pollSeconds: (settings) => settings.STACKEXCHANGE_POLL_SECONDS,
  createSource: (settings, { http }) =>
    createStackExchangeSource({
      http,
      apiUrl: settings.STACKEXCHANGE_API_URL,
      sites: settings.STACKEXCHANGE_SITES,
      key: settings.STACKEXCHANGE_KEY,
      pollIntervalMs: settings.STACKEXCHANGE_POLL_SECONDS * 1000,
    }) as Source,
});
