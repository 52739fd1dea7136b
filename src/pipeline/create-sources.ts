import type { Config } from '../config/env.ts';
import { SOURCE_NAMES, type SourceName } from '../shared/sources.ts';
import { isSourceConfigured } from '../sources/configured-sources.ts';
import { createHttpClient } from '../sources/http/http-client.ts';
import type { SourceInterests } from '../sources/plugin.ts';
import { type SourcePluginSettings, sourcePlugin } from '../sources/registry.ts';
import type { Source } from '../sources/source.ts';
import type { PipelineLogger } from './logger.ts';

export type SourceSettings = SourcePluginSettings & Pick<Config, 'SOURCE_TIMEOUT_SECONDS'>;

/** Reddit asks for `<platform>:<app id>:<version> (by /u/<name>)`; the others are happy with it. */
const USER_AGENT = 'server:earshot:0.1 (keyword alerts; +https://github.com/earshot)';

/**
 * How soon a source tries again after a fault it handles itself. The defaults suit the real
 * sites; tests shorten them so that a fault costs milliseconds (ingestion's own backoff and the
 * sites' Retry-After are honoured either way).
 */
export type SourceRetryTiming = {
  /** The first wait before a request's next attempt (doubled each attempt); 500 ms by default. */
  readonly requestBackoffMs?: number;
  /** The wait before a dropped stream (Mastodon's) is opened again; 5 s by default. */
  readonly streamRetryMs?: number;
};

/** The connectors this configuration turns on, and the names of the ones it leaves off. */
export function createSources(
  config: SourceSettings,
  logger: PipelineLogger,
  interests?: SourceInterests,
  retry: SourceRetryTiming = {},
): { readonly sources: Source[]; readonly off: SourceName[] } {
  const sources: Source[] = [];
  const off: SourceName[] = [];
  for (const name of SOURCE_NAMES) {
    if (!isSourceConfigured(config, name)) {
      off.push(name);
      continue;
    }
    const create = sourcePlugin(name).createSource;
    // The feeds users add are polled per feed (poll-feeds.ts), not as one source.
    if (create === null) continue;
    const http = createHttpClient({
      userAgent: USER_AGENT,
      timeoutMs: config.SOURCE_TIMEOUT_SECONDS * 1000,
      ...(retry.requestBackoffMs === undefined ? {} : { backoffMs: retry.requestBackoffMs }),
      onRetry: (error, attempt, waitMs) =>
        logger.debug(
          { source: name, attempt, waitMs: Math.round(waitMs), error: error.message },
          'retrying a request',
        ),
    });
    sources.push(
      create(config, {
        http,
        ...(interests ? { interests } : {}),
        ...(retry.streamRetryMs === undefined ? {} : { streamRetryMs: retry.streamRetryMs }),
      }),
    );
  }
  return { sources, off };
}
