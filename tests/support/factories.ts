import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/client.ts';
import { type ItemRow, itemColumns, items } from '../../src/db/schema/items.ts';
import { type MatchRow, matches } from '../../src/db/schema/matches.ts';
import { type MonitorRow, monitors } from '../../src/db/schema/monitors.ts';
import { type UserRow, users } from '../../src/db/schema/users.ts';
import { searchDocument } from '../../src/db/search-text.ts';

/**
 * Test data, straight into the database: every factory fills what a row needs with values unique
 * to the call, so tests never collide, and takes overrides for what the test is about. Rows a test
 * reaches through the API (a signed-in user, a monitor made by POST) come from the test app
 * instead (tests/support/test-app.ts).
 */

/** A password the identity service's default policy accepts. */
export const TEST_PASSWORD = 'Correct-Horse-9';

/** A value no other call returns, for ids, names and addresses. */
export function uniqueSuffix(): string {
  return randomBytes(5).toString('hex');
}

/** A unique e-mail address, so tests never collide. */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${uniqueSuffix()}@example.com`;
}

/** A `users` row, as ensureUser makes it at the first sign-in; the id is a fresh UUID. */
export async function createUser(
  db: Database,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({
      id: randomUUID(),
      email: uniqueEmail(),
      firstName: 'Ada',
      lastName: 'Lovelace',
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('createUser: the insert returned no row');
  return row;
}

/** A monitor of `userId`, watching every source; the query is a word no other call uses. */
export async function createMonitor(
  db: Database,
  input: { userId: string } & Partial<typeof monitors.$inferInsert>,
): Promise<MonitorRow> {
  const [row] = await db
    .insert(monitors)
    .values({ query: `word${uniqueSuffix()}`, ...input })
    .returning();
  if (!row) throw new Error('createMonitor: the insert returned no row');
  return row;
}

/** A stored Hacker News post with a unique external id, created a minute ago. */
export async function createItem(
  db: Database,
  overrides: Partial<typeof items.$inferInsert> = {},
): Promise<ItemRow> {
  const externalId = overrides.externalId ?? String(parseInt(uniqueSuffix(), 16));
  const values = {
    source: 'hackernews' as const,
    externalId,
    kind: 'post' as const,
    title: `Item ${externalId}`,
    body: '',
    permalink: `https://news.ycombinator.com/item?id=${externalId}`,
    author: 'pg',
    createdAt: new Date(Date.now() - 60_000),
    ...overrides,
  };
  const [row] = await db
    .insert(items)
    .values({
      search: searchDocument(values.title, values.body, values.url),
      ...values,
    })
    .returning(itemColumns);
  if (!row) throw new Error('createItem: the insert returned no row');
  return row;
}

/**
 * The match of `item` by `monitor`, copying the item's fields as the pipeline does; the snippet is
 * the body with no highlight unless given.
 */
export async function createMatch(
  db: Database,
  input: { monitor: MonitorRow; item: ItemRow } & Partial<typeof matches.$inferInsert>,
): Promise<MatchRow> {
  const { monitor, item, ...overrides } = input;
  const values = {
    userId: monitor.userId,
    monitorId: monitor.id,
    source: item.source,
    externalId: item.externalId,
    kind: item.kind,
    title: item.title,
    threadTitle: item.threadTitle,
    snippet: item.body,
    highlights: [],
    url: item.url,
    permalink: item.permalink,
    author: item.author,
    community: item.community,
    itemCreatedAt: item.createdAt,
    ...overrides,
  };
  const [row] = await db
    .insert(matches)
    .values({
      search: searchDocument(values.title, values.snippet, values.author, values.community),
      ...values,
    })
    .returning();
  if (!row) throw new Error('createMatch: the insert returned no row');
  return row;
}
