// The pipeline's two database steps alone, in one process, without connectors, HTTP or timers:
// `storeItems` in batches of 100 and `matchNewItems` (500 items a call) after every 500 stored,
// over 5,500 recorded items (tests/fixtures/items, as Reddit items) against 10,000 generated
// monitors, on PGlite on disk. Less noisy than the ingestion benchmark's burst, which also runs
// the replay server and the connector; an A/B copies this file and bench-database.ts into the
// other checkout and runs both alternately (docs/PERFORMANCE.md, "Item signals").

import { cpus, loadavg } from 'node:os';
import { MatchEvents } from '../src/matches/match-events.ts';
import { loadMonitorIndex } from '../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../src/pipeline/match-new-items.ts';
import { storeItems } from '../src/pipeline/store-items.ts';
import type { NormalisedItem } from '../src/sources/normalised-item.ts';
import { openBenchDatabase, seedMonitors } from './bench-database.ts';
import { loadItems } from './matcher-workload.ts';

const ITEMS = 5500;
const WARM_UP = 500;
const { handle, drop } = await openBenchDatabase('pglite', 'store-match');
await seedMonitors(handle, 10_000);
const index = await loadMonitorIndex(handle.db);
const recorded = loadItems();
const all: NormalisedItem[] = [];
for (let round = 0; all.length < WARM_UP + ITEMS; round++) {
  for (const item of recorded) {
    all.push({
      ...(item as unknown as NormalisedItem),
      source: 'reddit',
      externalId: `${round}-${item.id}`,
      parentExternalId: null,
      threadTitle: null,
      createdAt: new Date(Date.now() - 3_600_000).toISOString(),
    });
  }
}
const events = new MatchEvents();
const matchAll = async () => {
  let made = 0;
  for (;;) {
    const result = await matchNewItems({ db: handle.db, index, events }, { limit: 500 });
    made += result.matches;
    if (!result.more) return made;
  }
};
await storeItems(handle.db, { source: 'reddit', items: all.slice(0, WARM_UP) });
await matchAll();
let storeMs = 0;
let matchMs = 0;
let matches = 0;
for (let i = WARM_UP; i < WARM_UP + ITEMS; i += 100) {
  let started = performance.now();
  await storeItems(handle.db, { source: 'reddit', items: all.slice(i, i + 100) });
  storeMs += performance.now() - started;
  if ((i / 100) % 5 === 4) {
    started = performance.now();
    matches += await matchAll();
    matchMs += performance.now() - started;
  }
}
console.log(
  `store-match: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(
      ' ',
    )}; ${ITEMS} items stored in ${storeMs.toFixed(0)} ms, matched in ${matchMs.toFixed(0)} ms (${matches} matches): ${(ITEMS / ((storeMs + matchMs) / 1000)).toFixed(0)} items/s`,
);
await drop();
