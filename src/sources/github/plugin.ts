import { z } from 'zod';
import { httpUrl, optional, pollSeconds, withDefault } from '../../shared/env-values.ts';
import { sourceDescriptor } from '../../shared/sources.ts';
import { defineSourcePlugin } from '../plugin.ts';
import type { Source } from '../source.ts';
import { createGithubSource } from './connector.ts';
import { githubReplay } from './replay.ts';

// GitHub's public events need no token, but allow 60 requests an hour without one (a poll a
// minute, as GitHub's X-Poll-Interval asks); GITHUB_TOKEN raises that to 5,000.
export const githubPlugin = defineSourcePlugin({
  name: 'github',
  settings: {
    GITHUB_API_URL: withDefault(httpUrl.default('https://api.github.com')),
    GITHUB_TOKEN: optional(z.string().trim().min(1)),
    GITHUB_POLL_SECONDS: withDefault(pollSeconds(sourceDescriptor('github').defaultPollSeconds)),
  },
  replay: githubReplay,
  pollSeconds: (settings) => settings.GITHUB_POLL_SECONDS,
  createSource: (settings, { http, interests }) =>
    createGithubSource({
      http,
      repositories: interests?.repositories,
      apiUrl: settings.GITHUB_API_URL,
      token: settings.GITHUB_TOKEN,
      pollIntervalMs: settings.GITHUB_POLL_SECONDS * 1000,
    }) as Source,
});
