// The matching engine against its two baselines, at 10 k, 100 k and 1 M monitors.
//   npm run bench -- matcher            full run (a few minutes)
//   npm run bench -- matcher --quick    10 k and 100 k only, one round
// Every scenario runs in a fresh process (bench/matcher-scenario.ts); rounds alternate the order
// of scenarios; the table shows medians, the raw rounds follow; the Aho–Corasick ratio is the
// median of each round's engine ÷ baseline, the two run back to back. Figures: docs/PERFORMANCE.md.

import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

interface Result {
  engine: string;
  monitors: number;
  items: number;
  itemsPerSecond: number;
  mbPerSecond: number;
  matchesPerItem: number;
  buildMs: number;
  bytesPerMonitor: number;
  candidatesPerItem?: number;
  queries?: number;
  addMeanMs?: number;
  addP99Ms?: number;
  removeMeanMs?: number;
  removeP99Ms?: number;
}

interface Scenario {
  engine: 'earshot' | 'regexp' | 'aho-corasick';
  monitors: number;
  /** Items matched by the slow baselines: the first N of the corpus. */
  sample?: number;
}

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const quick = values.quick;
const sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000];
const rounds = quick ? 1 : 3;
const regexpSample: Record<number, number> = { 10000: 300, 100000: 40, 1000000: 8 };
const ahoSample: Record<number, number> = { 10000: 3086, 100000: 1000, 1000000: 300 };

function runScenario(scenario: Scenario): Result {
  const args = [
    '--expose-gc',
    '--max-old-space-size=12000',
    `${import.meta.dirname}/matcher-scenario.ts`,
  ];
  args.push('--engine', scenario.engine, '--monitors', String(scenario.monitors));
  if (scenario.sample !== undefined) args.push('--sample', String(scenario.sample));
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) {
    throw new Error(`${scenario.engine} at ${scenario.monitors} failed:\n${child.stderr}`);
  }
  return JSON.parse(child.stdout) as Result;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const regexpScenarios: Scenario[] = sizes.map((monitors) => ({
  engine: 'regexp',
  monitors,
  sample: regexpSample[monitors],
}));

const results = new Map<string, Result[]>();
const keyOf = (scenario: Scenario) => `${scenario.engine}@${scenario.monitors}`;
const record = (scenario: Scenario) => {
  const started = performance.now();
  const result = runScenario(scenario);
  process.stderr.write(
    `  ${keyOf(scenario).padEnd(22)} ${result.mbPerSecond.toFixed(3).padStart(9)} MB/s  (${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
  );
  const list = results.get(keyOf(scenario)) ?? [];
  list.push(result);
  results.set(keyOf(scenario), list);
};

process.stderr.write(
  `matcher bench: ${quick ? 'quick' : 'full'}, ${rounds} round(s) of the engine and of Aho–Corasick, 1 of the RegExp baseline\n`,
);
// The machine's speed drifts by tens of percent from minute to minute on some hosts, so each
// round runs the engine and Aho–Corasick back to back at each size (which goes first alternates)
// and the ratio is taken within the pair. The RegExp baseline is thousands of times slower; one
// run is enough.
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? sizes : [...sizes].reverse();
  for (const monitors of order) {
    const pair: Scenario[] = [
      { engine: 'earshot', monitors },
      { engine: 'aho-corasick', monitors, sample: ahoSample[monitors] },
    ];
    for (const scenario of round % 2 === 0 ? pair : pair.reverse()) record(scenario);
  }
  if (round === 0) for (const scenario of regexpScenarios) record(scenario);
}

const fmt = (value: number | undefined, digits = 1) =>
  value === undefined ? '-' : value.toFixed(digits);
const medianOf = (key: string, field: keyof Result) =>
  median((results.get(key) ?? []).map((result) => Number(result[field] ?? Number.NaN)));

const lines: string[] = [];
lines.push(
  '| monitors | engine | MB/s | items/s | build s | bytes/monitor | add ms (mean / p99) | remove ms (mean / p99) | matches/item | items timed |',
);
lines.push('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const monitors of sizes) {
  for (const engine of ['earshot', 'aho-corasick', 'regexp']) {
    const key = `${engine}@${monitors}`;
    const list = results.get(key);
    if (list === undefined) continue;
    const m = (field: keyof Result) => medianOf(key, field);
    const latency =
      engine === 'earshot'
        ? [
            `${fmt(m('addMeanMs'), 4)} / ${fmt(m('addP99Ms'), 4)}`,
            `${fmt(m('removeMeanMs'), 4)} / ${fmt(m('removeP99Ms'), 4)}`,
          ]
        : ['-', '-'];
    lines.push(
      `| ${monitors.toLocaleString('en')} | ${engine} | ${fmt(m('mbPerSecond'), engine === 'earshot' ? 1 : 4)} | ${Math.round(m('itemsPerSecond')).toLocaleString('en')} | ${fmt(m('buildMs') / 1000, 2)} | ${Math.round(m('bytesPerMonitor'))} | ${latency[0]} | ${latency[1]} | ${fmt(m('matchesPerItem'), 2)} | ${list[0]!.items.toLocaleString('en')} |`,
    );
  }
}
lines.push('');
lines.push('Throughput ratios, engine ÷ baseline, same run:');
const times = (ratio: number) =>
  `×${ratio < 100 ? ratio.toFixed(1) : Math.round(ratio).toLocaleString('en')}`;
for (const monitors of sizes) {
  const engineRounds = (results.get(`earshot@${monitors}`) ?? []).map((r) => r.mbPerSecond);
  const ahoRounds = (results.get(`aho-corasick@${monitors}`) ?? []).map((r) => r.mbPerSecond);
  const paired = engineRounds.map((value, round) => value / ahoRounds[round]!);
  const regexp = median(engineRounds) / medianOf(`regexp@${monitors}`, 'mbPerSecond');
  lines.push(
    `- ${monitors.toLocaleString('en')} monitors: aho-corasick ${times(median(paired))} (median of the rounds' ratios ${paired.map((ratio) => ratio.toFixed(1)).join(', ')}), regexp ${times(regexp)}`,
  );
}
lines.push('');
lines.push(
  `Every engine matches one item to warm up, then repeats its items for at least 2 s (at least one pass): the engine all ${results.get(`earshot@${sizes[0]}`)?.[0]?.items ?? ''}, a baseline the first N of them ("items timed"). Medians of ${rounds} round(s) of the engine and of Aho–Corasick, one of RegExp; raw rounds, in the order they ran:`,
);
for (const [key, list] of results) {
  lines.push(
    `- ${key}: ${list.map((r) => `${r.mbPerSecond.toFixed(3)} MB/s, build ${(r.buildMs / 1000).toFixed(2)} s, ${Math.round(r.bytesPerMonitor)} B/monitor`).join('; ')}`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
