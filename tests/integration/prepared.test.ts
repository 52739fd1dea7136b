import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { queryRows, type SqlValue, sqlLiteral } from '../../src/db/prepared.ts';
import { createTestDatabase } from '../support/test-database.ts';

// queryRows runs the hot read paths as statements the database plans once. On PGlite that means
// PREPARE and EXECUTE with the values written as literals, so the literals must carry any text
// through unchanged, and the statements must behave as bound parameters would.
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

const echo = {
  name: 'test_prepared_echo',
  text: 'select $1::text as t, $2::int as n, $3::boolean as b, $4::text is null as missing',
};

test('any text, number, boolean and null reach a named statement unchanged', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit: 'grapheme', maxLength: 40 }).filter((text) => !text.includes('\0')),
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      fc.boolean(),
      async (text, n, b) => {
        const [row] = await queryRows<{ t: string; n: number; b: boolean; missing: boolean }>(
          handle.db,
          echo,
          [text, n, b, null],
        );
        expect(row).toEqual({ t: text, n, b, missing: true });
      },
    ),
    { numRuns: 200 },
  );
});

test('quotes, backslashes and comment markers stay inside the literal', async () => {
  const hostile = [
    "'; drop table users; --",
    "\\'; select 1; --",
    "it''s",
    '$1',
    "E'\\x41'",
    '/* open',
    "'",
    '\\',
  ];
  for (const text of hostile) {
    const [row] = await queryRows<{ t: string }>(handle.db, echo, [text, 0, false, 'x']);
    expect(row?.t).toBe(text);
  }
  const [users] = await queryRows<{ n: string }>(
    handle.db,
    { text: 'select count(*)::text as n from users' },
    [],
  );
  expect(users?.n).toBeDefined();
});

test('a named statement is planned once and answers every call; an unnamed one too', async () => {
  const statement = {
    name: 'test_prepared_series',
    text: 'select g from generate_series(1, $1::int) g',
  };
  for (const count of [3, 0, 5]) {
    const rows = await queryRows<{ g: number }>(handle.db, statement, [count]);
    expect(rows.map((row) => row.g)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  }
  const unnamed = await queryRows<{ g: number }>(handle.db, { text: statement.text }, [2]);
  expect(unnamed.map((row) => row.g)).toEqual([1, 2]);
});

test('a value the statement cannot take is the database’s error, not a wrong answer', async () => {
  const values: SqlValue[] = ['not a number', 1, true, null];
  await expect(
    queryRows(
      handle.db,
      { name: 'test_prepared_int', text: 'select $1::int as n' },
      values.slice(0, 1),
    ),
  ).rejects.toThrow(/invalid input syntax/);
});

test('literals refuse what SQL text cannot carry', () => {
  expect(() => sqlLiteral('a\0b')).toThrow(RangeError);
  expect(() => sqlLiteral(Number.NaN)).toThrow(RangeError);
  expect(() => sqlLiteral(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  expect(sqlLiteral("it's")).toBe("'it''s'");
  expect(sqlLiteral(null)).toBe('NULL');
});
