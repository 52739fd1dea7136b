// Intents, sentiment and language (src/signals) against the hand-labelled items of
// bench/signals-labels/ (how they were drawn and labelled: its README): precision and recall
// per class, and the items each got wrong with --errors.
//   npx node bench/signals-eval.ts [--errors]
// Figures: docs/PERFORMANCE.md ("Item signals").

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { INTENTS, SENTIMENTS } from '../src/shared/signals.ts';
import { itemSignals } from '../src/signals/item-signals.ts';
import type { SampleItem } from './signals-sample.ts';

const DIR = fileURLToPath(new URL('signals-labels/', import.meta.url));
const { values } = parseArgs({ options: { errors: { type: 'boolean', default: false } } });

type Label = { intents: string[]; sentiment: string | null; language: string | null };

const items: SampleItem[] = readFileSync(`${DIR}sample.jsonl`, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const labels = new Map<string, Label>(
  readFileSync(`${DIR}labels.tsv`, 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => {
      const [id = '', intents = '-', sentiment = '-', language = '-'] = line.split('\t');
      const value = (field: string) => (field === '-' ? null : field);
      return [
        id,
        {
          intents: intents === '-' ? [] : intents.split(','),
          sentiment: value(sentiment),
          language: value(language),
        },
      ];
    }),
);

type Pair = { id: string; truth: string[]; guess: string[] };
const intents: Pair[] = [];
const sentiment: Pair[] = [];
const language: Pair[] = [];
for (const item of items) {
  const label = labels.get(item.id);
  if (!label) throw new Error(`${item.id} has no label in labels.tsv`);
  const guess = itemSignals(item);
  intents.push({ id: item.id, truth: label.intents, guess: [...guess.intents] });
  // Sentiment is labelled (and guessed) for English items only; each side's null is "none".
  sentiment.push({
    id: item.id,
    truth: label.sentiment ? [label.sentiment] : [],
    guess: guess.sentiment ? [guess.sentiment] : [],
  });
  language.push({
    id: item.id,
    truth: label.language ? [label.language] : [],
    guess: guess.language ? [guess.language] : [],
  });
}

function table(title: string, pairs: Pair[], classes: readonly string[]): void {
  console.log(`\n${title} (${pairs.length} items)\n`);
  console.log('| class | labelled | tagged | right | precision | recall |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const name of classes) {
    const labelled = pairs.filter((pair) => pair.truth.includes(name)).length;
    const tagged = pairs.filter((pair) => pair.guess.includes(name)).length;
    const right = pairs.filter(
      (pair) => pair.truth.includes(name) && pair.guess.includes(name),
    ).length;
    const share = (n: number, of: number) => (of === 0 ? '–' : `${Math.round((100 * n) / of)} %`);
    console.log(
      `| ${name} | ${labelled} | ${tagged} | ${right} | ${share(right, tagged)} | ${share(right, labelled)} |`,
    );
  }
  if (values.errors) {
    for (const pair of pairs) {
      const missed = pair.truth.filter((name) => !pair.guess.includes(name));
      const wrong = pair.guess.filter((name) => !pair.truth.includes(name));
      if (missed.length + wrong.length === 0) continue;
      const item = items.find((i) => i.id === pair.id);
      const text = `${item?.title ?? ''} | ${item?.body ?? ''}`.replace(/\s+/g, ' ').slice(0, 160);
      console.log(`  ${pair.id} missed [${missed}] wrong [${wrong}]: ${text}`);
    }
  }
}

const languages = [...new Set(language.flatMap((pair) => [...pair.truth, ...pair.guess]))].sort(
  (a, b) =>
    language.filter((p) => p.truth.includes(b)).length -
      language.filter((p) => p.truth.includes(a)).length || a.localeCompare(b),
);
table('Intents', intents, INTENTS);
table(
  'Sentiment (items labelled English)',
  sentiment.filter((_pair, i) => language[i]?.truth[0] === 'en'),
  SENTIMENTS,
);
table('Language', language, languages);
