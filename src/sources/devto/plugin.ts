import { httpUrl, pollSeconds, withDefault } from '../../shared/env-values.ts';
import { sourceDescriptor } from '../../shared/sources.ts';
import { defineSourcePlugin } from '../plugin.ts';
import type { Source } from '../source.ts';
import { createDevtoSource } from './connector.ts';
import { devtoReplay } from './replay.ts';

// DEV's public API needs no key for reading published articles and comments.
export const devtoPlugin = defineSourcePlugin({
  name: 'devto',
  settings: {
    DEVTO_API_URL: withDefault(httpUrl.default('https://dev.to/api')),
    DEVTO_POLL_SECONDS: withDefault(pollSeconds(sourceDescriptor('devto').defaultPollSeconds)),
  },
  replay: devtoReplay,
  pollSeconds: (settings) => settings.DEVTO_POLL_SECONDS,
  createSource: (settings, { http }) =>
    createDevtoSource({
      http,
      apiUrl: settings.DEVTO_API_URL,
      pollIntervalMs: settings.DEVTO_POLL_SECONDS * 1000,
    }) as Source,
});
