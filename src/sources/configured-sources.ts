import type { SourceName } from '../shared/sources.ts';
import { type SourcePluginSettings, sourcePlugin } from './registry.ts';

type SourceSettings = SourcePluginSettings;

/**
 * Whether each source runs under this configuration: named in SOURCES and with the credential
 * its plugin needs (Reddit refuses unauthenticated JSON, so without one it is "not configured",
 * not failing). Web and worker processes read the same environment, so both agree.
 */
export function isSourceConfigured(config: SourceSettings, source: SourceName): boolean {
  return config.SOURCES.includes(source) && sourcePlugin(source).hasCredentials(config);
}

/** How often the source is polled when caught up, as configured. */
export function pollSecondsOf(config: SourceSettings, source: SourceName): number {
  return sourcePlugin(source).pollSeconds(config);
}
