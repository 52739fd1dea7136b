import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { FOLD_FROM, foldSearchText, isFoldable, searchLexemes } from '../../src/db/search-text.ts';
import { createTestDatabase } from '../support/test-database.ts';

// The SQL function earshot_search_text (migration 0006) and its TypeScript twin must agree, or
// the preview's prefilter and `q` would miss what they should find.
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

async function sqlFold(text: string): Promise<string> {
  const result = await handle.db.execute(sql`select earshot_search_text(${text}) as folded`);
  const rows = (result as unknown as { rows: { folded: string }[] }).rows;
  return rows[0]?.folded ?? '';
}

test('SQL and TypeScript fold the same', async () => {
  const samples = [
    'Rust’s new borrow checker',
    'Café Zürich, naïve résumé',
    'Straße ŒUVRE Æsir Łódź Đorđe',
    'node.js + C++ = <3; e-mail: a@b.example',
    'https://github.com/rust-lang/rust?x=1',
    '東京 and Москва',
    FOLD_FROM,
  ];
  for (const text of samples) expect(await sqlFold(text), text).toBe(foldSearchText(text));
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 30 }), async (text) => {
      expect(await sqlFold(text)).toBe(foldSearchText(text));
    }),
    { numRuns: 200 },
  );
});

test('lexemes and foldability', () => {
  expect(searchLexemes('Zürich-based C++')).toEqual(['zurich', 'based', 'c']);
  expect(isFoldable('zurich')).toBe(true);
  expect(isFoldable('straße')).toBe(true);
  expect(isFoldable('москва')).toBe(false);
});
