import { describe, expect, test } from 'vitest';
import { SOURCE_NAMES } from '../../shared/sources.ts';
import { shownMonitorSources, storedMonitorSources } from './monitor-sources.ts';

describe("a monitor's sites", () => {
  test('every site is stored as none, so that a site added later is watched too', () => {
    expect(storedMonitorSources([...SOURCE_NAMES].reverse())).toEqual([]);
    expect(shownMonitorSources([])).toEqual(SOURCE_NAMES);
  });

  test('some sites are stored and shown as named', () => {
    expect(storedMonitorSources(['lobsters'])).toEqual(['lobsters']);
    expect(shownMonitorSources(['reddit', 'lobsters'])).toEqual(['reddit', 'lobsters']);
  });
});
