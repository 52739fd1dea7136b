import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deleteUserData } from '../../src/core/users/delete-user-data.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { items } from '../../src/db/schema/items.ts';
import { matches } from '../../src/db/schema/matches.ts';
import { monitors } from '../../src/db/schema/monitors.ts';
import { createItem, createMatch, createMonitor, createUser } from '../support/factories.ts';
import { createTestDatabase } from '../support/test-database.ts';

describe('test data factories', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle?.close());

  test('each call makes distinct rows, and overrides win', async () => {
    const { db } = handle;
    const [a, b] = [await createUser(db), await createUser(db, { firstName: 'Grace' })];
    expect(a.id).not.toBe(b.id);
    expect(a.email).not.toBe(b.email);
    expect(b.firstName).toBe('Grace');

    const first = await createMonitor(db, { userId: a.id });
    const second = await createMonitor(db, { userId: a.id, query: '"open source"' });
    expect(first.query).not.toBe(second.query);
    expect(second).toMatchObject({ userId: a.id, query: '"open source"', paused: false });

    const [x, y] = [await createItem(db), await createItem(db, { source: 'lobsters' })];
    expect(x.externalId).not.toBe(y.externalId);
    expect(y.source).toBe('lobsters');

    const match = await createMatch(db, { monitor: first, item: x });
    expect(match).toMatchObject({
      userId: a.id,
      monitorId: first.id,
      externalId: x.externalId,
      readAt: null,
    });
  });

  // The invariant of deleteUserData: every table of a user's data cascades from `users`.
  test("deleting a user's data removes their monitors and matches, and nobody else's", async () => {
    const { db } = handle;
    const [leaving, staying] = [await createUser(db), await createUser(db)];
    const item = await createItem(db);
    for (const user of [leaving, staying]) {
      await createMatch(db, { monitor: await createMonitor(db, { userId: user.id }), item });
    }

    expect(await deleteUserData({ db }, leaving.id)).toEqual({ deleted: true });

    const countOf = async (table: typeof monitors | typeof matches, userId: string) =>
      (await db.select().from(table).where(eq(table.userId, userId))).length;
    expect(await countOf(monitors, leaving.id)).toBe(0);
    expect(await countOf(matches, leaving.id)).toBe(0);
    expect(await countOf(monitors, staying.id)).toBe(1);
    expect(await countOf(matches, staying.id)).toBe(1);
    // Items are the sites' content, not the user's: they stay.
    expect(await db.select().from(items).where(eq(items.id, item.id))).toHaveLength(1);
  });
});
