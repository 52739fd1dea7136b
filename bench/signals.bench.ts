// The cost of an item's signals (src/signals) on the recorded items, per part and in all, with
// the ratio to what storing an item already computes per item (its search document,
// `searchDocumentLiteral`), measured in the same run. Ingestion computes signals once per item
// on the source's leader: Bluesky's firehose at 100 posts/s leaves 10 ms an item.
//   npm run bench -- signals [--rounds 5]
// Figures: docs/PERFORMANCE.md ("Item signals").

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { searchDocumentLiteral } from '../src/db/search-text.ts';
import { classifyIntents } from '../src/signals/intents.ts';
import { itemSignals } from '../src/signals/item-signals.ts';
import { languageOf } from '../src/signals/language.ts';
import { sentimentOf } from '../src/signals/sentiment.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);

type Item = {
  title: string | null;
  body: string;
  url: string | null;
  kind: 'post' | 'comment';
};
const items: Item[] = readFileSync(`${ROOT}tests/fixtures/items/items.jsonl`, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line))
  .map((item) => ({ title: item.title, body: item.body ?? '', url: item.url, kind: item.kind }));
const textOf = (item: Item) => `${item.title ?? ''}\n${item.body}`;

const scenarios: [string, (item: Item) => unknown][] = [
  ['search document (baseline)', (item) => searchDocumentLiteral(item.title, item.body, item.url)],
  ['intents (rules)', (item) => classifyIntents(item)],
  ['language (eld)', (item) => languageOf(textOf(item))],
  ['sentiment (wink-nlp)', (item) => sentimentOf(textOf(item))],
  ['all signals (itemSignals)', (item) => itemSignals(item)],
];

/** µs per item over at least `minMs` of whole passes. */
function measure(run: (item: Item) => unknown, minMs = 1000): number {
  let passes = 0;
  let sink = 0;
  const started = performance.now();
  do {
    for (const item of items) if (run(item)) sink++;
    passes++;
  } while (performance.now() - started < minMs);
  if (sink < 0) console.log(sink);
  return ((performance.now() - started) * 1000) / (passes * items.length);
}

for (const [, run] of scenarios) measure(run, 300);
const results = new Map<string, number[]>(scenarios.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? scenarios : [...scenarios].reverse();
  for (const [name, run] of order) results.get(name)?.push(measure(run));
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const baseline = median(results.get(scenarios[0]![0]) ?? []);
const chars = items.reduce((sum, item) => sum + textOf(item).length, 0) / items.length;
console.log(
  `${items.length} recorded items (tests/fixtures/items), ${Math.round(chars)} characters on average, ${rounds} rounds, median\n`,
);
console.log(
  '| step | µs per item | items/s (one core) | × search document | share of 10 ms (100 posts/s) |',
);
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [name] of scenarios) {
  const us = median(results.get(name) ?? []);
  console.log(
    `| ${name} | ${us.toFixed(1)} | ${Math.round(1e6 / us).toLocaleString('en')} | ${(us / baseline).toFixed(1)} | ${((us / 10_000) * 100).toFixed(2)} % |`,
  );
}
console.log('\nrounds (µs per item):');
for (const [name, list] of results)
  console.log(`  ${name}: ${list.map((v) => v.toFixed(1)).join(' ')}`);
