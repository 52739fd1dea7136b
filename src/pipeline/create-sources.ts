import type { Config } from '../config/env.ts';
import { isSourceConfigured } from '../core/sources/configured-sources.ts';
import type { SourceName } from '../shared/sources.ts';
import { createHackerNewsSource } from '../sources/hacker-news/connector.ts';
import { createHttpClient } from '../sources/http/http-client.ts';
import { createLobstersSource } from '../sources/lobsters/connector.ts';
import { createRedditSource } from '../sources/reddit/connector.ts';
import { createAppOnlyToken } from '../sources/reddit/oauth.ts';
import type { Source } from '../sources/source.ts';
import type { PipelineLogger } from './logger.ts';

export type SourceSettings = Pick<
  Config,
  | 'SOURCES'
  | 'HN_API_URL'
  | 'HN_POLL_SECONDS'
  | 'HN_BACKFILL_ITEMS'
  | 'REDDIT_CLIENT_ID'
  | 'REDDIT_CLIENT_SECRET'
  | 'REDDIT_AUTH_URL'
  | 'REDDIT_API_URL'
  | 'REDDIT_POLL_SECONDS'
  | 'REDDIT_BACKFILL_ITEMS'
  | 'LOBSTERS_URL'
  | 'LOBSTERS_POLL_SECONDS'
  | 'SOURCE_TIMEOUT_SECONDS'
>;

/** Reddit asks for `<platform>:<app id>:<version> (by /u/<name>)`; the others are happy with it. */
const USER_AGENT = 'server:earshot:0.1 (keyword alerts; +https://github.com/earshot)';

/** The connectors this configuration turns on, and the names of the ones it leaves off. */
export function createSources(
  config: SourceSettings,
  logger: PipelineLogger,
): { readonly sources: Source[]; readonly off: SourceName[] } {
  const http = (source: SourceName) =>
    createHttpClient({
      userAgent: USER_AGENT,
      timeoutMs: config.SOURCE_TIMEOUT_SECONDS * 1000,
      onRetry: (error, attempt, waitMs) =>
        logger.debug(
          { source, attempt, waitMs: Math.round(waitMs), error: error.message },
          'retrying a request',
        ),
    });
  const sources: Source[] = [];
  const off: SourceName[] = [];
  if (isSourceConfigured(config, 'hackernews')) {
    sources.push(
      createHackerNewsSource({
        http: http('hackernews'),
        apiUrl: config.HN_API_URL,
        pollIntervalMs: config.HN_POLL_SECONDS * 1000,
        backfillItems: config.HN_BACKFILL_ITEMS,
      }) as Source,
    );
  } else off.push('hackernews');
  if (
    isSourceConfigured(config, 'reddit') &&
    config.REDDIT_CLIENT_ID &&
    config.REDDIT_CLIENT_SECRET
  ) {
    const client = http('reddit');
    sources.push(
      createRedditSource({
        http: client,
        token: createAppOnlyToken({
          http: client,
          authUrl: config.REDDIT_AUTH_URL,
          clientId: config.REDDIT_CLIENT_ID,
          clientSecret: config.REDDIT_CLIENT_SECRET,
        }),
        apiUrl: config.REDDIT_API_URL,
        pollIntervalMs: config.REDDIT_POLL_SECONDS * 1000,
        backfillItems: config.REDDIT_BACKFILL_ITEMS,
      }) as Source,
    );
  } else off.push('reddit');
  if (isSourceConfigured(config, 'lobsters')) {
    sources.push(
      createLobstersSource({
        http: http('lobsters'),
        baseUrl: config.LOBSTERS_URL,
        pollIntervalMs: config.LOBSTERS_POLL_SECONDS * 1000,
      }) as Source,
    );
  } else off.push('lobsters');
  return { sources, off };
}
