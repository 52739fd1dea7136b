// One matcher scenario in a fresh process: build an engine over N monitors, measure it, print
// one JSON line. Run by bench/matcher.bench.ts; by hand:
//   node --expose-gc bench/matcher-scenario.ts --engine earshot --monitors 100000

import { parseArgs } from 'node:util';
import { createMonitorIndex } from '../src/matcher/monitor-index.ts';
import {
  type Baseline,
  createAhoCorasickBaseline,
  createRegExpBaseline,
} from './matcher-baselines.ts';
import { buildVocabulary, generateMonitors, loadItems, textBytes } from './matcher-workload.ts';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'earshot' },
    monitors: { type: 'string', default: '10000' },
    sample: { type: 'string' },
    seconds: { type: 'string', default: '2' },
  },
});
const engine = values.engine;
const REGEXP_CHUNK = 100_000;
const count = Number(values.monitors);

const collect = (): void => {
  globalThis.gc?.();
  globalThis.gc?.();
};
const heap = (): number => {
  collect();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};
const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

const allItems = loadItems();
const items = values.sample === undefined ? allItems : allItems.slice(0, Number(values.sample));
const bytes = textBytes(items);
const vocabulary = buildVocabulary(allItems);
const before = heap();
let monitors: ReturnType<typeof generateMonitors> | null = generateMonitors(vocabulary, count, 1);

let match: (item: (typeof items)[number]) => number;
let extra: Record<string, number> = {};
const buildStart = performance.now();
if (engine === 'earshot') {
  // The bulk load the pipeline does at start; `add` is timed one by one below.
  const index = createMonitorIndex();
  index.addMany(monitors);
  const buildMs = performance.now() - buildStart;
  match = (item) => index.match(item).length;
  const ids = monitors.map((monitor) => monitor.id);
  monitors = null;
  const bytesPerMonitor = (heap() - before) / count;
  // Latency of changes on the full index: new monitors in, then random monitors out.
  const fresh = generateMonitors(vocabulary, 2000, 2);
  const adds: number[] = [];
  for (const monitor of fresh) {
    const start = performance.now();
    index.add(monitor.id, monitor.query);
    adds.push(performance.now() - start);
  }
  const removes: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const id = ids[(i * 7919) % ids.length]!;
    const start = performance.now();
    index.remove(id);
    removes.push(performance.now() - start);
  }
  // Put the set back to N monitors (the removed ids return with new queries).
  for (const monitor of fresh) index.remove(monitor.id);
  const replacements = generateMonitors(vocabulary, 2000, 3);
  for (let i = 0; i < 2000; i++) {
    const id = ids[(i * 7919) % ids.length]!;
    if (!index.has(id)) index.add(id, replacements[i]!.query);
  }
  adds.sort((a, b) => a - b);
  removes.sort((a, b) => a - b);
  const stats = index.stats();
  extra = {
    buildMs,
    bytesPerMonitor,
    queries: stats.queries,
    terms: stats.terms,
    addMeanMs: adds.reduce((a, b) => a + b, 0) / adds.length,
    addP99Ms: percentile(adds, 0.99),
    removeMeanMs: removes.reduce((a, b) => a + b, 0) / removes.length,
    removeP99Ms: percentile(removes, 0.99),
  };
  // Candidates per item, counted in a pass of its own so the timed passes run `match` alone.
  let candidates = 0;
  for (const item of items) {
    index.match(item);
    candidates += index.stats().lastCandidates;
  }
  extra.candidatesPerItem = candidates / items.length;
  const measured = measure();
  print(measured);
} else if (engine === 'regexp' && count > REGEXP_CHUNK) {
  // A million compiled RegExps exhaust V8's heap, so the baseline runs in chunks of 100 k
  // monitors: every item is still tried against every monitor; times add up.
  const all = monitors;
  monitors = null;
  let buildMs = 0;
  let seconds = 0;
  let matches = 0;
  let bytesPerMonitor = 0;
  for (let from = 0; from < all.length; from += REGEXP_CHUNK) {
    const chunkStart = performance.now();
    const baseline = createRegExpBaseline(all.slice(from, from + REGEXP_CHUNK));
    buildMs += performance.now() - chunkStart;
    if (from === 0) bytesPerMonitor = (heap() - before) / REGEXP_CHUNK;
    const start = performance.now();
    for (const item of items) matches += baseline.match(item).length;
    seconds += (performance.now() - start) / 1000;
  }
  extra = { buildMs, bytesPerMonitor, chunks: Math.ceil(count / REGEXP_CHUNK) };
  print({
    itemsMatched: items.length,
    itemsPerSecond: items.length / seconds,
    mbPerSecond: bytes / 1e6 / seconds,
    matchesPerItem: matches / items.length,
  });
} else {
  const baseline: Baseline =
    engine === 'regexp' ? createRegExpBaseline(monitors) : createAhoCorasickBaseline(monitors);
  const buildMs = performance.now() - buildStart;
  monitors = null;
  extra = { buildMs, bytesPerMonitor: (heap() - before) / count };
  match = (item) => baseline.match(item).length;
  match(items[0]!);
  print(measure());
}

function measure() {
  let passes = 0;
  let matches = 0;
  const start = performance.now();
  do {
    for (const item of items) matches += match(item);
    passes++;
  } while (performance.now() - start < Number(values.seconds) * 1000);
  const seconds = (performance.now() - start) / 1000;
  return {
    itemsMatched: passes * items.length,
    itemsPerSecond: (passes * items.length) / seconds,
    mbPerSecond: (passes * bytes) / 1e6 / seconds,
    matchesPerItem: matches / (passes * items.length),
  };
}

function print(measured: ReturnType<typeof measure>): void {
  process.stdout.write(
    `${JSON.stringify({ engine, monitors: count, items: items.length, ...measured, ...extra })}\n`,
  );
}
