// The bulk build (`addMany`) of this checkout's engine against another commit's, each build in a
// fresh process (so neither inherits the other's heap), old and new in alternation, which goes
// first alternating too. Prints every run (CPU seconds of the call for the whole process and for
// its main thread alone, the rest being the garbage collector's helpers; wall seconds), the
// medians, the median of the pairs' CPU ratios (new ÷ old) and the load average.
//   git worktree add --detach /tmp/earshot-base <commit>   (and link its node_modules)
//   nice -n 19 node --expose-gc bench/matcher-build.ts --baseline /tmp/earshot-base --monitors 1000000
// With --engine <checkout> it builds once with that checkout's engine and prints one JSON line.

import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { MonitorEntry } from '../src/matcher/monitor-index.ts';
import { buildVocabulary, generateMonitors, loadItems } from './matcher-workload.ts';

const { values } = parseArgs({
  options: {
    baseline: { type: 'string' },
    engine: { type: 'string' },
    monitors: { type: 'string', default: '1000000' },
    pairs: { type: 'string', default: '5' },
  },
});

interface Run {
  /** CPU time of the whole process: the main thread and the garbage collector's helpers. */
  readonly cpuSeconds: number;
  /** CPU time of the main thread alone. */
  readonly mainCpuSeconds: number;
  readonly wallSeconds: number;
  readonly kept: number;
}

const median = (list: readonly number[]): number => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const round = (value: number): number => Number(value.toFixed(3));

async function buildOnce(checkout: string, count: number): Promise<Run> {
  const engine = (await import(join(resolve(checkout), 'src', 'matcher', 'monitor-index.ts'))) as {
    createMonitorIndex: () => { addMany(monitors: readonly MonitorEntry[]): number };
  };
  const monitors = generateMonitors(buildVocabulary(loadItems()), count, 1);
  // The workload's garbage is collected before, so the build pays only for its own.
  globalThis.gc?.();
  globalThis.gc?.();
  const index = engine.createMonitorIndex();
  const cpu = process.cpuUsage();
  const mainCpu = process.threadCpuUsage();
  const start = performance.now();
  const kept = index.addMany(monitors);
  const wallSeconds = (performance.now() - start) / 1000;
  const mainUsed = process.threadCpuUsage(mainCpu);
  const used = process.cpuUsage(cpu);
  return {
    cpuSeconds: (used.user + used.system) / 1e6,
    mainCpuSeconds: (mainUsed.user + mainUsed.system) / 1e6,
    wallSeconds,
    kept,
  };
}

function spawnBuild(checkout: string, count: number): Run {
  const output = execFileSync(
    process.execPath,
    ['--expose-gc', import.meta.filename, '--engine', checkout, '--monitors', String(count)],
    { encoding: 'utf8' },
  );
  return JSON.parse(output) as Run;
}

const count = Number(values.monitors);
if (values.engine !== undefined) {
  process.stdout.write(`${JSON.stringify(await buildOnce(values.engine, count))}\n`);
} else if (values.baseline !== undefined) {
  const current = resolve(import.meta.dirname, '..');
  const olds: Run[] = [];
  const news: Run[] = [];
  const ratios: number[] = [];
  const loadBefore = loadavg()[0]!;
  for (let pair = 0; pair < Number(values.pairs); pair++) {
    const oldFirst = pair % 2 === 0;
    const first = spawnBuild(oldFirst ? values.baseline : current, count);
    const second = spawnBuild(oldFirst ? current : values.baseline, count);
    const [old, now] = oldFirst ? [first, second] : [second, first];
    if (old.kept !== now.kept) throw new Error('The two engines kept different monitors.');
    olds.push(old);
    news.push(now);
    ratios.push(now.cpuSeconds / old.cpuSeconds);
  }
  const summary = (runs: readonly Run[]) => ({
    cpu: runs.map((run) => round(run.cpuSeconds)),
    mainCpu: runs.map((run) => round(run.mainCpuSeconds)),
    wall: runs.map((run) => round(run.wallSeconds)),
    cpuMedian: round(median(runs.map((run) => run.cpuSeconds))),
    mainCpuMedian: round(median(runs.map((run) => run.mainCpuSeconds))),
    wallMedian: round(median(runs.map((run) => run.wallSeconds))),
  });
  process.stdout.write(
    `${JSON.stringify({
      monitors: count,
      old: summary(olds),
      new: summary(news),
      cpuNewOverOld: round(median(ratios)),
      pairs: ratios.map(round),
      loadAverage: [round(loadBefore), round(loadavg()[0]!)],
    })}\n`,
  );
} else {
  process.stderr.write(
    'usage: node --expose-gc bench/matcher-build.ts --baseline <checkout> [--monitors N] [--pairs K]\n',
  );
  process.exit(2);
}
