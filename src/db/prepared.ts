import { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database } from './client.ts';

/** A value bound to a `$n` parameter. */
export type SqlValue = string | number | boolean | null;

/**
 * A statement for the read paths every request takes (the session check, the feed's page),
 * written once with `$1…$n` parameters. With a `name`, the database keeps its plan: parsing and
 * planning cost more than running these statements, on PGlite most of all.
 */
export type Statement = { readonly name?: string; readonly text: string };

/**
 * Runs `statement` with `values` and returns its rows as objects, the columns as the driver
 * reads them (text, numbers, booleans; select instants and 64-bit numbers as text).
 *
 * - PostgreSQL: node-postgres's named statements, prepared once on each pooled connection.
 * - PGlite: one connection; a named statement is prepared there with `PREPARE` the first time,
 *   then run with `EXECUTE name(…)`, the values written as SQL literals. PGlite's own
 *   parameterised queries parse and plan every time, and `EXECUTE` takes no parameters.
 */
export async function queryRows<Row extends Record<string, unknown>>(
  db: Database,
  statement: Statement,
  values: readonly SqlValue[],
): Promise<Row[]> {
  const client = (db as unknown as { $client: PGlite | pg.Pool }).$client;
  if (!(client instanceof PGlite)) {
    const result = await client.query<Row>({
      ...(statement.name ? { name: statement.name } : {}),
      text: statement.text,
      values: [...values],
    });
    return result.rows;
  }
  if (!statement.name) {
    return (await client.query<Row>(statement.text, [...values])).rows;
  }
  let names = preparedOn.get(client);
  if (!names) {
    names = new Map();
    preparedOn.set(client, names);
  }
  const prepared = names.get(statement.name);
  if (prepared !== statement.text) {
    if (prepared !== undefined) await client.exec(`DEALLOCATE ${statement.name}`);
    names.delete(statement.name);
    await client.exec(`PREPARE ${statement.name} AS ${statement.text}`);
    names.set(statement.name, statement.text);
  }
  const results = await client.exec(
    values.length === 0
      ? `EXECUTE ${statement.name}`
      : `EXECUTE ${statement.name}(${values.map(sqlLiteral).join(', ')})`,
  );
  return (results.at(-1)?.rows ?? []) as Row[];
}

/** Which statements each PGlite connection has prepared, and from which text. */
const preparedOn = new WeakMap<PGlite, Map<string, string>>();

/**
 * `value` as an SQL literal (standard_conforming_strings, on since PostgreSQL 9.1: only the
 * quote is doubled, a backslash is an ordinary character). A string literal has no type of its
 * own, so it takes the parameter's, as a bound value would.
 */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return `'${value}'`;
  }
  if (value.includes('\0')) throw new RangeError('a text value cannot contain NUL');
  return `'${value.replaceAll("'", "''")}'`;
}
