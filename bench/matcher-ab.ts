// In-process A/B of the matching engine: this checkout's engine against another commit's, both
// built over the same monitors in one process and timed in alternating bursts, each burst in CPU
// time of the process (so the time the scheduler gives other processes does not count). Prints
// one JSON line: both build times, both medians and the median of the pairs' ratios (new ÷ old).
//   git worktree add /tmp/earshot-base <commit>      (or: git archive <commit> src | tar -x -C …)
//   node --expose-gc bench/matcher-ab.ts --baseline /tmp/earshot-base --monitors 100000
// Checks first that both give the same matches and highlights for every item.

import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { MatchableItem, MonitorMatch } from '../src/matcher/monitor-index.ts';
import { createMonitorIndex } from '../src/matcher/monitor-index.ts';
import { buildVocabulary, generateMonitors, loadItems } from './matcher-workload.ts';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    monitors: { type: 'string', default: '10000' },
    pairs: { type: 'string', default: '40' },
    passes: { type: 'string', default: '5' },
  },
});
if (values.baseline === undefined) {
  process.stderr.write('usage: node bench/matcher-ab.ts --baseline <checkout> [--monitors N]\n');
  process.exit(2);
}

interface Engine {
  addMany(monitors: readonly { id: string; query: string }[]): number;
  match(item: MatchableItem): MonitorMatch[];
}
const baseline = (await import(
  join(resolve(values.baseline), 'src', 'matcher', 'monitor-index.ts')
)) as { createMonitorIndex: () => Engine };

const count = Number(values.monitors);
const items = loadItems();
const monitors = generateMonitors(buildVocabulary(items), count, 1);
let start = performance.now();
const old = baseline.createMonitorIndex();
old.addMany(monitors);
const buildOldMs = performance.now() - start;
start = performance.now();
const current = createMonitorIndex();
current.addMany(monitors);
const buildNewMs = performance.now() - start;

const key = (matches: MonitorMatch[]): string =>
  matches
    .map((match) => match.monitorId + JSON.stringify(match.highlights))
    .sort()
    .join('|');
for (const item of items) {
  if (key(old.match(item)) !== key(current.match(item))) {
    throw new Error('The two engines disagree on an item.');
  }
}

const passes = Number(values.passes);
/** Items per CPU second over `passes` passes of the items. */
const burst = (engine: Engine): number => {
  const cpu = process.cpuUsage();
  for (let pass = 0; pass < passes; pass++) for (const item of items) engine.match(item);
  const used = process.cpuUsage(cpu);
  return (passes * items.length) / ((used.user + used.system) / 1e6);
};
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

for (let i = 0; i < 3; i++) {
  burst(old);
  burst(current);
}
const olds: number[] = [];
const news: number[] = [];
const ratios: number[] = [];
for (let pair = 0; pair < Number(values.pairs); pair++) {
  // Which one goes first alternates.
  const first = pair % 2 === 0 ? burst(old) : burst(current);
  const second = pair % 2 === 0 ? burst(current) : burst(old);
  const [a, b] = pair % 2 === 0 ? [first, second] : [second, first];
  olds.push(a);
  news.push(b);
  ratios.push(b / a);
}
process.stdout.write(
  `${JSON.stringify({
    monitors: count,
    buildOldMs: Math.round(buildOldMs),
    buildNewMs: Math.round(buildNewMs),
    oldItemsPerSecond: Math.round(median(olds)),
    newItemsPerSecond: Math.round(median(news)),
    newOverOld: Number(median(ratios).toFixed(3)),
    pairs: ratios.map((ratio) => Number(ratio.toFixed(3))),
  })}\n`,
);
