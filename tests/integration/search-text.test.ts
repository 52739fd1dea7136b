import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { itemColumns, items } from '../../src/db/schema/items.ts';
import {
  FOLD_FROM,
  foldSearchText,
  isFoldable,
  itemSearchDocumentSql,
  matchSearchDocumentSql,
  searchDocumentLiteral,
  searchDocumentSql,
  searchLexemes,
  searchQueryTerm,
} from '../../src/db/search-text.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import { createMatch, createMonitor, createUser } from '../support/factories.ts';
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

test('plain ASCII folds the same (the fast path)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: 'grapheme-ascii', maxLength: 40 }), async (text) => {
      expect(await sqlFold(text)).toBe(foldSearchText(text));
    }),
    { numRuns: 200 },
  );
});

test('a search document is the folded words, whole, as its SQL twin makes them', async () => {
  const same = async (text: string) => {
    const result = await handle.db.execute(
      sql`with input (text) as (select ${text}::text)
        select ${searchDocumentLiteral(text)}::tsvector = ${sql.raw(searchDocumentSql('input.text'))} as same from input`,
    );
    return (result as unknown as { rows: { same: boolean }[] }).rows[0]?.same;
  };
  const long = 'x'.repeat(2048);
  for (const text of ['', 'a a a', 'abc123 123 007 1e10 0x1f x9y8', `${long} kept`, 'Café, C++!']) {
    expect(await same(text), text).toBe(true);
  }
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.string({ unit: 'grapheme-ascii', maxLength: 60 }),
        fc.string({ unit: 'grapheme', maxLength: 30 }),
      ),
      async (text) => {
        expect(await same(text)).toBe(true);
      },
    ),
    { numRuns: 300 },
  );
});

test('the documents written with items and matches are the SQL fold of their columns', async () => {
  const texts = ['Rust’s borrow checker', 'Café Zürich: node.js & C++', 'plain ASCII words'];
  await storeItems(handle.db, {
    source: 'lobsters',
    items: texts.map((title, i) => ({
      source: 'lobsters' as const,
      externalId: `fold-${i}`,
      kind: 'post' as const,
      title,
      body: `Body ${i}: ${texts[(i + 1) % texts.length]}`,
      url: `https://example.com/Straße/${i}`,
      permalink: `https://lobste.rs/s/fold${i}`,
      author: 'Ærøskøbing',
      community: null,
      parentExternalId: null,
      threadTitle: null,
      createdAt: new Date().toISOString(),
    })),
  });
  const user = await createUser(handle.db);
  const monitor = await createMonitor(handle.db, { userId: user.id });
  const [item] = await handle.db
    .select(itemColumns)
    .from(items)
    .where(eq(items.externalId, 'fold-1'));
  if (!item) throw new Error('the item was not stored');
  await createMatch(handle.db, {
    monitor,
    item,
    snippet: 'Œuvre of the Zürich café, 1e10x',
    author: 'Ærø',
  });
  const count = async (query: string) =>
    Number(
      ((await handle.db.execute(sql.raw(query))) as unknown as { rows: { n: number }[] }).rows[0]
        ?.n,
    );
  expect(await count(`select count(*)::int as n from items where external_id like 'fold-%'`)).toBe(
    3,
  );
  expect(
    await count(
      `select count(*)::int as n from items where external_id like 'fold-%' and search <> ${itemSearchDocumentSql}`,
    ),
  ).toBe(0);
  expect(
    await count(`select count(*)::int as n from matches where search <> ${matchSearchDocumentSql}`),
  ).toBe(0);
  // Queries name whole words too: `1e10x` is one lexeme, not the parser's `1e10` and `x`.
  const query = ['zurich', 'oeuvr', '1e10x']
    .map((lexeme, i) => searchQueryTerm(lexeme, i === 1))
    .join(' & ');
  const found = await handle.db.execute(
    sql`select count(*)::int as n from matches where search @@ ${query}::tsquery`,
  );
  expect((found as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
});

test('lexemes and foldability', () => {
  expect(searchLexemes('Zürich-based C++')).toEqual(['zurich', 'based', 'c']);
  expect(isFoldable('zurich')).toBe(true);
  expect(isFoldable('straße')).toBe(true);
  expect(isFoldable('москва')).toBe(false);
});
