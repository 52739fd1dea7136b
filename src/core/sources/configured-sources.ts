import type { Config } from '../../config/env.ts';
import { SOURCE_NAMES, type SourceName } from '../../shared/sources.ts';

type SourceSettings = Pick<
  Config,
  | 'SOURCES'
  | 'REDDIT_CLIENT_ID'
  | 'REDDIT_CLIENT_SECRET'
  | 'HN_POLL_SECONDS'
  | 'REDDIT_POLL_SECONDS'
  | 'LOBSTERS_POLL_SECONDS'
>;

/**
 * Whether each source runs under this configuration: named in SOURCES and, for Reddit, with
 * credentials (Reddit refuses unauthenticated JSON, so without them it is "not configured",
 * not failing). Web and worker processes read the same environment, so both agree.
 */
export function isSourceConfigured(config: SourceSettings, source: SourceName): boolean {
  if (!config.SOURCES.includes(source)) return false;
  if (source === 'reddit') return Boolean(config.REDDIT_CLIENT_ID && config.REDDIT_CLIENT_SECRET);
  return true;
}

export function configuredSources(config: SourceSettings): SourceName[] {
  return SOURCE_NAMES.filter((source) => isSourceConfigured(config, source));
}

export function pollSecondsOf(config: SourceSettings, source: SourceName): number {
  if (source === 'hackernews') return config.HN_POLL_SECONDS;
  if (source === 'reddit') return config.REDDIT_POLL_SECONDS;
  return config.LOBSTERS_POLL_SECONDS;
}
