import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { LiveMatches } from '../../src/matches/live-matches.ts';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { createLogger } from '../../src/platform/logger.ts';
import type { Match } from '../../src/shared/match.ts';
import { createMonitor, createUser } from '../support/factories.ts';
import { deliverItems, testItem } from '../support/feed.ts';
import { createTestDatabase } from '../support/test-database.ts';

// The live feed's fan-out in one process: every match reaches it once, whether this process made
// it (and announced it) or another one did.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

test('each match is read and sent once, announced here or committed by another process', async () => {
  const db = database.db;
  const user = await createUser(db);
  const monitor = await createMonitor(db, { userId: user.id, query: 'fanout' });
  const other = await createUser(db);
  await createMonitor(db, { userId: other.id, query: 'fanout' });
  const events = new MatchEvents();
  const live = new LiveMatches({ db, events, logger: createLogger('silent'), pollMs: 50 });
  const heard: Match[] = [];
  const stop = live.subscribe(user.id, (match) => heard.push(match));
  try {
    // Made in this process: announced, then read at once.
    await deliverItems({ database, matchEvents: events }, [testItem({ title: 'fanout here' })]);
    await until(() => heard.length >= 1);
    // Made by another process: never announced here, found by the poll.
    await deliverItems({ database, matchEvents: new MatchEvents() }, [
      testItem({ title: 'fanout elsewhere' }),
    ]);
    await until(() => heard.length >= 2);
    // Many polls later, nothing came twice and nothing was read twice.
    await new Promise((r) => setTimeout(r, 500));
    expect(heard.map((match) => [match.title, match.monitorId])).toEqual([
      ['fanout here', monitor.id],
      ['fanout elsewhere', monitor.id],
    ]);
    expect(live.matchesRead).toBe(2);
  } finally {
    stop();
    live.close();
  }
});
