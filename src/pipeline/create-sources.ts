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

/** The connectors this configuration turns on, and the names of the ones it leaves off. */
export function createSources(
  config: SourceSettings,
  logger: PipelineLogger,
  interests?: SourceInterests,
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
      onRetry: (error, attempt, waitMs) =>
        logger.debug(
          { source: name, attempt, waitMs: Math.round(waitMs), error: error.message },
          'retrying a request',
        ),
    });
    sources.push(create(config, interests ? { http, interests } : { http }));
  }
  return { sources, off };
}
