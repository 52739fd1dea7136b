import { SOURCE_NAMES, type SourceName, watchesEverySite } from '../../shared/sources.ts';

/**
 * A monitor's sites as stored: none when it names every site there is, which means "every site",
 * including sites added later (decision "sources as data"); otherwise the sites it names.
 */
export function storedMonitorSources(sources: readonly SourceName[]): SourceName[] {
  const named = new Set(sources);
  return SOURCE_NAMES.every((name) => named.has(name)) ? [] : [...sources];
}

/** A monitor's sites as the API shows them: every site there is now, when it watches every site. */
export function shownMonitorSources(stored: readonly SourceName[]): SourceName[] {
  return watchesEverySite(stored) ? [...SOURCE_NAMES] : [...stored];
}
