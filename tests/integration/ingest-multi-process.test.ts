import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsOf } from '../../src/db/client.ts';
import { monitors } from '../../src/db/schema/monitors.ts';
import { users } from '../../src/db/schema/users.ts';
import { type ReplayServer, startReplay } from '../../src/replay/replay-server.ts';
import { SOURCE_NAMES } from '../../src/shared/sources.ts';
import { freePort } from '../support/app-process.ts';
import { type EntryProcess, startEntry } from '../support/entry-process.ts';
import { expectedMatchKeys, storedMatchKeys } from '../support/expected-matches.ts';
import { replayEnv, waitFor } from '../support/ingest-harness.ts';
import { expectedExternalIds, recordedCorpus } from '../support/replay-corpus.ts';
import { describeServer } from '../support/server-database.ts';

// Scaled out on the PostgreSQL server: two `npm run worker` processes and one `npm run web`
// against the replay. Each item is stored once and each match made once; killing the leader
// (kill -9) hands its sources to the other worker within 30 s, and nothing is lost.

describeServer('scaled out on the PostgreSQL server', (server) => {
  const corpus = recordedCorpus();
  const RECORDS = 300;
  let replay: ReplayServer;
  const processes: EntryProcess[] = [];

  beforeAll(async () => {
    replay = await startReplay({ corpus, maxRecords: RECORDS, initial: 5, rate: 0 });
  });
  afterAll(async () => {
    await Promise.all(processes.map((child) => child.stop('SIGKILL')));
    await replay?.close();
  });

  const USER = '00000000-0000-4000-8000-0000000000b1';

  test('two workers and a web process: items once, matches once, the leader handed over', async () => {
    const database = server();
    const { db } = database.handle;
    await db.insert(users).values({ id: USER, email: 'multi@example.com' });
    await db.insert(monitors).values([
      { userId: USER, query: 'the' },
      { userId: USER, query: 'google OR apple' },
      { userId: USER, query: 'people', sources: ['reddit'] },
      { userId: USER, query: 'you' },
    ]);
    const env = {
      ...replayEnv(replay),
      DATABASE_URL: database.url,
      MATCH_SHARDS: '2',
      MATCH_SHARDS_PER_WORKER: '1',
    };
    const first = startEntry('src/worker-main.ts', env);
    processes.push(first);
    await first.waitFor(/"lease":"source:lobsters"/u);
    const second = startEntry('src/worker-main.ts', env);
    processes.push(second);
    await second.waitFor(/"lease":"shard:/u);
    const port = await freePort();
    const web = startEntry('src/web-main.ts', { ...env, PORT: String(port) });
    processes.push(web);
    await web.waitFor(/Earshot is listening/u);

    // Each worker took one shard; the first leads every source.
    expect(first.output()).toMatch(/"lease":"shard:/u);
    expect(second.output()).not.toMatch(/"lease":"source:/u);

    replay.setRate(30);
    await waitFor(() => replay.revealed('reddit') >= 60, 'the stream to get going');
    await first.stop('SIGKILL');
    const killedAt = Date.now();
    const offset = second.output().length;
    await second.waitFor(/"lease":"source:reddit"/u, 30_000, offset);
    const handedOverMs = Date.now() - killedAt;
    expect(handedOverMs).toBeLessThan(30_000);
    await second.waitFor(/"lease":"shard:/u, 30_000, offset);

    // Everything revealed is stored once, whoever led when.
    await waitFor(
      async () => {
        if (replay.revealed('reddit') < RECORDS) return false;
        const rows = rowsOf<{ n: number }>(
          await db.execute(sql`select count(*)::int as n from items`),
        );
        const expected = SOURCE_NAMES.reduce(
          (sum, source) =>
            sum + expectedExternalIds(replay, corpus, source, replay.revealed(source)).length,
          0,
        );
        return (rows[0]?.n ?? 0) >= expected - 40;
      },
      'the items',
      60_000,
    );
    for (const source of ['hackernews', 'reddit'] as const) {
      const expected = expectedExternalIds(replay, corpus, source, replay.revealed(source));
      await waitFor(
        async () => {
          const rows = rowsOf<{ n: number }>(
            await db.execute(sql`select count(*)::int as n from items where source = ${source}`),
          );
          return rows[0]?.n === expected.length;
        },
        `${source} complete`,
        30_000,
      );
      const stored = rowsOf<{ external_id: string }>(
        await db.execute(sql`select external_id from items where source = ${source}`),
      ).map((row) => row.external_id);
      expect(stored.sort()).toEqual([...expected].sort());
    }

    // Every match the engine finds in the stored items, made exactly once, by both shards.
    const expectedMatches = await expectedMatchKeys(db);
    expect(expectedMatches.length).toBeGreaterThan(100);
    await waitFor(
      async () => (await storedMatchKeys(db)).length >= expectedMatches.length,
      'the matches',
      30_000,
    );
    expect(await storedMatchKeys(db)).toEqual(expectedMatches);

    // The web process reports the surviving worker's sources.
    const health = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as {
      sources: { source: string; state: string }[];
    };
    expect(health.sources.map((s) => [s.source, s.state])).toEqual(
      SOURCE_NAMES.map((source) => [source, 'ok']),
    );
    console.info(`leader handed over in ${handedOverMs} ms`);
  }, 180_000);
});
