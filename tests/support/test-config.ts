import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Config, parseConfig } from '../../src/config/env.ts';

/** A valid configuration for tests, with a private DATA_DIR; override any variable. */
export function createTestConfig(overrides: Record<string, string | undefined> = {}): Config {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'earshot-test-'));
  return parseConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: '0',
    ...overrides,
  });
}
