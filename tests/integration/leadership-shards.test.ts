import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { createLeadership, type Leadership } from '../../src/pipeline/leadership.ts';
import { waitFor } from '../support/ingest-harness.ts';
import { describeServer } from '../support/server-database.ts';
import { silentLogger } from '../support/silent-logger.ts';

// Matcher shards among worker processes on the PostgreSQL server (each its own lease
// connection): a worker alone takes every shard once nobody else does (no shard is orphaned),
// and gives back the ones over its budget when a second worker comes, which then leads its share.

describeServer('shard leases on the PostgreSQL server', (server) => {
  const opened: { leadership: Leadership; close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const one of opened.splice(0)) {
      await one.leadership.stop();
      await one.close();
    }
  });

  const SHARDS = [
    { name: 'shard:0', key: 9_100 },
    { name: 'shard:1', key: 9_101 },
  ];

  async function worker() {
    const handle = await openDatabase({ databaseUrl: server().url });
    const leadership = createLeadership(handle, { retryMs: 50, logger: silentLogger });
    leadership.leadSome(SHARDS, 1, async (_name, signal) => {
      while (!signal.aborted) await sleep(10);
    });
    opened.push({ leadership, close: () => handle.close() });
    return leadership;
  }

  test('a worker alone leads both shards; a second one gets one of them', async () => {
    const first = await worker();
    await waitFor(() => first.held().length === 2, 'the first worker to take both shards');
    const second = await worker();
    await waitFor(() => first.held().length === 1 && second.held().length === 1, 'one shard each');
    expect([...first.held(), ...second.held()].sort()).toEqual(['shard:0', 'shard:1']);
    // And it stays so: nobody takes back what the other leads.
    await sleep(500);
    expect(first.held()).toHaveLength(1);
    expect(second.held()).toHaveLength(1);
  });
});
