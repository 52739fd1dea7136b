import { httpUrl, pollSeconds, withDefault } from '../../shared/env-values.ts';
import { sourceDescriptor } from '../../shared/sources.ts';
import { defineSourcePlugin } from '../plugin.ts';
import type { Source } from '../source.ts';
import { createLobstersSource } from './connector.ts';

export const lobstersPlugin = defineSourcePlugin({
  name: 'lobsters',
  settings: {
    LOBSTERS_URL: withDefault(httpUrl.default('https://lobste.rs')),
    LOBSTERS_POLL_SECONDS: withDefault(
      pollSeconds(sourceDescriptor('lobsters').defaultPollSeconds),
    ),
  },
  pollSeconds: (settings) => settings.LOBSTERS_POLL_SECONDS,
  createSource: (settings, { http }) =>
    createLobstersSource({
      http,
      baseUrl: settings.LOBSTERS_URL,
      pollIntervalMs: settings.LOBSTERS_POLL_SECONDS * 1000,
    }) as Source,
});
