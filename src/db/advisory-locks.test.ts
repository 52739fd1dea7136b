import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { ADVISORY_LOCKS } from './advisory-locks.ts';

test('every advisory lock has an id of its own', () => {
  const ids = Object.values(ADVISORY_LOCKS);
  expect(new Set(ids).size).toBe(ids.length);
});

test('every advisory lock taken in src/ takes its id from ADVISORY_LOCKS', () => {
  const src = fileURLToPath(new URL('..', import.meta.url));
  const takers = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .filter((file) => path.basename(file) !== 'advisory-locks.ts')
    .filter((file) =>
      /pg_(try_)?advisory_(xact_)?lock/.test(readFileSync(path.join(src, file), 'utf8')),
    );
  expect(takers.length).toBeGreaterThanOrEqual(4);
  for (const file of takers) {
    const source = readFileSync(path.join(src, file), 'utf8');
    expect(source, file).toMatch(/ADVISORY_LOCKS\.\w+/);
    // No lock id of its own: `const ITEM_ORDER_LOCK_ID = 7_221_043` is how two came to collide.
    expect(source, file).not.toMatch(/(LOCK|CLASS)\w*\s*=\s*\d/);
  }
});
