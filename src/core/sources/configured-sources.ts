import { SOURCE_NAMES, type SourceName } from '../../shared/sources.ts';
import { type SourcePluginSettings, sourcePlugin } from '../../sources/registry.ts';

type SourceSettings = SourcePluginSettings;

/**
 * Whether each source runs under this configuration: named in SOURCES and with the credential
 * its plugin needs (Reddit refuses unauthenticated JSON, so without one it is "not configured",
 * not failing). Web and worker processes read the same environment, so both agree.
 */
export function isSourceConfigured(config: SourceSettings, source: SourceName): boolean {
  return config.SOURCES.includes(source) && sourcePlugin(source).hasCredentials(config);
}

export function configuredSources(config: SourceSettings): SourceName[] {
  return SOURCE_NAMES.filter((source) => isSourceConfigured(config, source));
}

export function pollSecondsOf(config: SourceSettings, source: SourceName): number {
  return sourcePlugin(source).pollSeconds(config);
}
